package io.jobinfo.store.it;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The figures of one {@link SoakTest} run: samples of every member process over time, the master kills, counters,
 * and the flatness verdict. Writes {@code soak.json} (everything), {@code soak.png} (heap, descriptors, threads per
 * member process over time) and {@code soak.md} (the section {@link PublishSoakReport} puts into
 * docs/reliability.md), all under {@code target/soak/}.
 */
final class SoakReport {

    /** Samples taken in the first this-many seconds of a process's life are warm-up (class loading, cache filling). */
    static final double WARMUP_SECONDS = 120;
    /** The window at each end of a process's life whose medians are compared. */
    static final double WINDOW_SECONDS = 120;
    /** A process is judged only if it lived (was sampled) at least this long. */
    static final double MIN_LIFE_SECONDS = WARMUP_SECONDS + 2 * WINDOW_SECONDS;
    static final double HEAP_GROWTH_LIMIT_MIB = 16;
    static final double FD_GROWTH_LIMIT = 16;
    static final double THREAD_GROWTH_LIMIT = 8;

    record Sample(double t, String member, long pid, double heapMib, int fds, int threads, long cachedBytes) {
    }

    record Kill(double t, double recoverySeconds, int restored) {
    }

    /** One metric of one process: median of its early and its late window, and whether the growth is in bounds. */
    record Flatness(String member, String metric, double early, double late, double limit, double lifeSeconds) {
        boolean flat() {
            return late - early <= limit;
        }
    }

    private final Duration length;
    private final long killEverySeconds;
    private final long cacheMaxBytes;
    private final int workingSet;
    private final int jobBytes;
    private final Instant startedAt = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    final List<Sample> samples = new ArrayList<>();
    final List<Kill> kills = new ArrayList<>();
    final List<String> failedOps = new ArrayList<>();
    final Map<String, Double> firstSeen = new LinkedHashMap<>();
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
                int fds;
                try (Stream<Path> fd = Files.list(Path.of("/proc", Long.toString(m.pid()), "fd"))) {
                    fds = (int) fd.count();
                }
                int threads = Files.readAllLines(Path.of("/proc", Long.toString(m.pid()), "status")).stream()
                        .filter(l -> l.startsWith("Threads:")).mapToInt(l -> Integer.parseInt(l.substring(8).trim()))
                        .findFirst().orElse(-1);
                firstSeen.putIfAbsent(m.name(), t);
                samples.add(new Sample(t, m.name(), m.pid(), Long.parseLong(s[1]) / 1048576.0, fds, threads,
                        Long.parseLong(s[3])));
            } catch (Exception e) {
                // the process died between listing and sampling (a kill): no sample
            }
        }
    }

    void kill(double t, double recoverySeconds, int restored) {
        kills.add(new Kill(t, recoverySeconds, restored));
    }

    /** Per process that lived long enough, per metric: early and late medians. */
    List<Flatness> flatness() {
        List<Flatness> out = new ArrayList<>();
        for (String member : firstSeen.keySet()) {
            List<Sample> own = samples.stream().filter(s -> s.member().equals(member)).toList();
            double born = own.get(0).t();
            double last = own.get(own.size() - 1).t();
            if (last - born < MIN_LIFE_SECONDS) {
                continue;
            }
            List<Sample> early = own.stream().filter(s -> s.t() >= born + WARMUP_SECONDS
                    && s.t() < born + WARMUP_SECONDS + WINDOW_SECONDS).toList();
            List<Sample> late = own.stream().filter(s -> s.t() > last - WINDOW_SECONDS).toList();
            out.add(new Flatness(member, "heap used after GC (MiB)", median(early, Sample::heapMib),
                    median(late, Sample::heapMib), HEAP_GROWTH_LIMIT_MIB, last - born));
            out.add(new Flatness(member, "open file descriptors", median(early, s -> s.fds()),
                    median(late, s -> s.fds()), FD_GROWTH_LIMIT, last - born));
            out.add(new Flatness(member, "threads", median(early, s -> s.threads()),
                    median(late, s -> s.threads()), THREAD_GROWTH_LIMIT, last - born));
        }
        return out;
    }

    private static double median(List<Sample> xs, java.util.function.ToDoubleFunction<Sample> f) {
        double[] v = xs.stream().mapToDouble(f).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private double max(java.util.function.ToDoubleFunction<Sample> f) {
        return samples.stream().mapToDouble(f).max().orElse(Double.NaN);
    }

    void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("soak.json"), json());
        chart(dir.resolve("soak.png"));
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
        b.append("  \"kills\": [");
        for (int i = 0; i < kills.size(); i++) {
            Kill k = kills.get(i);
            b.append(i == 0 ? "\n" : ",\n").append(String.format(Locale.ROOT,
                    "    {\"t\": %.1f, \"recoverySeconds\": %.2f, \"restored\": %d}", k.t(), k.recoverySeconds(),
                    k.restored()));
        }
        b.append("\n  ],\n  \"flatness\": [");
        List<Flatness> fl = flatness();
        for (int i = 0; i < fl.size(); i++) {
            Flatness f = fl.get(i);
            b.append(i == 0 ? "\n" : ",\n").append(String.format(Locale.ROOT,
                    "    {\"member\": \"%s\", \"metric\": \"%s\", \"early\": %.1f, \"late\": %.1f, \"limit\": %.1f,"
                            + " \"lifeSeconds\": %.0f, \"flat\": %b}", f.member(), f.metric(), f.early(), f.late(),
                    f.limit(), f.lifeSeconds(), f.flat()));
        }
        b.append("\n  ],\n  \"samples\": [");
        for (int i = 0; i < samples.size(); i++) {
            Sample s = samples.get(i);
            b.append(i == 0 ? "\n" : ",\n").append(String.format(Locale.ROOT,
                    "    {\"t\": %.1f, \"member\": \"%s\", \"pid\": %d, \"heapUsedAfterGcMib\": %.2f, \"fds\": %d,"
                            + " \"threads\": %d, \"cachedBytes\": %d}", s.t(), s.member(), s.pid(), s.heapMib(),
                    s.fds(), s.threads(), s.cachedBytes()));
        }
        b.append("\n  ]\n}\n");
        return b.toString();
    }

    private void chart(Path png) throws IOException {
        List<XYChart> charts = List.of(
                lines("heap used after full GC, per member process", "MiB", Sample::heapMib),
                lines("open file descriptors (/proc/<pid>/fd)", "descriptors", s -> s.fds()),
                lines("threads (/proc/<pid>/status)", "threads", s -> s.threads()));
        BitmapEncoder.saveBitmap(charts, 3, 1, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private XYChart lines(String title, String yTitle, java.util.function.ToDoubleFunction<Sample> f) {
        XYChart c = new XYChartBuilder().width(900).height(300).title(title).xAxisTitle("minutes into the soak")
                .yAxisTitle(yTitle).build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        c.getStyler().setMarkerSize(3);
        double top = 0;
        for (String member : firstSeen.keySet()) {
            List<Sample> own = samples.stream().filter(s -> s.member().equals(member)).toList();
            List<Double> x = own.stream().map(s -> s.t() / 60).toList();
            List<Double> y = own.stream().map(f::applyAsDouble).toList();
            top = Math.max(top, y.stream().mapToDouble(Double::doubleValue).max().orElse(0));
            c.addSeries(member.replaceAll("-\\d+$", ""), x, y).setMarker(SeriesMarkers.CIRCLE);
        }
        if (!kills.isEmpty()) {
            double mark = top * 1.05;
            XYSeries k = c.addSeries("master kill -9", kills.stream().map(kk -> kk.t() / 60).toList(),
                    kills.stream().map(kk -> mark).toList());
            k.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            k.setMarker(SeriesMarkers.TRIANGLE_DOWN);
            k.setMarkerColor(Color.RED);
        }
        c.getStyler().setYAxisMin(0.0);
        return c;
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
        b.append(String.format(Locale.ROOT, "| recovery after a kill (kill to restored and 3 members safe), median"
                + " / max | %.1f s / %.1f s |%n", medianOf(kills.stream().map(Kill::recoverySeconds).toList()),
                kills.stream().mapToDouble(Kill::recoverySeconds).max().orElse(Double.NaN)));
        b.append(String.format(Locale.ROOT, "| heap used after GC, max over all samples | %.1f MiB |%n",
                max(Sample::heapMib)));
        b.append(String.format(Locale.ROOT, "| open file descriptors, max over all samples | %.0f |%n",
                max(s -> s.fds())));
        b.append(String.format(Locale.ROOT, "| threads, max over all samples | %.0f |%n", max(s -> s.threads())));
        b.append("\n");
        List<Flatness> fl = flatness();
        b.append("Flatness, per member process that lived at least ").append((int) (MIN_LIFE_SECONDS / 60))
                .append(" minutes (the master is killed, so no process lives the whole soak): the median of its first ")
                .append((int) (WINDOW_SECONDS / 60)).append(" minutes after a ").append((int) (WARMUP_SECONDS / 60))
                .append("-minute warm-up against the median of its last ").append((int) (WINDOW_SECONDS / 60))
                .append(String.format(Locale.ROOT, " minutes; flat means a growth of at most %.0f MiB of heap, %.0f"
                        + " descriptors, %.0f threads.%n%n", HEAP_GROWTH_LIMIT_MIB, FD_GROWTH_LIMIT,
                        THREAD_GROWTH_LIMIT));
        b.append("| member process | lived | metric | early | late | flat |\n|---|---:|---|---:|---:|---|\n");
        for (Flatness f : fl) {
            b.append(String.format(Locale.ROOT, "| %s | %.0f min | %s | %.1f | %.1f | %s |%n", f.member(),
                    f.lifeSeconds() / 60, f.metric(), f.early(), f.late(), f.flat() ? "yes" : "**no**"));
        }
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

    private static double medianOf(List<Double> xs) {
        double[] v = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
