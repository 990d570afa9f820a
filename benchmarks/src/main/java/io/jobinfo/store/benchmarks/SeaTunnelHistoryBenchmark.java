package io.jobinfo.store.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobinfo.store.demo.engine.EngineHarness;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Finished jobs' history at scale on the real engine (issue 27's goals): for every round, a stock and a drop-in
 * ({@code jobinfo-dropin: history: all}, local store) cluster of SeaTunnel 2.3.8 member processes, the order
 * alternating by round, each running the harness's history scenario ({@code HistoryScenario}: two real 1 x 2 batch
 * jobs, their history retained under {@code --engine-history} counts of ids). Figures go into {@link Metrics} under
 * {@code engineHistory.<variant>.<count>.<figure>}; {@link #section} writes the table and the goals' verdicts.
 * A failed round is reported and ends the scenario; it never throws.
 */
final class SeaTunnelHistoryBenchmark extends RealEngineBenchmark {

    static final String TITLE = "## Real SeaTunnel 2.3.8: finished jobs' history retained";

    /** A figure of one count: its key in the scenario's JSON row (a path), label, unit and format. */
    enum Figure {
        BYTES("bytesPerRetainedJob", "history maps' bytes per retained job (owned + backup)", "B", "%.0f"),
        HEAP_PER_JOB("liveHeapBytesPerRetainedJob", "live heap growth per retained job, all members", "B", "%.0f"),
        MASTER_HEAP("masterLiveHeapRatio", "master live heap after GC / none retained", "x", "%.3f"),
        LISTING("rest/finishedJobsP50Millis", "REST finished-jobs, median", "ms", "%.1f"),
        LISTING_FIRST("rest/finishedJobsFirstMillis", "REST finished-jobs, first request", "ms", "%.1f"),
        JOB_INFO("rest/jobInfoP50Millis", "REST job-info of one finished job, median", "ms", "%.1f"),
        REST_STORE_READS("restStoreReadsPerListedJob", "store reads (cache misses, all members) per listed job and"
                + " listing", "reads", "%.2f"),
        HEAP_AFTER_REST("liveHeapBytesAfterRest", "live heap after the listing, all members", "MiB", "%.1f"),
        SETTLED("settledMillis", "put -> every value in place (drop-in: moved)", "ms", "%.0f");

        final String path;
        final String label;
        final String unit;
        final String format;

        Figure(String path, String label, String unit, String format) {
            this.path = path;
            this.label = label;
            this.unit = unit;
            this.format = format;
        }

        double of(JsonNode row) {
            JsonNode n = row;
            for (String part : path.split("/")) {
                n = n.path(part);
            }
            double v = n.asDouble(Double.NaN);
            return unit.equals("MiB") ? v / (1 << 20) : v;
        }
    }

    /** One class of the master's heap growth, as the scenario's row gives it. */
    private record Growth(String className, long instances, long bytes) {
    }

    /** Per variant: what the master's heap grew by at the largest count, as the last round measured it. */
    private final java.util.Map<String, List<Growth>> growthByVariant = new java.util.TreeMap<>();

    SeaTunnelHistoryBenchmark(BenchOptions o, Metrics m, Path work) {
        super(o, m, work, !o.engineHistory.isEmpty());
    }

    @Override
    void rounds(EngineHarness harness) {
        for (int round = 0; round < o.engineHistoryRounds(); round++) {
            String order = order(round);
            ScenarioBenchmark.log("real SeaTunnel history, round %d/%d, %s retained (%s)", round + 1,
                    o.engineHistoryRounds(), o.engineHistory, order);
            String failure = runRound(harness, round, order);
            if (failure != null) {
                notes.add("Round " + (round + 1) + " failed: " + failure);
                break;
            }
        }
    }

    private String runRound(EngineHarness harness, int round, String order) {
        Path dir = work.resolve("seatunnel-history-" + round);
        StringBuilder counts = new StringBuilder();
        for (int n : o.engineHistory) {
            counts.append(counts.length() == 0 ? "" : ",").append(n);
        }
        return scenario(harness, List.of("--scenario", "history", "--retained", counts.toString(), "--members",
                Integer.toString(o.members), "--variants", order, "--plugin-jar", harness.pluginJar().toString(),
                "--member-heap", o.engineMemberHeap, "--rest-samples", "3"), dir, Duration.ofMinutes(120),
                this::record);
    }

    /** Takes one round's scenario result: its figures into {@link Metrics}, the heap growth by class. */
    String record(JsonNode result) {
        for (String v : VARIANTS) {
            for (JsonNode row : result.path("variants").path(v).path("counts")) {
                for (Figure f : Figure.values()) {
                    double value = f.of(row);
                    if (!Double.isNaN(value)) {
                        m.add(key(v, row.path("retained").asInt(), f), f.unit, value);
                    }
                }
                if (row.path("retained").asInt() == largest()) {
                    List<Growth> grown = new java.util.ArrayList<>();
                    for (JsonNode c : row.path("masterHeapGrowthByClass")) {
                        grown.add(new Growth(c.path("class").asText(), c.path("instances").asLong(),
                                c.path("bytes").asLong()));
                    }
                    growthByVariant.put(v, grown);
                }
            }
        }
        return null;
    }

    /** The scenario's real batch jobs whose history every count retains copies of ({@code HistoryScenario}). */
    static final int TEMPLATE_JOBS = 2;

    /** The largest retained count. */
    private int largest() {
        return o.engineHistory.get(o.engineHistory.size() - 1);
    }

    static String key(String variant, int count, Figure f) {
        return "engineHistory." + variant + "." + count + "." + f.name();
    }

    /** The rounds whose figures are in {@link Metrics}: the most values any count's bytes figure has. */
    private int rounds() {
        int r = 0;
        for (String v : VARIANTS) {
            for (int n : o.engineHistory) {
                String k = key(v, n, Figure.BYTES);
                r = Math.max(r, m.has(k) ? m.values(k).size() : 0);
            }
        }
        return r;
    }

    @Override
    String section() {
        int rounds = rounds();
        return markdown(TITLE, rounds > 0, md -> {
            md.append(String.format(Locale.ROOT, "%d round(s); in each, a stock and a drop-in cluster of %d SeaTunnel"
                    + " 2.3.8 member processes (`-Xmx%s`, serial GC, backup-count 1; the drop-in with"
                    + " `jobinfo-dropin: history: all` on a local store), one after the other, the order alternating"
                    + " by round. Each runs two real 1 x 2 FakeSource -> Console batch jobs to FINISHED; their history"
                    + " values (metrics, state, DAG info) are then put under new ids, as SeaTunnel's"
                    + " `JobHistoryService` puts a finished job's, by a probe on the master (`HistoryCopyProbe`: ten"
                    + " thousand real batch jobs would take hours on this machine), 1,000 of them retained and removed"
                    + " first so that the baseline is a cluster that has run (`HistoryScenario#warmUp`). Per count"
                    + " (cumulative), once every value is in place (the drop-in: moved to the store): the three maps'"
                    + " `LocalMapStats` entry cost, each member's live heap after a full GC against the same cluster"
                    + " before (\"none retained\"), then REST finished-jobs (3 GETs) and job-info (3 GETs) on a member"
                    + " that is not the master. Medians across rounds.%n%n", rounds, o.members,
                    o.engineMemberHeap));
            md.append("| retained | figure | stock | drop-in | drop-in / stock |\n|---|---|---|---|---|\n");
            for (int n : o.engineHistory) {
                for (Figure f : Figure.values()) {
                    comparison(md, m, n, f.label + ", " + f.unit, key(STOCK, n, f), key(DROPIN, n, f), f.format);
                }
            }
            md.append('\n');
            if (!growthByVariant.isEmpty()) {
                md.append("What the master's live heap grew by from none retained to ").append(largest())
                        .append(" retained, by class (`GC.class_histogram` of live objects, last round, the largest"
                        + " growth first):\n");
                growthByVariant.forEach((v, grown) -> md.append("- ").append(v).append(": ")
                        .append(grown.isEmpty() ? "nothing grew" : String.join(", ", grown.stream()
                                .map(g -> String.format(Locale.ROOT, "`%s` %+.1f MiB (%+d)", g.className(),
                                        g.bytes() / 1048576.0, g.instances())).toList())).append(";\n"));
                md.append('\n');
            }
            verdicts(md);
        }, notes);
    }

    private void verdicts(StringBuilder md) {
        int largest = largest();
        md.append("Goals (issue 27), drop-in at ").append(largest).append(" retained:\n");
        double bytes = m.median(key(DROPIN, largest, Figure.BYTES));
        md.append(String.format(Locale.ROOT, "- cluster heap per retained finished job <= 1 KB: %.0f B, %s;%n", bytes,
                bytes <= 1024 ? "met" : "NOT met"));
        double heap = m.median(key(DROPIN, largest, Figure.MASTER_HEAP));
        md.append(String.format(Locale.ROOT, "- master live heap after GC within 5%% of none retained: %.3fx, %s"
                + " (stock: %.3fx)", heap, heap <= 1.05 ? "met" : "NOT met",
                m.median(key(STOCK, largest, Figure.MASTER_HEAP))));
        List<Growth> growth = growthByVariant.get(DROPIN);
        if (heap > 1.05 && growth != null) {
            long grown = growth.stream().mapToLong(Growth::bytes).sum();
            md.append(String.format(Locale.ROOT, ". What bounds it: the classes above grew by %.1f MiB on the drop-in's"
                    + " master, %.0f B per retained job: Hazelcast's own cost of the entries that hold the references"
                    + " (their records, keys, values and expiry metadata; with backup-count 1 and 3 maps the master"
                    + " holds about 2 entries per job), not the drop-in's; only fewer or smaller entries would lower"
                    + " it", grown / 1048576.0, grown / (double) largest));
        }
        md.append(";\n");
        double d = m.median(key(DROPIN, largest, Figure.LISTING));
        double s = m.median(key(STOCK, largest, Figure.LISTING));
        md.append(String.format(Locale.ROOT, "- finished-jobs no slower than stock: %.1f ms against %.1f ms (%.2fx),"
                + " %s", d, s, d / s, d <= s ? "met" : "NOT met"));
        String readsKey = key(DROPIN, largest, Figure.REST_STORE_READS);
        if (d > s && m.has(readsKey) && m.median(readsKey) > 0) {
            // the listing lists the retained jobs and the scenario's template jobs
            double misses = m.median(readsKey) * (largest + TEMPLATE_JOBS);
            String perJob = m.has(key(STOCK, largest, Figure.BYTES)) ? String.format(Locale.ROOT, ", against about"
                    + " %.1f KB of history values per job (half of stock's owned + backup bytes)",
                    m.median(key(STOCK, largest, Figure.BYTES)) / 2 / 1000) : "";
            md.append(String.format(Locale.ROOT, ". What bounds it: each listing read %.2f values per listed job from"
                    + " the store (history values that missed the members' caches, bounded by"
                    + " `history-cache-max-bytes`%s), and the %.0f ms it took more than stock's is %.0f us per store"
                    + " read: the price of the bounded cache, which a larger `history-cache-max-bytes` trades for"
                    + " heap", m.median(readsKey), perJob, d - s, (d - s) * 1000 / misses));
        }
        md.append(".\n\n");
    }
}
