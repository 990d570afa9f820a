package io.jobinfo.store.benchmarks;

import static io.jobinfo.store.benchmarks.SeaTunnelPartitionHoldBenchmark.ALL;
import static io.jobinfo.store.benchmarks.SeaTunnelPartitionHoldBenchmark.key;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The report section of the real-engine partition-thread time scenario ({@link SeaTunnelPartitionHoldBenchmark}):
 * per phase (submit, get, master-switch restore, job end) and per map operation, p50 / p99 / max (medians of rounds)
 * of stock and of the drop-in on each store, and the verdict against the goal "partition-thread time per drop-in
 * operation p99 <= 1 ms on every backend". Reads only {@link Metrics} and the options; an operation the interceptor
 * did not see is written "not seen" and is not judged.
 */
final class SeaTunnelPartitionHoldSection {

    static final String TITLE = "## Real SeaTunnel 2.3.8: partition-thread time per operation";
    /** The goal's bound on the p99 of every drop-in operation, in microseconds. */
    static final double GOAL_MICROS = 1000;
    static final List<String> PHASES = List.of("submit", "get", "restore", "jobEnd");
    private static final Map<String, String> PHASE_LABELS = Map.of("submit", "submit", "get", "get",
            "restore", "master-switch restore", "jobEnd", "job end");
    private static final Map<String, String> OP_LABELS = Map.of(
            "put-inline", "put/inline (SeaTunnel's put of the job)",
            "get-inline", "get/inline (a read of the inline job)",
            "put-reference", "put/reference (the drop-in's replace by the reference)",
            "get-reference", "get/reference (a read of the reference)",
            "remove-inline", "remove/inline",
            "remove-reference", "remove/reference");

    private SeaTunnelPartitionHoldSection() {}

    static String markdown(Metrics m, BenchOptions o, int rounds, List<String> notes) {
        List<String> variants = new ArrayList<>(List.of(RealEngineBenchmark.STOCK));
        for (String s : o.partitionHoldStores) {
            variants.add(SeaTunnelPartitionHoldBenchmark.variant(RealEngineBenchmark.DROPIN, s));
        }
        return RealEngineBenchmark.markdown(TITLE, rounds > 0, md -> {
            md.append(String.format(Locale.ROOT, "%d round(s); in each, a stock and a drop-in cluster (stores: %s) of"
                    + " %d SeaTunnel 2.3.8 member processes (`-Xmx%s`, backup-count 1), one after the other, the order"
                    + " alternating by round. A measuring `MapInterceptor` (`PartitionHoldInterceptor`, added through"
                    + " the client, copied by Hazelcast to every member) times, on the partition thread, each"
                    + " operation on `engine_runningJobInfo` from its `intercept*` to its `after*` call: the record"
                    + " store's work (the drop-in adds no interceptor to the map; the (de)serialization the measuring"
                    + " interceptor itself causes is left out). Phases: **submit**: 3 real streaming jobs (1 x 2, 110 x"
                    + " 20 and 1000 x 20 tables x columns) until RUNNING (drop-in: and moved), then %d puts per size of"
                    + " those jobs' bytes as SeaTunnel's coordinator puts them (drop-in: each until moved: the"
                    + " mover's read and replace); **get**: one client get of each of those entries; **job end**:"
                    + " their removal; **master-switch restore**: `kill -9` of the master, then what the surviving"
                    + " members saw until every job was RUNNING again. p50 / p99 / max in microseconds over all"
                    + " samples of a round (nearest rank: below 100 samples the p99 is the round's max), medians of rounds; n:"
                    + " samples per round (median). The times are wall-clock on the partition thread: a GC pause or"
                    + " the thread waiting for a core inside an operation counts.%n%n", rounds,
                    String.join(", ", o.partitionHoldStores), o.members, o.engineMemberHeap,
                    SeaTunnelPartitionHoldBenchmark.REPEATS));
            md.append("| phase | operation |");
            for (String v : variants) {
                md.append(' ').append(label(v)).append(" p50 / p99 / max (n) |");
            }
            md.append("\n|---|---|").append("---|".repeat(variants.size())).append('\n');
            for (String phase : PHASES) {
                for (String op : operations(m, variants, phase)) {
                    md.append("| ").append(op.equals(ALL) ? "**" + PHASE_LABELS.get(phase) + "**" : "").append(" | ")
                            .append(op.equals(ALL) ? "every operation" : OP_LABELS.getOrDefault(op, op)).append(" |");
                    for (String v : variants) {
                        md.append(' ').append(cell(m, v, phase, op)).append(" |");
                    }
                    md.append('\n');
                }
            }
            md.append('\n');
            md.append("The restore's scan of the map (`IMap.entrySet()` in SeaTunnel 2.3.8's"
                    + " `CoordinatorService.restoreAllRunningJobFromMasterNodeSwitch`) calls no interceptor and is not"
                    + " in these figures; its per-job `IMap.get` calls are.\n\n");
            verdict(md, m, variants);
        }, notes);
    }

    /** {@link #ALL} then every operation any variant has a figure for in {@code phase}, in first-seen order. */
    static List<String> operations(Metrics m, List<String> variants, String phase) {
        Set<String> ops = new LinkedHashSet<>();
        ops.add(ALL);
        for (String name : m.all().keySet()) {
            for (String v : variants) {
                String prefix = "partitionHold." + v + "." + phase + ".";
                if (name.startsWith(prefix) && name.endsWith(".p99Micros")) {
                    ops.add(name.substring(prefix.length(), name.length() - ".p99Micros".length()));
                }
            }
        }
        return new ArrayList<>(ops);
    }

    private static String cell(Metrics m, String variant, String phase, String op) {
        if (!m.has(key(variant, phase, op, "p99Micros"))) {
            return "not seen";
        }
        return String.format(Locale.ROOT, "%s / %s / %s (%.0f)", micros(m, variant, phase, op, "medianMicros"),
                micros(m, variant, phase, op, "p99Micros"), micros(m, variant, phase, op, "maxMicros"),
                m.median(key(variant, phase, op, "count")));
    }

    private static String micros(Metrics m, String variant, String phase, String op, String stat) {
        double v = m.median(key(variant, phase, op, stat));
        return String.format(Locale.ROOT, v < 10 ? "%.1f" : "%.0f", v);
    }

    /**
     * The goal per drop-in store: every operation row's p99 (median of rounds) at most {@value #GOAL_MICROS} us; the
     * rows over it are named with stock's p99 of the same row beside them; phases not seen are named, not judged.
     */
    private static void verdict(StringBuilder md, Metrics m, List<String> variants) {
        md.append("Goal (issue 28): partition-thread time per drop-in operation p99 <= 1 ms on every backend:\n");
        boolean allMet = true;
        for (String v : variants.subList(1, variants.size())) {
            double worst = 0;
            String worstRow = "";
            List<String> over = new ArrayList<>();
            List<String> unseen = new ArrayList<>();
            for (String phase : PHASES) {
                if (!m.has(key(v, phase, ALL, "p99Micros"))) {
                    unseen.add(PHASE_LABELS.get(phase));
                    continue;
                }
                for (String op : operations(m, variants, phase)) {
                    if (op.equals(ALL) || !m.has(key(v, phase, op, "p99Micros"))) {
                        continue;
                    }
                    double p99 = m.median(key(v, phase, op, "p99Micros"));
                    String row = PHASE_LABELS.get(phase) + " " + op.replace('-', '/');
                    if (p99 > worst) {
                        worst = p99;
                        worstRow = row;
                    }
                    if (p99 > GOAL_MICROS) {
                        String stock = key(RealEngineBenchmark.STOCK, phase, op, "p99Micros");
                        over.add(String.format(Locale.ROOT, "%s %.0f us (stock: %s)", row, p99, m.has(stock)
                                ? String.format(Locale.ROOT, "%.0f us", m.median(stock)) : "not seen"));
                    }
                }
            }
            if (worstRow.isEmpty()) {
                allMet = false;
                md.append("- ").append(label(v)).append(": not measured.\n");
                continue;
            }
            allMet &= over.isEmpty();
            md.append(String.format(Locale.ROOT, "- %s: worst p99 %.0f us (%s), %s", label(v), worst, worstRow,
                    over.isEmpty() ? "met" : "NOT met: " + String.join("; ", over)));
            md.append(unseen.isEmpty() ? ".\n" : "; not seen by the interceptor, so not judged: "
                    + String.join(", ", unseen) + ".\n");
        }
        List<String> missing = new ArrayList<>(List.of("local", "s3", "hdfs"));
        missing.removeAll(variants.stream().map(v -> v.substring(v.indexOf('-') + 1)).toList());
        md.append(allMet ? "Met on the stores measured" : "Not met").append(missing.isEmpty() ? "" : "; not measured: "
                + String.join(", ", missing) + " (not in `--partition-hold-stores`, or its server did not start)")
                .append(".\n\n");
    }

    private static String label(String variant) {
        return variant.equals(RealEngineBenchmark.STOCK) ? "stock"
                : "drop-in, " + variant.substring(variant.indexOf('-') + 1);
    }
}
