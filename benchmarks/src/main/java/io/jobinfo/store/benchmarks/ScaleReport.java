package io.jobinfo.store.benchmarks;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;

/**
 * The report's part of {@link ScaleBenchmark}: its summary rows, its section (one table) and its chart
 * ({@code scale.png}, four panels). Growth per 10x jobs is {@code (last / first) ^ (1 / log10(jobs ratio))} between
 * the smallest and the largest job count measured. Targets (pointer variants): restore time grows at most linearly
 * (growth per 10x at most 10), memory per job stays flat (growth per 10x at most 1.25: it may fall, not grow).
 */
final class ScaleReport {

    static final double LINEAR = 10;
    static final double FLAT = 1.25;

    /** The four figures: metric suffix, title, unit, target kind. */
    private static final String[][] FIGURES = {
        {"clusterBytesPerJob", "cluster IMap bytes per job", "bytes/job", "flat"},
        {"submitP99", "submit p99", "ms", ""},
        {"restoreMs", "kill -> all restored + verified", "ms", "linear"},
        {"heapHighWaterPerJob", "heap high-water during the restore, per job", "bytes/job", "flat"},
        {"heapRetainedPerJob", "heap retained after the restore, per job", "bytes/job", "flat"},
    };

    private final BenchOptions o;
    private final Metrics m;

    ScaleReport(BenchOptions o, Metrics m) {
        this.o = o;
        this.m = m;
    }

    private boolean ran() {
        return !o.scaleJobs.isEmpty() && m.has(ScaleBenchmark.key(variants().isEmpty() ? "inline"
                : variants().get(0), o.scaleJobs.get(0)) + ".restoreMs");
    }

    /** inline (if measured at any count) and the pointer stores measured. */
    private List<String> variants() {
        List<String> v = new ArrayList<>();
        for (String s : List.of("inline", "local", "hdfs", "s3")) {
            for (int n : o.scaleJobs) {
                if (m.has(ScaleBenchmark.key(s, n) + ".restoreMs")) {
                    v.add(s);
                    break;
                }
            }
        }
        return v;
    }

    /** The counts at which {@code variant} was measured. */
    private List<Integer> counts(String variant) {
        List<Integer> c = new ArrayList<>();
        for (int n : o.scaleJobs) {
            if (m.has(ScaleBenchmark.key(variant, n) + ".restoreMs")) {
                c.add(n);
            }
        }
        return c;
    }

    private double value(String variant, int n, String figure) {
        return m.median(ScaleBenchmark.key(variant, n) + "." + figure);
    }

    /**
     * Growth per 10x jobs between the smallest and largest count of {@code variant}; NaN with fewer than two counts,
     * or when either value is not above 0 (a heap figure within the noise of the GC, in a quick run: no factor
     * describes a growth from or to a negative number).
     */
    double growthPer10x(String variant, String figure) {
        List<Integer> c = counts(variant);
        if (c.size() < 2) {
            return Double.NaN;
        }
        int a = c.get(0);
        int b = c.get(c.size() - 1);
        double first = value(variant, a, figure);
        double last = value(variant, b, figure);
        if (!(first > 0) || !(last > 0)) {
            return Double.NaN;
        }
        return Math.pow(last / first, 1 / Math.log10((double) b / a));
    }

    /** The table cell of a growth factor: the factor, or why there is none. */
    private String growthCell(String variant, double g) {
        if (!Double.isNaN(g)) {
            return ReportWriter.x(g);
        }
        return counts(variant).size() < 2 ? "n/a (one count)" : "none (a value <= 0)";
    }

    /** The largest of the factors that exist; NaN if none does. */
    private static double worst(double... factors) {
        double w = Double.NaN;
        for (double f : factors) {
            if (!Double.isNaN(f) && (Double.isNaN(w) || f > w)) {
                w = f;
            }
        }
        return w;
    }

    /** Summary rows (item 7): per pointer variant, restore growth and memory per job growth, with verdicts. */
    List<String[]> summaryRows() {
        List<String[]> rows = new ArrayList<>();
        if (!ran()) {
            rows.add(new String[] {"7", "scale: restore time and memory per job vs job count",
                o.scaleJobs.isEmpty() ? "not run (--no-scale)" : "not run", "", "", "", ""});
            return rows;
        }
        List<Integer> all = o.scaleJobs;
        String span = all.get(0) + " -> " + all.get(all.size() - 1) + " jobs";
        for (String v : variants()) {
            if (v.equals("inline")) {
                continue;
            }
            double r = growthPer10x(v, "restoreMs");
            rows.add(new String[] {"7", "kill -> restored growth per 10x jobs, " + v + " (" + span + ")",
                growthCell(v, r), "10x = linear", "", "<= 10x", verdict(r <= LINEAR, r)});
            double mem = worst(growthPer10x(v, "clusterBytesPerJob"), growthPer10x(v, "heapHighWaterPerJob"),
                    growthPer10x(v, "heapRetainedPerJob"));
            rows.add(new String[] {"7", "memory per job growth per 10x jobs, " + v + " (worst of cluster bytes,"
                + " heap high-water, heap retained, of those with a factor)", growthCell(v, mem), "1x = flat", "",
                "<= 1.25x", verdict(mem <= FLAT, mem)});
        }
        return rows;
    }

    private static String verdict(boolean met, double v) {
        return Double.isNaN(v) ? "" : ReportWriter.verdict(met);
    }

    /** The section's markdown. */
    String section() {
        StringBuilder md = new StringBuilder("## 7. Scale: cost by job count\n\n");
        if (!ran()) {
            md.append(o.scaleJobs.isEmpty() ? "Not run (`--no-scale`).\n\n" : "Not run.\n\n");
            return md.toString();
        }
        md.append("![scale](scale.png)\n\n");
        md.append(String.format(Locale.ROOT, "The kill scenario of items 1-3 (%d members, 1 synchronous backup, %d"
                + " loaders) at %s jobs of %s, %s per count (a fresh cluster each; every figure is the median of"
                + " the rounds, which run the counts in turn). Inline runs only where its"
                + " map fits this JVM's %s heap (two copies in the cluster, one materialised by `entrySet()`, one in"
                + " flight: 4 x jobs x size within 60%% of the heap)%s. Pointer stores: %s.%s\n\n", o.members,
                o.restoreParallelism, joined(o.scaleJobs), ReportWriter.bytes(o.blobBytes),
                o.scaleRounds() == 1 ? "one round" : o.scaleRounds() + " rounds",
                ReportWriter.bytes(Runtime.getRuntime().maxMemory()), inlineSkipped(), String.join(", ",
                        pointerVariants()), notRun()));
        md.append("| variant | jobs | cluster bytes per job | submit p99 | kill -> restored | heap high-water per"
                + " job | heap retained per job |\n|---|---|---|---|---|---|---|\n");
        for (String v : variants()) {
            for (int n : counts(v)) {
                md.append("| ").append(v.equals("inline") ? "inline" : "pointer + " + v).append(" | ")
                        .append(String.format(Locale.ROOT, "%,d", n)).append(" | ")
                        .append(ReportWriter.bytes(value(v, n, "clusterBytesPerJob"))).append(" | ")
                        .append(ReportWriter.ms(value(v, n, "submitP99"))).append(" | ")
                        .append(ReportWriter.ms(value(v, n, "restoreMs"))).append(" | ")
                        .append(ReportWriter.bytes(value(v, n, "heapHighWaterPerJob"))).append(" | ")
                        .append(ReportWriter.bytes(value(v, n, "heapRetainedPerJob"))).append(" |\n");
            }
            md.append("| ").append(v.equals("inline") ? "inline" : "pointer + " + v)
                    .append(" | **growth per 10x** |");
            for (String[] f : FIGURES) {
                double g = growthPer10x(v, f[0]);
                String target = v.equals("inline") || f[3].isEmpty() ? ""
                        : f[3].equals("linear") ? (g <= LINEAR ? " met" : " **missed**")
                        : (g <= FLAT ? " met" : " **missed**");
                md.append(" ").append(growthCell(v, g)).append(Double.isNaN(g) ? "" : target).append(" |");
            }
            md.append('\n');
        }
        md.append("\nGrowth per 10x jobs: (value at the largest count / value at the smallest) ^ (1 / log10 of the"
                + " count ratio); 10x is linear, 1x flat. Targets (pointer variants): kill -> restored at most linear"
                + " (<= 10x), every memory-per-job figure flat (<= 1.25x: it may fall, not grow). Submit p99 is"
                + " reported. All members run in this JVM, so the heap figures are the JVM's: *high-water* is the sum"
                + " of the heap pools' peaks from the kill to the last job restored, garbage included, minus the live"
                + " heap just before the kill; *retained* is the live heap after a full GC with every restored job"
                + " held (as a coordinator holds its running jobs) minus the same before the kill. For the pointer"
                + " variants the surviving members hold pointers only, so both are the restoring side's; for inline"
                + " the survivors' promoted and re-backed-up partitions count too. Every restored job is re-encoded"
                + " and compared (SHA-256) with what was submitted, after the clock stopped.\n\n");
        perJobTable(md);
        return md.toString();
    }

    /**
     * Restore time per job at each count, the marginal cost of the jobs added since the count before, and the
     * stop-the-world GC time that fell inside the restore: whether a growth above linear comes from the jobs or from
     * the JVM holding more of them.
     */
    private void perJobTable(StringBuilder md) {
        boolean measured = false;
        for (String v : variants()) {
            for (int n : counts(v)) {
                measured |= m.has(ScaleBenchmark.key(v, n) + ".restoreGcMs");
            }
        }
        if (!measured) {
            return;
        }
        md.append("Restore time per job by count: *marginal* is (restore at this count - restore at the count"
                + " before) / the jobs added; *GC* is the stop-the-world GC time of this JVM (every member and the"
                + " restored jobs) between the kill and the last job restored, medians across rounds.\n\n");
        md.append("| variant | jobs | kill -> restored per job | marginal per job | GC pauses during the restore |"
                + " GC share |\n|---|---|---|---|---|---|\n");
        for (String v : variants()) {
            Integer before = null;
            for (int n : counts(v)) {
                double r = value(v, n, "restoreMs");
                double gc = value(v, n, "restoreGcMs");
                String marginal = before == null ? "" : ReportWriter.f2((r - value(v, before, "restoreMs"))
                        / (n - before)) + " ms";
                md.append("| ").append(v.equals("inline") ? "inline" : "pointer + " + v).append(" | ")
                        .append(String.format(Locale.ROOT, "%,d", n)).append(" | ")
                        .append(ReportWriter.f2(r / n)).append(" ms | ").append(marginal).append(" | ")
                        .append(ReportWriter.ms(gc)).append(" | ").append(ReportWriter.pct(gc / r)).append(" |\n");
                before = n;
            }
        }
        md.append('\n');
    }

    /**
     * For each pointer variant whose restore grew faster than linearly, a paragraph for the report's "targets
     * missed" section quoting this run's per-job and GC figures.
     */
    List<String> missedGrowthNotes() {
        List<String> notes = new ArrayList<>();
        if (!ran()) {
            return notes;
        }
        for (String v : pointerVariants()) {
            double g = growthPer10x(v, "restoreMs");
            List<Integer> c = counts(v);
            if (Double.isNaN(g) || g <= LINEAR || c.size() < 2) {
                continue;
            }
            int a = c.get(0);
            int b = c.get(c.size() - 1);
            double ra = value(v, a, "restoreMs");
            double rb = value(v, b, "restoreMs");
            String gc = m.has(ScaleBenchmark.key(v, a) + ".restoreGcMs") ? String.format(Locale.ROOT,
                    " Stop-the-world GC inside the restore: %s (%s) at %,d jobs, %s (%s) at %,d; the JVM then holds"
                    + " every restored job (%s each, retained) next to the three members, so each young collection"
                    + " copies more.", ReportWriter.ms(value(v, a, "restoreGcMs")),
                    ReportWriter.pct(value(v, a, "restoreGcMs") / ra), a, ReportWriter.ms(value(v, b,
                            "restoreGcMs")), ReportWriter.pct(value(v, b, "restoreGcMs") / rb), b,
                    ReportWriter.bytes(value(v, b, "heapRetainedPerJob"))) : "";
            notes.add(String.format(Locale.ROOT, "**7. Kill -> restored on %s grew %.2fx per 10x jobs (%,d -> %,d:"
                    + " %s -> %s).** Per job: %.2f ms at %,d jobs and %.2f ms at %,d. The fixed part of a restore"
                    + " (failure detection, partition repair: a few hundred ms) is hidden at the smallest count by"
                    + " the prefetch, so a restore that is linear per job with no fixed cost sits on the 10x line"
                    + " and the rounds' noise decides the verdict.%s", v, g, a, b, ReportWriter.ms(ra),
                    ReportWriter.ms(rb), ra / a, a, rb / b, b, gc));
        }
        return notes;
    }

    private String inlineSkipped() {
        List<Integer> skipped = new ArrayList<>();
        for (int n : o.scaleJobs) {
            if (m.has("scale.inline." + n + ".skipped")) {
                skipped.add(n);
            }
        }
        return skipped.isEmpty() ? "" : "; skipped at " + joined(skipped) + " jobs";
    }

    private List<String> pointerVariants() {
        List<String> v = new ArrayList<>(variants());
        v.remove("inline");
        return v;
    }

    private String notRun() {
        List<String> missing = new ArrayList<>();
        for (String s : o.stores) {
            if (!o.scaleStores.contains(s)) {
                missing.add(s);
            }
        }
        return missing.isEmpty() ? "" : " Not at scale here: " + String.join(", ", missing) + " (`--scale-stores`"
                + " adds it).";
    }

    private static String joined(List<Integer> counts) {
        List<String> s = new ArrayList<>();
        for (int n : counts) {
            s.add(String.format(Locale.ROOT, "%,d", n));
        }
        return String.join(" / ", s);
    }

    /** {@code scale.png}: four log-log panels (memory per job, submit p99, restore, heap per job) by job count. */
    void chart(Path dir) throws IOException {
        if (!ran()) {
            return;
        }
        List<BufferedImage> panels = new ArrayList<>();
        for (int f : new int[] {0, 1, 2, 4}) {
            String[] fig = FIGURES[f];
            XYChart c = Charts.lines(fig[1], "jobs (log)", fig[2] + " (log)", true, true);
            c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
            for (String v : variants()) {
                List<Integer> counts = counts(v);
                List<Double> xs = new ArrayList<>();
                List<Double> ys = new ArrayList<>();
                for (int n : counts) {
                    double y = value(v, n, fig[0]);
                    if (y > 0) { // a log axis has no room for 0 (a heap growth within the noise, in a quick run)
                        xs.add((double) n);
                        ys.add(y);
                    }
                }
                if (ys.isEmpty()) {
                    continue;
                }
                double g = growthPer10x(v, fig[0]);
                String name = (v.equals("inline") ? "inline" : "pointer + " + v)
                        + (Double.isNaN(g) ? "" : String.format(Locale.ROOT, " (%.2fx per 10x)", g));
                Charts.line(c, name, xs, ys, false);
                if (!fig[3].isEmpty() && !v.equals("inline") && xs.size() > 1) {
                    double first = ys.get(0);
                    List<Double> ref = new ArrayList<>();
                    for (double x : xs) {
                        ref.add(fig[3].equals("linear") ? first * x / xs.get(0) : first);
                    }
                    Charts.line(c, v + ": " + (fig[3].equals("linear") ? "linear" : "flat") + " (target bound)", xs,
                            ref, true);
                }
            }
            panels.add(BitmapEncoder.getBufferedImage(c));
        }
        int w = panels.get(0).getWidth();
        int h = panels.get(0).getHeight();
        BufferedImage all = new BufferedImage(2 * w, 2 * h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = all.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, 2 * w, 2 * h);
        for (int i = 0; i < panels.size(); i++) {
            g.drawImage(panels.get(i), (i % 2) * w, (i / 2) * h, null);
        }
        g.dispose();
        ImageIO.write(all, "png", dir.resolve("scale.png").toFile());
    }
}
