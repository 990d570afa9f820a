package io.jobinfo.store.benchmarks;

import io.jobinfo.store.benchmarks.EngineScaleFigures.Figure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.XYChart;

/**
 * The report section of the real-engine scale scenario ({@link SeaTunnelScaleBenchmark}): per job count, stock and
 * drop-in side by side (medians across rounds) with their ratio, each figure's growth per 10x jobs, the machine time
 * per count, where the scenario stopped and why, and the chart of cost by job count ({@value #CHART}). With
 * IMap persistence on ({@code --engine-scale-persistence on}) also the WAL bytes per job and the goal's
 * verdict ({@value #WAL_GOAL_PERCENT}% of stock's); the rows of WAL figures that no count measured are left out. Each
 * store of {@code --engine-scale-stores} but local adds a column of its drop-in ({@code dropin-<store>}) and its ratio
 * to stock to both tables and to the verdict; the chart stays stock and the local drop-in.
 */
final class SeaTunnelScaleSection {

    static final String TITLE = "## Real SeaTunnel 2.3.8 at scale";
    static final String CHART = "engine-scale.png";
    /** The goal: the drop-in's WAL bytes per job at most this percentage of stock's. */
    static final double WAL_GOAL_PERCENT = 1.0;
    /** The job counts issue 28's drop-in / stock goals are judged at. */
    static final List<Integer> GOAL_COUNTS = List.of(100, 300);
    /** The goal: kill -9 of the master -> every job RUNNING, drop-in / stock, at most this. */
    static final double KILL_GOAL_RATIO = 1.0;
    /** The goal: submit p99, drop-in / stock, at most this. */
    static final double SUBMIT_P99_GOAL_RATIO = 1.05;
    /** The goal: the members' live heap reduced by at least this share of stock's job information in the map. */
    static final double HEAP_GOAL_SHARE = 0.9;
    private static final String STOCK = RealEngineBenchmark.STOCK;
    private static final String DROPIN = RealEngineBenchmark.DROPIN;

    private SeaTunnelScaleSection() {}

    static String markdown(Metrics m, List<Integer> counts, int rounds, BenchOptions o, List<String> notes) {
        int largest = counts.isEmpty() ? 0 : counts.get(counts.size() - 1);
        List<Integer> notRun = o.engineScale.stream().filter(n -> n > largest).toList();
        List<String> paragraphs = new ArrayList<>();
        if (notes.isEmpty() && !notRun.isEmpty()) {
            paragraphs.add("Not measured: " + notRun + " jobs.");
        } else if (notes.isEmpty() && largest < 300 && !counts.isEmpty()) {
            paragraphs.add("Stopped at " + largest + " jobs: larger counts were not asked for (`--engine-scale`,"
                    + " default 10,30,100; 300 jobs adds about three times the 100-job count's machine time).");
        }
        paragraphs.addAll(notes);
        return RealEngineBenchmark.markdown(TITLE, !counts.isEmpty(), md -> {
            md.append(String.format(Locale.ROOT, "%d round(s); in each, for every job count, a stock and a drop-in"
                    + " (local store) cluster of %d SeaTunnel 2.3.8 member processes (loopback, backup-count 1,"
                    + " `-Xmx%s`, serial GC), one after the other, the order alternating by round and count. Each runs"
                    + " that many streaming FakeSource -> Console jobs (1 x 2, 110 x 20 and 1000 x 20 tables x columns"
                    + " in turn; FakeSource emits one table's 2 rows a second per job, checkpoints every %d s) after"
                    + " one uncounted warm-up job, then `kill -9` of the master. Medians across rounds. %s%n%n", rounds,
                    o.members, o.engineMemberHeap, SeaTunnelScaleBenchmark.CHECKPOINT_MILLIS / 1000,
                    o.engineScalePersistence.equals("on") ? PERSISTENCE_ON : PERSISTENCE_OFF));
            List<String> stores = stores(o);
            if (!stores.isEmpty()) {
                md.append("Other stores of the drop-in, one more cluster each per count in the same alternating order,"
                        + " the store's server in the benchmark's JVM on 127.0.0.1 (S3: S3Proxy 4.1.0 with its"
                        + " filesystem blob store; HDFS: a MiniDFSCluster of 1 NameNode and 1 DataNode, replication"
                        + " 1), reached by the member processes over loopback: ").append(String.join(", ", stores))
                        .append(".\n\n");
            }
            md.append("| jobs | figure | stock | drop-in | drop-in / stock |");
            stores.forEach(st -> md.append(" drop-in ").append(st).append(" | ").append(st).append(" / stock |"));
            md.append("\n|---|---|---|---|---|").append("---|---|".repeat(stores.size())).append('\n');
            List<Figure> shown = shown(m, counts, stores);
            for (int n : counts) {
                for (Figure f : shown) {
                    row(md, m, n, f, stores);
                }
            }
            md.append('\n');
            walVerdict(md, m, counts, stores);
            goalVerdicts(md, m, counts, stores);
            growth(md, m, counts, shown, stores);
            md.append("![real SeaTunnel 2.3.8 at scale](").append(CHART).append(")\n\n");
            md.append("Machine time per count (every cluster of the count, one after the other, start to stop,"
                    + " median of rounds):");
            for (int n : counts) {
                md.append(String.format(Locale.ROOT, " %d jobs %.1f min;", n, m.median("engineScale.minutes." + n)));
            }
            md.setLength(md.length() - 1);
            md.append(".\n\n");
            md.append("Bytes: `LocalMapStats` owned + backup entry cost summed over the members, after every job is"
                    + " RUNNING (with the drop-in, once its value is the reference), minus the same before the"
                    + " measured jobs, per job. Live heap: a probe sent to every member through Hazelcast's executor"
                    + " (`LiveHeapProbe`, a `MemberProbe`: `System.gc()`, a full collection under the serial GC, then"
                    + " `MemoryMXBean` heap used), not `jcmd`; per job: its growth from before the measured jobs."
                    + " REST: SeaTunnel 2.3.8's API v1, served on the Hazelcast member port (hazelcast.yaml"
                    + " `network.rest-api.enabled: true`; SeaTunnel registers its `RestHttpGetCommandProcessor` there),"
                    + " asked of the oldest member that is not the master, before the kill: 3 GETs of running-jobs"
                    + " (which decodes every running job on that member) and 3 of job-info for one job of each"
                    + " size.");
            if (shown.contains(Figure.WAL_BYTES_PER_JOB)) {
                md.append(" WAL: the bytes of every file of the map's log under the persistence namespace"
                        + " (`<namespace>/<cluster>/engine_runningJobInfo/`, append-only) after the measured jobs minus"
                        + " before them, per job; the largest job: the log's growth from just before one job's submit"
                        + " until it is RUNNING and (drop-in) its value is the reference, so both of its records count;"
                        + " all maps: the same over every `engine*` map's log during the submits (it includes what the"
                        + " running jobs' state and checkpoints wrote meanwhile).");
            }
            md.append("\n\n");
        }, paragraphs);
    }

    private static final String PERSISTENCE_ON = "SeaTunnel's IMap persistence is on in both (`imap-storage-file`,"
            + " hazelcast.yaml `map: engine*: map-store:` as SeaTunnel documents it, `fs.defaultFS: file:///`): stock"
            + " with SeaTunnel's `FileMapStoreFactory`, the drop-in with its `DropInMapStoreFactory`, same properties"
            + " (`--engine-scale-persistence on`; the default, off, runs without: with it on, a 3-job run's submit"
            + " p50 was 2x (stock) and 5x (drop-in) of the same run without, so the other rows are not comparable to"
            + " a run without).";
    private static final String PERSISTENCE_OFF = "SeaTunnel's IMap persistence is off (the default;"
            + " `--engine-scale-persistence on` adds its WAL bytes per job).";

    /** The stores of {@code --engine-scale-stores} but local, in the order asked. */
    static List<String> stores(BenchOptions o) {
        return o.engineScaleStores.stream().filter(s -> !s.equals(EngineScaleStores.LOCAL)).toList();
    }

    /** The drop-in's variant on {@code store}: {@code dropin-<store>}. */
    static String variant(String store) {
        return DROPIN + "-" + store;
    }

    /** How a verdict names a drop-in variant after its count: nothing for local, {@code ", <store>"} otherwise. */
    private static String storeSuffix(String variant) {
        return variant.equals(DROPIN) ? "" : ", " + variant.substring(DROPIN.length() + 1);
    }

    /** Every drop-in variant: local, then the stores'. */
    private static List<String> dropIns(List<String> stores) {
        List<String> out = new ArrayList<>(List.of(DROPIN));
        stores.forEach(s -> out.add(variant(s)));
        return out;
    }

    /** The figures with a row: every one but the persistence figures that no count measured for any variant. */
    private static List<Figure> shown(Metrics m, List<Integer> counts, List<String> stores) {
        List<String> variants = new ArrayList<>(dropIns(stores));
        variants.add(STOCK);
        List<Figure> out = new ArrayList<>();
        for (Figure f : Figure.values()) {
            boolean any = counts.stream().anyMatch(n -> variants.stream()
                    .anyMatch(v -> m.has(SeaTunnelScaleBenchmark.key(v, n, f))));
            if (any || !Figure.PERSISTENCE.contains(f)) {
                out.add(f);
            }
        }
        return out;
    }

    /**
     * The goal's verdict per count and drop-in variant with both WAL figures: the drop-in's WAL bytes per job as a
     * share of stock's.
     */
    private static void walVerdict(StringBuilder md, Metrics m, List<Integer> counts, List<String> stores) {
        StringBuilder line = new StringBuilder();
        for (int n : counts) {
            String stock = SeaTunnelScaleBenchmark.key(STOCK, n, Figure.WAL_BYTES_PER_JOB);
            for (String v : dropIns(stores)) {
                String dropIn = SeaTunnelScaleBenchmark.key(v, n, Figure.WAL_BYTES_PER_JOB);
                if (m.has(stock) && m.has(dropIn) && m.median(stock) > 0) {
                    double percent = 100 * m.median(dropIn) / m.median(stock);
                    line.append(String.format(Locale.ROOT, " %d jobs%s %.3f%% (%s);", n, storeSuffix(v), percent,
                            percent <= WAL_GOAL_PERCENT ? "met" : "NOT met"));
                }
            }
        }
        if (!line.isEmpty()) {
            line.setLength(line.length() - 1);
            md.append(String.format(Locale.ROOT, "Goal: WAL bytes per job <= %.0f%% of stock's"
                    + " (`engine_runningJobInfo`, drop-in / stock):", WAL_GOAL_PERCENT)).append(line).append(".\n\n");
        }
    }

    /**
     * Issue 28's drop-in / stock goals at {@link #GOAL_COUNTS}, one line per count and drop-in variant: kill -> every
     * job RUNNING, submit p99, and the live heap of all members below stock's against stock's job information in the
     * map ({@code engine_runningJobInfo} bytes per job, owned + backup, times the jobs). A figure either side lacks is
     * said to be not measured, and no verdict is given for it; a count not measured is named.
     */
    static void goalVerdicts(StringBuilder md, Metrics m, List<Integer> counts, List<String> stores) {
        md.append(String.format(Locale.ROOT, "Goals (issue 28), drop-in / stock at %s jobs: kill -9 of the master ->"
                + " every job RUNNING <= %.1fx; submit p99 <= %.2fx; live heap after GC, all members, reduced by at"
                + " least %.0f%% of stock's job information (its `engine_runningJobInfo` bytes):%n",
                GOAL_COUNTS.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(" and ")),
                KILL_GOAL_RATIO, SUBMIT_P99_GOAL_RATIO, HEAP_GOAL_SHARE * 100));
        for (int n : GOAL_COUNTS) {
            if (!counts.contains(n)) {
                md.append("- ").append(n).append(" jobs: not measured.\n");
                continue;
            }
            for (String v : dropIns(stores)) {
                List<String> parts = new ArrayList<>();
                parts.add(ratioVerdict(m, n, v, Figure.KILL_TO_ALL_RUNNING, "kill -> every job RUNNING",
                        KILL_GOAL_RATIO));
                parts.add(ratioVerdict(m, n, v, Figure.SUBMIT_P99, "submit p99", SUBMIT_P99_GOAL_RATIO));
                parts.add(heapVerdict(m, n, v));
                md.append("- ").append(n).append(" jobs").append(storeSuffix(v)).append(": ")
                        .append(String.join("; ", parts)).append(".\n");
            }
        }
        md.append('\n');
    }

    private static String ratioVerdict(Metrics m, int n, String variant, Figure f, String what, double goal) {
        String stock = SeaTunnelScaleBenchmark.key(STOCK, n, f);
        String dropIn = SeaTunnelScaleBenchmark.key(variant, n, f);
        if (!m.has(stock) || !m.has(dropIn) || m.median(stock) <= 0) {
            return what + " not measured";
        }
        double ratio = m.median(dropIn) / m.median(stock);
        return String.format(Locale.ROOT, "%s %.2fx (%s)", what, ratio, ratio <= goal ? "met" : "NOT met");
    }

    private static String heapVerdict(Metrics m, int n, String variant) {
        String stockHeap = SeaTunnelScaleBenchmark.key(STOCK, n, Figure.LIVE_HEAP);
        String dropInHeap = SeaTunnelScaleBenchmark.key(variant, n, Figure.LIVE_HEAP);
        String stockMap = SeaTunnelScaleBenchmark.key(STOCK, n, Figure.MAP_BYTES_PER_JOB);
        if (!m.has(stockHeap) || !m.has(dropInHeap) || !m.has(stockMap) || m.median(stockMap) <= 0) {
            return "heap not measured";
        }
        double reducedMib = m.median(stockHeap) - m.median(dropInHeap);
        double shareMib = m.median(stockMap) * n / (1 << 20);
        double ofShare = reducedMib / shareMib;
        return String.format(Locale.ROOT, "heap %.1f MiB below stock's, %.0f%% of stock's %.1f MiB of job"
                + " information (%s)", reducedMib, ofShare * 100, shareMib, ofShare >= HEAP_GOAL_SHARE ? "met"
                : "NOT met");
    }

    /** One row: stock, the local drop-in and its ratio, then each store's drop-in and its ratio to stock. */
    private static void row(StringBuilder md, Metrics m, int n, Figure f, List<String> stores) {
        String stockKey = SeaTunnelScaleBenchmark.key(STOCK, n, f);
        RealEngineBenchmark.comparison(md, m, n, f.label, stockKey, SeaTunnelScaleBenchmark.key(DROPIN, n, f),
                f.format);
        for (String st : stores) {
            md.setLength(md.length() - 1); // the row's newline
            String key = SeaTunnelScaleBenchmark.key(variant(st), n, f);
            md.append(' ').append(m.has(key) ? String.format(Locale.ROOT, f.format, m.median(key)) : "not measured")
                    .append(" | ");
            if (m.has(key) && m.has(stockKey) && m.median(stockKey) > 0) {
                md.append(String.format(Locale.ROOT, "%.3gx", m.median(key) / m.median(stockKey)));
            }
            md.append(" |\n");
        }
    }

    private static void growth(StringBuilder md, Metrics m, List<Integer> counts, List<Figure> shown,
                               List<String> stores) {
        if (counts.size() < 2) {
            return;
        }
        md.append(String.format(Locale.ROOT, "Growth per 10x jobs, from %d to %d jobs: `(v(%d) / v(%d)) ^ (1 /"
                        + " log10(%d / %d))`; 10 means in proportion to the jobs, 1 flat.%n%n", counts.get(0),
                counts.get(counts.size() - 1), counts.get(counts.size() - 1), counts.get(0),
                counts.get(counts.size() - 1), counts.get(0)));
        md.append("| figure | stock, growth per 10x jobs | drop-in, growth per 10x jobs |");
        stores.forEach(st -> md.append(" drop-in ").append(st).append(", growth per 10x jobs |"));
        md.append("\n|---|---|---|").append("---|".repeat(stores.size())).append('\n');
        for (Figure f : shown) {
            md.append("| ").append(f.label).append(" | ").append(growthOf(m, counts, STOCK, f)).append(" |");
            for (String v : dropIns(stores)) {
                md.append(' ').append(growthOf(m, counts, v, f)).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    private static String growthOf(Metrics m, List<Integer> counts, String variant, Figure f) {
        double g = EngineScaleFigures.growthPer10x(counts, series(m, counts, variant, f));
        return Double.isNaN(g) ? "n/a" : String.format(Locale.ROOT, "%.2fx", g);
    }

    private static List<Double> series(Metrics m, List<Integer> counts, String variant, Figure f) {
        List<Double> v = new ArrayList<>();
        for (int n : counts) {
            v.add(m.median(SeaTunnelScaleBenchmark.key(variant, n, f)));
        }
        return v;
    }

    /**
     * The chart: live heap over all members, {@code engine_runningJobInfo}'s bytes and (persistence on) its WAL's growth
     * over the measured jobs, in MiB, by job count.
     */
    static void chart(Metrics m, List<Integer> counts, Path dir) throws IOException {
        XYChart c = Charts.lines("Real SeaTunnel 2.3.8: cost by job count (median of rounds)", "jobs",
                "MiB (log scale)", true, true);
        for (String v : RealEngineBenchmark.VARIANTS) {
            String name = v.equals(STOCK) ? "stock" : "drop-in";
            points(c, name + ": live heap, all members", counts, series(m, counts, v, Figure.LIVE_HEAP), 1, false);
            points(c, name + ": engine_runningJobInfo", counts, series(m, counts, v, Figure.MAP_BYTES_PER_JOB),
                    1.0 / (1 << 20), true);
            points(c, name + ": WAL of engine_runningJobInfo", counts, series(m, counts, v, Figure.WAL_BYTES_PER_JOB),
                    1.0 / (1 << 20), true);
        }
        Files.createDirectories(dir);
        Charts.save(c, dir.resolve(CHART));
    }

    /** A series of the points with a positive value; {@code perJob}: the value is per job, times the count. */
    private static void points(XYChart c, String name, List<Integer> counts, List<Double> values, double scale,
                               boolean perJob) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (int i = 0; i < counts.size(); i++) {
            double v = values.get(i) * scale * (perJob ? counts.get(i) : 1);
            if (!Double.isNaN(v) && v > 0) {
                x.add((double) counts.get(i));
                y.add(v);
            }
        }
        if (!x.isEmpty()) {
            Charts.line(c, name, x, y, perJob);
        }
    }
}
