package io.jobinfo.store.it;

import io.jobinfo.store.testing.ProcessTimeline;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The figures of one {@link SoakTest} run: samples of every member process over time, the master kills, counters,
 * and the flatness verdict. Writes {@code soak.json} (everything), {@code soak.png} (heap, descriptors, threads per
 * member process over time) and {@code soak.md} (the section {@link PublishSoakReport} puts into
 * docs/reliability.md), all under {@code target/soak/}.
 */
final class SoakReport {

    /**
     * Warm-up 120 s, windows of 120 s, growth limits 16 MiB of heap, 16 descriptors, 8 threads (see
     * {@link ProcessTimeline}).
     */
    static final ProcessTimeline.Limits LIMITS = new ProcessTimeline.Limits(120, 120, 16, 16, 8);

    private final Duration length;
    private final long killEverySeconds;
    private final long cacheMaxBytes;
    private final int workingSet;
    private final int jobBytes;
    private final Instant startedAt = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    final ProcessTimeline timeline = new ProcessTimeline(LIMITS);
    final List<ProcessTimeline.Kill> kills = timeline.kills();
    final List<String> failedOps = new ArrayList<>();
    long acked;
    long gets;
    long removes;
    int lostAtRestore;
    int finalLost;
    int finalTorn;
    int finalNoBlob;
    int finalRegistered;
    int removed;
    int removedStillThere;
    int gcDeleted;
    int orphansAfterGc;

    SoakReport(Duration length, long killEverySeconds, long cacheMaxBytes, int workingSet, int jobBytes) {
        this.length = length;
        this.killEverySeconds = killEverySeconds;
        this.cacheMaxBytes = cacheMaxBytes;
        this.workingSet = workingSet;
        this.jobBytes = jobBytes;
    }

    /** Samples every live member process: heap after GC and cache (STATS), descriptors and threads (/proc). */
    void sample(double t, List<MemberProcess> members) {
        for (MemberProcess m : members) {
            try {
                String[] s = m.call("STATS", Duration.ofSeconds(30)).split(" ");
                timeline.sample(t, m.name(), m.pid(), Long.parseLong(s[1]) / 1048576.0, Long.parseLong(s[3]));
            } catch (Exception e) {
                // the process died between listing and sampling (a kill): no sample
            }
        }
    }

    void kill(double t, double recoverySeconds, int restored) {
        timeline.kill(t, recoverySeconds, restored);
    }

    void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("soak.json"), json());
        timeline.chart(dir.resolve("soak.png"));
        Files.writeString(dir.resolve("soak.md"), markdown());
    }

    private String json() {
        StringBuilder b = new StringBuilder("{\n");
        b.append("  \"startedAt\": \"").append(startedAt).append("\",\n");
        b.append("  \"minutes\": ").append(length.toMinutes()).append(",\n");
        b.append("  \"killEverySeconds\": ").append(killEverySeconds).append(",\n");
        b.append("  \"cacheMaxBytes\": ").append(cacheMaxBytes).append(",\n");
        b.append("  \"workingSet\": ").append(workingSet).append(",\n");
        b.append("  \"jobBytes\": ").append(jobBytes).append(",\n");
        b.append("  \"acknowledged\": ").append(acked).append(",\n");
        b.append("  \"gets\": ").append(gets).append(",\n");
        b.append("  \"removes\": ").append(removes).append(",\n");
        b.append("  \"failedOps\": ").append(failedOps.size()).append(",\n");
        b.append("  \"lostAtRestore\": ").append(lostAtRestore).append(",\n");
        b.append("  \"finalRegistered\": ").append(finalRegistered).append(",\n");
        b.append("  \"finalLost\": ").append(finalLost).append(",\n");
        b.append("  \"finalTorn\": ").append(finalTorn).append(",\n");
        b.append("  \"finalPointersWithoutBlob\": ").append(finalNoBlob).append(",\n");
        b.append("  \"removed\": ").append(removed).append(",\n");
        b.append("  \"removedStillThere\": ").append(removedStillThere).append(",\n");
        b.append("  \"gcDeleted\": ").append(gcDeleted).append(",\n");
        b.append("  \"orphansAfterGc\": ").append(orphansAfterGc).append(",\n");
        b.append(timeline.jsonArrays("cachedBytes"));
        b.append("\n}\n");
        return b.toString();
    }

    /** The docs section: what ran, the figures, the verdict, the chart. */
    String markdown() {
        StringBuilder b = new StringBuilder();
        b.append("## Soak: ").append(length.toMinutes()).append(" minutes of load and master kills\n\n");
        b.append("Measured by `SoakTest` (integration-tests) started ").append(startedAt).append(": a 3-member"
                + " cluster of member JVMs on the local store, each registry's cache bounded to ")
                .append(cacheMaxBytes >> 20).append(" MiB (the working set is about ").append(workingSet)
                .append(" jobs of ").append(jobBytes / 1000).append(" KB, twice the cache), continuous submits on the"
                + " master, gets on random members and removes (the job end) down to the working set; the master"
                + " killed with `kill -9` (a submit in flight) every ").append(killEverySeconds).append(" s ± a third;"
                + " a new member JVM joins, the next master takes over and restores every job. Every ")
                .append(SoakTest.SAMPLE_SECONDS).append(" s each member process is sampled: heap used after a full"
                + " GC, open file descriptors (`/proc/<pid>/fd`), threads (`/proc/<pid>/status`).\n\n");
        b.append("| figure | value |\n|---|---:|\n");
        row(b, "acknowledged submits", acked);
        row(b, "gets (each compared with what was submitted)", gets);
        row(b, "removes", removes);
        row(b, "master kills", kills.size());
        row(b, "failed operations outside kills", failedOps.size());
        row(b, "acknowledged jobs missing or torn at a restore after a kill", lostAtRestore);
        row(b, "registered acknowledged jobs verified at the end (map and store, byte for byte)", finalRegistered);
        row(b, "acknowledged jobs lost at the end", finalLost);
        row(b, "torn at the end", finalTorn);
        row(b, "pointers without blob at the end", finalNoBlob);
        row(b, "removed jobs (pointer and blob checked gone at the end)", removed);
        row(b, "removed jobs still there", removedStillThere);
        row(b, "orphans left after GC (past its grace period)", orphansAfterGc);
        b.append("| recovery after a kill (kill to restored and 3 members safe), median / max | ")
                .append(timeline.recovery()).append(" |\n");
        b.append(String.format(Locale.ROOT, "| heap used after GC, max over all samples | %.1f MiB |%n",
                timeline.max(ProcessTimeline.Sample::heapMib)));
        b.append(String.format(Locale.ROOT, "| open file descriptors, max over all samples | %.0f |%n",
                timeline.max(x -> x.fds())));
        b.append(String.format(Locale.ROOT, "| threads, max over all samples | %.0f |%n",
                timeline.max(x -> x.threads())));
        b.append("\n").append(timeline.flatnessMarkdown("member process"));
        b.append("\n![heap, descriptors and threads per member process over the soak](reliability/soak.png)\n\n");
        b.append("Regenerate (the soak never writes tracked files): run it (about ").append(length.toMinutes())
                .append(" minutes; `-Djobinfo.it.soak.minutes=N` for another length) with `mvn -B -pl integration-tests"
                + " -am verify -Djobinfo.it.soak=true -Dtest=SoakTest -Dsurefire.failIfNoSpecifiedTests=false`; it"
                + " writes `integration-tests/target/soak/` (`soak.json` with every sample, `soak.png`, `soak.md`);"
                + " then, from the repository root, `java -cp integration-tests/target/test-classes"
                + " io.jobinfo.store.it.PublishSoakReport` puts this section and the chart"
                + " (`docs/reliability/soak.png`) here.\n");
        return b.toString();
    }

    private static void row(StringBuilder b, String what, long value) {
        b.append("| ").append(what).append(" | ").append(value).append(" |\n");
    }

}
