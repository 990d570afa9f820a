package io.jobinfo.store.seatunnel.it;

import io.jobinfo.store.testing.ProcessTimeline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The figures of one {@link DropInSoakTest} run: operations by kind, failures, the lost and the orphans, and the
 * member processes' {@link ProcessTimeline}. Writes {@code soak.json}, {@code soak.png} and {@code soak.md} (the
 * section {@link PublishEngineSoakReport} puts into docs/reliability.md).
 */
final class EngineSoakReport {

    /**
     * SeaTunnel members load classes and fill caches for minutes: warm-up 5 min, windows of 5 min; growth limits 32
     * MiB of heap (a member's live heap moves by that much with the 4-8 jobs it runs), 16 descriptors, 16 threads
     * (each job's tasks run on threads of their own).
     */
    static final ProcessTimeline.Limits LIMITS = new ProcessTimeline.Limits(300, 300, 32, 16, 16);

    private final Duration length;
    private final Duration killEvery;
    private final int graceSeconds;
    private final Instant startedAt = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    final ProcessTimeline timeline = new ProcessTimeline(LIMITS);
    final Map<String, Integer> operations = new LinkedHashMap<>();
    final List<String> failedOps = new ArrayList<>();
    /** Operations that failed by SeaTunnel's known errors ({@link KnownEngineFailures}). */
    final List<EngineFailure> engineFailures = new ArrayList<>();
    final List<String> lost = new ArrayList<>();
    final Set<String> orphansPastGrace = new LinkedHashSet<>();
    /** Jobs that answered another status before RUNNING again after a kill, with what they answered. */
    final List<String> transientAfterKill = new ArrayList<>();
    int streamingAtEnd;
    int batches;
    int blobsLeftAtEnd = -1;

    EngineSoakReport(Duration length, Duration killEvery, int graceSeconds) {
        this.length = length;
        this.killEvery = killEvery;
        this.graceSeconds = graceSeconds;
    }

    /**
     * Records a failed operation: as SeaTunnel's known error if {@link KnownEngineFailures} matches it, else as a
     * failed operation.
     */
    void failed(String failure) {
        java.util.Optional<KnownEngineFailures.Signature> known = KnownEngineFailures.match(failure);
        if (known.isPresent()) {
            engineFailures.add(new EngineFailure(known.get().name(), failure));
        } else {
            failedOps.add(failure);
        }
    }

    int operationCount() {
        return operations.values().stream().mapToInt(Integer::intValue).sum();
    }

    void count(String op) {
        operations.merge(op, 1, Integer::sum);
    }

    List<ProcessTimeline.Kill> kills() {
        return timeline.kills();
    }

    /** Writes the three files under {@code dir}; never throws (a failed write is printed: the figures are lost). */
    void write(Path dir) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("soak.json"), json());
            timeline.chart(dir.resolve("soak.png"));
            Files.writeString(dir.resolve("soak.md"), markdown());
        } catch (IOException | RuntimeException e) {
            System.err.println("DropInSoakTest: could not write the report: " + e);
        }
    }

    private String json() {
        StringBuilder b = new StringBuilder("{\n");
        b.append("  \"startedAt\": \"").append(startedAt).append("\",\n");
        b.append("  \"minutes\": ").append(length.toMinutes()).append(",\n");
        b.append("  \"killEveryMinutes\": ").append(killEvery.toMinutes()).append(",\n");
        b.append("  \"operations\": {");
        int i = 0;
        for (Map.Entry<String, Integer> e : operations.entrySet()) {
            b.append(i++ == 0 ? "" : ", ").append('"').append(e.getKey()).append("\": ").append(e.getValue());
        }
        b.append("},\n  \"failedOps\": ").append(quoted(failedOps)).append(",\n");
        b.append("  \"engineFailures\": ").append(quoted(engineFailures.stream().map(EngineFailure::line).toList()))
                .append(",\n");
        b.append("  \"lost\": ").append(quoted(lost)).append(",\n");
        b.append("  \"transientAfterKill\": ").append(quoted(transientAfterKill)).append(",\n");
        b.append("  \"orphansPastGrace\": ").append(quoted(new ArrayList<>(orphansPastGrace))).append(",\n");
        b.append("  \"blobsLeftAtEnd\": ").append(blobsLeftAtEnd).append(",\n");
        return b.append(timeline.jsonArrays("streamingJobs")).append("\n}\n").toString();
    }

    private static String quoted(List<String> xs) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < xs.size(); i++) {
            b.append(i == 0 ? "" : ", ").append('"').append(xs.get(i).replace("\\", "\\\\").replace("\"", "\\\""))
                    .append('"');
        }
        return b.append(']').toString();
    }

    /**
     * A failed operation as the docs list it: what failed, up to SeaTunnel's detail, and the detail's innermost
     * {@code Caused by:} with its first frame outside the JDK (a job's detail holds SeaTunnel's whole stack trace,
     * some 3 KB);
     * soak.json keeps the whole text.
     */
    static String shortFailure(String failure) {
        int detail = failure.indexOf("; SeaTunnel's detail:");
        if (detail < 0) {
            return failure;
        }
        String[] lines = failure.substring(detail).replace("\\n", "\n").replace("\\t", "\t").split("\n");
        String cause = null;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].trim().startsWith("Caused by:")) {
                cause = lines[i].trim().replace("\\\"", "\"");
                // its first frame outside the JDK: where SeaTunnel's code failed
                for (int j = i + 1; j < lines.length && lines[j].trim().startsWith("at "); j++) {
                    String frame = lines[j].trim();
                    if (!frame.startsWith("at java.") && !frame.contains("java.base/")) {
                        cause += " " + frame;
                        break;
                    }
                }
            }
        }
        return failure.substring(0, detail) + (cause == null ? "" : "; SeaTunnel's root cause: " + cause)
                + " (the whole detail in soak.json)";
    }

    /** The docs section: what ran, the figures, the verdict, the chart. */
    String markdown() {
        StringBuilder b = new StringBuilder();
        b.append("## Soak on the real engine: ").append(length.toMinutes())
                .append(" minutes of job churn and master kills\n\n");
        b.append("Measured by `DropInSoakTest` (seatunnel-it) started ").append(startedAt).append(": a 3-member"
                + " SeaTunnel 2.3.8 cluster of member processes with the drop-in on a local store (grace period ")
                .append(graceSeconds).append(" s), one operation every 2-4 s in turn: streaming FakeSource jobs"
                + " submitted (1 x 2, 110 x 20 and every tenth 1000 x 20 tables x columns) and cancelled, kept"
                + " between " + DropInSoakTest.MIN_STREAMING + " and " + DropInSoakTest.MAX_STREAMING + " running;"
                + " 1 x 2 batch jobs that finish; a streaming job stopped with a savepoint and restored from it under"
                + " the same id. Every ").append(killEvery.toMinutes()).append(" minutes the master is killed with"
                + " `kill -9` between two operations; the test waits until every streaming job is RUNNING again, then"
                + " starts the member again. Every " + DropInSoakTest.SAMPLE_SECONDS + " s each member process is"
                + " sampled (live heap after a full GC, `/proc` descriptors and threads) and the store audited for"
                + " blobs without an entry past the grace period and two sweeps.\n\n");
        b.append("| figure | value |\n|---|---:|\n");
        operations.forEach((op, n) -> b.append("| operations: ").append(op).append(" | ").append(n).append(" |\n"));
        b.append("| master kills | ").append(timeline.kills().size()).append(" |\n");
        b.append("| kill -> every streaming job RUNNING again, median / max | ").append(timeline.recovery())
                .append(" |\n");
        b.append("| failed operations | ").append(failedOps.size()).append(" |\n");
        b.append("| jobs failed by SeaTunnel's known errors (allow-listed: SeaTunnel's detail says FAILED, its root"
                + " cause matches a known error, no frame of the drop-in; at most 1 in "
                + KnownEngineFailures.BOUND_PER_OPERATIONS + " operations, here ")
                .append(KnownEngineFailures.bound(operationCount())).append(") | ").append(engineFailures.size())
                .append(" |\n");
        b.append("| jobs that answered another status before RUNNING again after a kill (UNKNOWABLE, or a restored"
                + " job's SAVEPOINT_DONE from SeaTunnel's history until the new master restored it) | ")
                .append(transientAfterKill.size()).append(" |\n");
        b.append("| streaming jobs RUNNING at the end / batch jobs run | ").append(streamingAtEnd).append(" / ")
                .append(batches).append(" |\n");
        b.append("| jobs lost (not RUNNING, FINISHED or CANCELED as they should be, or no reference) | ")
                .append(lost.size()).append(" |\n");
        b.append("| orphans past the grace seen during the soak | ").append(orphansPastGrace.size()).append(" |\n");
        b.append("| blobs left after every job ended and the grace passed | ").append(blobsLeftAtEnd).append(" |\n");
        b.append(String.format(Locale.ROOT, "| live heap after GC, max over all samples | %.1f MiB |%n",
                timeline.max(ProcessTimeline.Sample::heapMib)));
        b.append(String.format(Locale.ROOT, "| open file descriptors / threads, max over all samples | %.0f / %.0f |%n",
                timeline.max(s -> s.fds()), timeline.max(s -> s.threads())));
        b.append('\n');
        for (String f : failedOps) {
            b.append("- failed: ").append(shortFailure(f)).append('\n');
        }
        for (EngineFailure e : engineFailures) {
            b.append("- SeaTunnel's known error, ").append(e.signature()).append(": ")
                    .append(shortFailure(e.failure())).append('\n');
        }
        for (String l : lost) {
            b.append("- lost: ").append(l).append('\n');
        }
        b.append('\n').append(timeline.flatnessMarkdown("SeaTunnel member process"));
        b.append("\n![heap, descriptors and threads per SeaTunnel member process over the soak]"
                + "(reliability/engine-soak.png)\n\n");
        b.append("Regenerate (the soak never writes tracked files): `mvn -B -pl seatunnel-it -am verify"
                + " -Djobinfo.it.soak=true -Dtest='io/jobinfo/store/seatunnel/it/DropInSoakTest'"
                + " -Dsurefire.failIfNoSpecifiedTests=false` (`-Djobinfo.it.soak.minutes=N` for another length); it"
                + " writes `seatunnel-it/target/seatunnel-it/soak/`; then, from the repository root, `java -cp"
                + " seatunnel-it/target/test-classes:jobinfo-store-core/target/test-classes"
                + " io.jobinfo.store.seatunnel.it.PublishEngineSoakReport` puts this section and the chart"
                + " (`docs/reliability/engine-soak.png`) here.\n");
        return b.toString();
    }

    /** An operation that failed by one of SeaTunnel's known errors: the signature's name and the failure. */
    record EngineFailure(String signature, String failure) {
        /** As the JSON lists it: the signature, then the failure. */
        String line() {
            return signature + " | " + failure;
        }
    }
}
