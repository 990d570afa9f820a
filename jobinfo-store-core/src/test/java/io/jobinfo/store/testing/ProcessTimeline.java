package io.jobinfo.store.testing;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * What a soak records of its member processes over time, and its flatness verdict: samples of each process (heap used
 * after a full GC, open file descriptors from {@code /proc/<pid>/fd}, threads from {@code /proc/<pid>/status} and by
 * name from {@code /proc/<pid>/task/<tid>/comm}, and one figure of the soak's own), the master kills with their
 * recovery time, and per process that lived long enough the median of an early window (after a warm-up) against the
 * median of its last window. Used by integration-tests'
 * {@code SoakTest} (library member JVMs) and seatunnel-it's {@code DropInSoakTest} (SeaTunnel member processes);
 * here, in the core test-jar, so that neither module needs the other. Not thread-safe: one soak thread samples.
 *
 * <p>A process that becomes master ({@link #promoted}) takes on work that a member does not do (a SeaTunnel master
 * starts a checkpoint coordinator per pipeline and its coordinator service's pool), so its life is judged in two
 * parts, each on its own: before it became master and as master. A part is judged like a life: only if it lasted at
 * least {@link Limits#minLifeSeconds()}, with its own warm-up.
 */
public final class ProcessTimeline {

    /**
     * One sample of one process; {@code extra} is the soak's own figure (cached bytes, running jobs);
     * {@code threadGroups}: its threads by {@linkplain #threadGroup name group}, empty if they could not be read.
     */
    public record Sample(double t, String member, long pid, double heapMib, int fds, int threads, long extra,
                         Map<String, Integer> threadGroups) {
    }

    /** How many threads of one name group a process gained from the early window to the late one (medians). */
    public record ThreadGrowth(String group, double early, double late) {
        public double growth() {
            return late - early;
        }
    }

    /** A master kill {@code t} seconds into the soak and how long until everything was back. */
    public record Kill(double t, double recoverySeconds, int restored) {
    }

    /**
     * One metric of one part of a process's life ({@code part}: {@value #WHOLE_LIFE}, {@value #BEFORE_MASTER} or
     * {@value #AS_MASTER}): medians of its early and late windows, and whether the growth is in bounds;
     * {@code lifeSeconds} is the length of that part.
     */
    public record Flatness(String member, String part, String metric, double early, double late, double limit,
                           double lifeSeconds) {
        public boolean flat() {
            return late - early <= limit;
        }
    }

    /**
     * The verdict's parameters: samples of the first {@code warmupSeconds} of a process's life are warm-up; windows
     * of {@code windowSeconds} at each end are compared; growth limits per metric.
     */
    public record Limits(double warmupSeconds, double windowSeconds, double heapMib, double fds, double threads) {
        /** A process is judged only if it was sampled over at least this long. */
        public double minLifeSeconds() {
            return warmupSeconds + 2 * windowSeconds;
        }
    }

    private final Limits limits;
    private final List<Sample> samples = new ArrayList<>();
    private final List<Kill> kills = new ArrayList<>();
    private final Map<String, Double> firstSeen = new LinkedHashMap<>();
    private final Map<String, Double> promotedAt = new LinkedHashMap<>();

    public static final String WHOLE_LIFE = "whole life";
    public static final String BEFORE_MASTER = "before it became master";
    public static final String AS_MASTER = "as master";

    public ProcessTimeline(Limits limits) {
        this.limits = limits;
    }

    public Limits limits() {
        return limits;
    }

    public List<Sample> samples() {
        return samples;
    }

    public List<Kill> kills() {
        return kills;
    }

    /**
     * Samples process {@code pid} ({@code member} names it in the report); descriptors and threads are read from
     * {@code /proc}. Returns false, recording nothing, if the process is gone (a kill between listing and sampling).
     */
    public boolean sample(double t, String member, long pid, double heapMib, long extra) {
        try {
            int fds;
            try (Stream<Path> fd = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
                fds = (int) fd.count();
            }
            int threads = Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                    .filter(l -> l.startsWith("Threads:")).mapToInt(l -> Integer.parseInt(l.substring(8).trim()))
                    .findFirst().orElse(-1);
            firstSeen.putIfAbsent(member, t);
            samples.add(new Sample(t, member, pid, heapMib, fds, threads, extra, threadGroups(pid)));
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * The process's threads by name group: each thread's {@code comm} (the kernel's copy of its name, cut to 15
     * bytes) without its digits and trailing separators, so that {@code seatunnel-coordinator-service-11} and
     * {@code -12} count together. Empty if the task list cannot be read (the process is gone, or not Linux).
     */
    static Map<String, Integer> threadGroups(long pid) {
        Map<String, Integer> groups = new java.util.TreeMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            tasks.forEach(task -> {
                try {
                    groups.merge(threadGroup(Files.readString(task.resolve("comm")).trim()), 1, Integer::sum);
                } catch (IOException | RuntimeException gone) {
                    // the thread ended between the listing and the read
                }
            });
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
        return groups;
    }

    /** The name group of a thread name: its digits removed, then trailing {@code -}, {@code .}, {@code _}, {@code #}. */
    static String threadGroup(String name) {
        String g = name.replaceAll("[0-9]+", "").replaceAll("[-._# ]+$", "");
        return g.isEmpty() ? "(digits only)" : g;
    }

    /**
     * The thread name groups of {@code member} whose median count grew from the early window to the late one of
     * {@code part} of its life (the windows of {@link #flatness()}), the largest growth first; empty if that part was
     * not judged.
     */
    public List<ThreadGrowth> threadGrowth(String member, String part) {
        Part judged = parts().stream().filter(p -> p.member.equals(member) && p.name.equals(part)).findFirst()
                .orElse(null);
        if (judged == null) {
            return List.of();
        }
        java.util.Set<String> names = new java.util.TreeSet<>();
        judged.early.forEach(s -> names.addAll(s.threadGroups().keySet()));
        judged.late.forEach(s -> names.addAll(s.threadGroups().keySet()));
        List<ThreadGrowth> out = new ArrayList<>();
        for (String g : names) {
            ThreadGrowth tg = new ThreadGrowth(g, median(judged.early, s -> s.threadGroups().getOrDefault(g, 0)),
                    median(judged.late, s -> s.threadGroups().getOrDefault(g, 0)));
            if (tg.growth() > 0) {
                out.add(tg);
            }
        }
        out.sort(java.util.Comparator.comparingDouble(ThreadGrowth::growth).reversed());
        return out;
    }

    /**
     * Records that {@code member} became master at {@code t} (seconds into the soak); from then on its samples are
     * judged apart from those before. Only the first call per member counts: a master is the member a soak kills.
     */
    public void promoted(double t, String member) {
        promotedAt.putIfAbsent(member, t);
    }

    /** One judged part of one process's life: its early window (after the warm-up) and its last window. */
    private record Part(String member, String name, List<Sample> early, List<Sample> late, double span) {
    }

    /** The parts of every process's life that lasted long enough to be judged, in the order processes appeared. */
    private List<Part> parts() {
        List<Part> out = new ArrayList<>();
        for (String member : firstSeen.keySet()) {
            List<Sample> own = samples.stream().filter(s -> s.member().equals(member)).toList();
            Double promoted = promotedAt.get(member);
            if (promoted == null) {
                addPart(out, member, WHOLE_LIFE, own);
            } else {
                addPart(out, member, BEFORE_MASTER, own.stream().filter(s -> s.t() < promoted).toList());
                addPart(out, member, AS_MASTER, own.stream().filter(s -> s.t() >= promoted).toList());
            }
        }
        return out;
    }

    private void addPart(List<Part> out, String member, String name, List<Sample> own) {
        if (own.isEmpty()) {
            return;
        }
        double born = own.get(0).t();
        double last = own.get(own.size() - 1).t();
        if (last - born < limits.minLifeSeconds()) {
            return;
        }
        double from = born + limits.warmupSeconds();
        out.add(new Part(member, name,
                own.stream().filter(s -> s.t() >= from && s.t() < from + limits.windowSeconds()).toList(),
                own.stream().filter(s -> s.t() > last - limits.windowSeconds()).toList(), last - born));
    }

    public void kill(double t, double recoverySeconds, int restored) {
        kills.add(new Kill(t, recoverySeconds, restored));
    }

    /** Per part of a process's life that lasted long enough, per metric: early and late medians. */
    public List<Flatness> flatness() {
        List<Flatness> out = new ArrayList<>();
        for (Part p : parts()) {
            out.add(new Flatness(p.member, p.name, "heap used after GC (MiB)", median(p.early, Sample::heapMib),
                    median(p.late, Sample::heapMib), limits.heapMib(), p.span));
            out.add(new Flatness(p.member, p.name, "open file descriptors", median(p.early, s -> s.fds()),
                    median(p.late, s -> s.fds()), limits.fds(), p.span));
            out.add(new Flatness(p.member, p.name, "threads", median(p.early, s -> s.threads()),
                    median(p.late, s -> s.threads()), limits.threads(), p.span));
        }
        return out;
    }

    /** The largest value of {@code f} over all samples (NaN if none). */
    public double max(ToDoubleFunction<Sample> f) {
        return samples.stream().mapToDouble(f).max().orElse(Double.NaN);
    }

    /** Median and max recovery of the kills, formatted {@code "m s / x s"}. */
    public String recovery() {
        double[] v = kills.stream().mapToDouble(Kill::recoverySeconds).sorted().toArray();
        return String.format(Locale.ROOT, "%.1f s / %.1f s", medianOf(v),
                v.length == 0 ? Double.NaN : v[v.length - 1]);
    }

    /** The JSON arrays {@code "kills"}, {@code "flatness"} and {@code "samples"} ({@code extraName} names extra). */
    public String jsonArrays(String extraName) {
        StringBuilder b = new StringBuilder("  \"promotedAt\": {");
        int p = 0;
        for (Map.Entry<String, Double> e : promotedAt.entrySet()) {
            b.append(p++ == 0 ? "" : ", ").append(String.format(Locale.ROOT, "\"%s\": %.1f", e.getKey(), e.getValue()));
        }
        b.append("},\n  \"kills\": [");
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
                    "    {\"member\": \"%s\", \"part\": \"%s\", \"metric\": \"%s\", \"early\": %.1f,"
                            + " \"late\": %.1f, \"limit\": %.1f, \"lifeSeconds\": %.0f, \"flat\": %b}", f.member(),
                    f.part(), f.metric(), f.early(), f.late(), f.limit(), f.lifeSeconds(), f.flat()));
        }
        b.append("\n  ],\n  \"samples\": [");
        for (int i = 0; i < samples.size(); i++) {
            Sample s = samples.get(i);
            StringBuilder groups = new StringBuilder();
            s.threadGroups().forEach((g, n) -> groups.append(groups.length() == 0 ? "" : ", ").append('"')
                    .append(g.replace("\\", "\\\\").replace("\"", "\\\"")).append("\": ").append(n));
            b.append(i == 0 ? "\n" : ",\n").append(String.format(Locale.ROOT,
                    "    {\"t\": %.1f, \"member\": \"%s\", \"pid\": %d, \"heapUsedAfterGcMib\": %.2f, \"fds\": %d,"
                            + " \"threads\": %d, \"%s\": %d, \"threadGroups\": {%s}}", s.t(), s.member(), s.pid(),
                    s.heapMib(), s.fds(), s.threads(), extraName, s.extra(), groups));
        }
        return b.append("\n  ]").toString();
    }

    /** The flatness paragraph and table of a report ({@code who}: what the processes are). */
    public String flatnessMarkdown(String who) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "Flatness, per %s and part of its life that lasted at least %d minutes"
                + " (the master is killed, so no process lives the whole soak; a process that became master is judged"
                + " before and as master apart, each part on its own, since a master runs what a member does not):"
                + " the median of its first %d minutes after a %d-minute warm-up against the median of its last %d"
                + " minutes; flat means a growth of at most %.0f MiB of heap, %.0f descriptors, %.0f threads.%n%n",
                who, (int) (limits.minLifeSeconds() / 60), (int) (limits.windowSeconds() / 60),
                (int) (limits.warmupSeconds() / 60), (int) (limits.windowSeconds() / 60), limits.heapMib(),
                limits.fds(), limits.threads()));
        b.append("| member process | part of its life | lasted | metric | early | late | flat |\n"
                + "|---|---|---:|---|---:|---:|---|\n");
        List<String> grew = new ArrayList<>();
        for (Flatness f : flatness()) {
            b.append(String.format(Locale.ROOT, "| %s | %s | %.0f min | %s | %.1f | %.1f | %s |%n", f.member(),
                    f.part(), f.lifeSeconds() / 60, f.metric(), f.early(), f.late(), f.flat() ? "yes" : "**no**"));
            if (!f.flat() && f.metric().equals("threads")) {
                List<String> top = threadGrowth(f.member(), f.part()).stream().limit(5).map(g -> String.format(
                        Locale.ROOT, "`%s` %+.0f", g.group(), g.growth())).toList();
                grew.add("- " + f.member() + ", " + f.part() + ": " + (top.isEmpty()
                        ? "no name group grew (threads by name not read)" : String.join(", ", top)));
            }
        }
        if (!grew.isEmpty()) {
            b.append("\nThreads that grew, by name group (`/proc/<pid>/task/*/comm` without digits; median of the late"
                    + " window minus that of the early one; at most five per process):\n\n");
            grew.forEach(g -> b.append(g).append('\n'));
        }
        return b.toString();
    }

    /** Heap, descriptors and threads per process over time, the kills marked, as one PNG. */
    public void chart(Path png) throws IOException {
        List<XYChart> charts = List.of(
                lines("heap used after full GC, per member process", "MiB", Sample::heapMib),
                lines("open file descriptors (/proc/<pid>/fd)", "descriptors", s -> s.fds()),
                lines("threads (/proc/<pid>/status)", "threads", s -> s.threads()));
        BitmapEncoder.saveBitmap(charts, 3, 1, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private XYChart lines(String title, String yTitle, ToDoubleFunction<Sample> f) {
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
            c.addSeries(member, x, y).setMarker(SeriesMarkers.CIRCLE);
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

    private static double median(List<Sample> xs, ToDoubleFunction<Sample> f) {
        return medianOf(xs.stream().mapToDouble(f).sorted().toArray());
    }

    private static double medianOf(double[] sorted) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
