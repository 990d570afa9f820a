package io.jobinfo.store.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobinfo.store.demo.engine.EngineHarness;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Partition-thread time per operation on the real engine (issue 28 item 2): for every round and every store of
 * {@code --partition-hold-stores}, a stock and a drop-in 3-member SeaTunnel 2.3.8 cluster of member processes, the
 * order alternating by round (a store other than local: one drop-in cluster more per round, its server in this JVM,
 * {@link EngineScaleStores}), each running the harness's partition-hold scenario ({@code PartitionHoldScenario}: a
 * measuring {@code MapInterceptor} on {@code engine_runningJobInfo}; real submits, puts, gets and removes of real jobs'
 * bytes, and {@code kill -9} of the master). Per round, phase and operation, the p50 / p99 / max over all the round's
 * samples go into {@link Metrics} under {@code partitionHold.<variant>.<phase>.<operation>.<stat>}
 * ({@link #key}); {@link SeaTunnelPartitionHoldSection} writes the medians of rounds and the goal's verdict.
 *
 * <p>A failed round (the scenario JVM's error, or jobs not RUNNING again after the kill) is a note and ends the
 * scenario; it never throws. The stores supported are {@link #STORES}.
 */
final class SeaTunnelPartitionHoldBenchmark extends RealEngineBenchmark {

    /** Puts (then gets and removes) per job size and cluster in the submit phase. */
    static final int REPEATS = 20;
    /** Statistics kept per operation. */
    static final List<String> STATS = List.of("count", "medianMicros", "p99Micros", "maxMicros");
    /** The operation key of every sample of a phase together. */
    static final String ALL = "all";

    /** Its drop-in stores: local (a directory of the cluster's own) and the servers of {@link EngineScaleStores}. */
    static final List<String> STORES = List.of("local", "s3", "hdfs", "rgw");

    private int roundsMeasured;

    /** Adds a problem, naming the option, for each unsupported store and for rounds outside 0..50. */
    static void validate(BenchOptions o, List<String> problems) {
        for (String s : o.partitionHoldStores) {
            if (!STORES.contains(s)) {
                problems.add("--partition-hold-stores: '" + s + "' is not supported (supported: "
                        + String.join(", ", STORES) + ", or none)");
            }
        }
        if (o.partitionHoldRounds < 0 || o.partitionHoldRounds > 50) {
            problems.add("--partition-hold-rounds must be 0..50 (0: --rounds), got " + o.partitionHoldRounds);
        }
    }

    SeaTunnelPartitionHoldBenchmark(BenchOptions o, Metrics m, Path work) {
        super(o, m, work, !o.partitionHoldStores.isEmpty());
    }

    @Override
    void rounds(EngineHarness harness) {
        try (EngineScaleStores servers = new EngineScaleStores(o.partitionHoldStores, work)) {
            notes.addAll(servers.notes());
            rounds(harness, servers);
        }
    }

    /**
     * Per round: stock and the drop-in on the local store (or stock alone if local is not asked for), then the
     * drop-in on each other store whose server runs; the order reversed on odd rounds.
     */
    private void rounds(EngineHarness harness, EngineScaleStores servers) {
        List<String> stores = new ArrayList<>();
        stores.add(o.partitionHoldStores.contains(EngineScaleStores.LOCAL) ? EngineScaleStores.LOCAL : STOCK);
        stores.addAll(servers.started());
        for (int round = 0; round < o.partitionHoldRounds(); round++) {
            List<String> runs = new ArrayList<>(stores);
            if (round % 2 == 1) {
                Collections.reverse(runs);
            }
            for (String store : runs) {
                boolean server = !store.equals(EngineScaleStores.LOCAL) && !store.equals(STOCK);
                String variants = store.equals(EngineScaleStores.LOCAL) ? order(round) : server ? DROPIN : STOCK;
                ScenarioBenchmark.log("real SeaTunnel partition-thread time, round %d/%d, %s store (%s)", round + 1,
                        o.partitionHoldRounds(), store, variants);
                Path dir = work.resolve("seatunnel-partition-hold-" + store + "-" + round);
                List<String> args = new ArrayList<>(List.of("--scenario", "partition-hold", "--members",
                        Integer.toString(o.members), "--jobs", "3", "--sizes", "small,medium,large", "--variants",
                        variants, "--plugin-jar", harness.pluginJar().toString(), "--member-heap", o.engineMemberHeap,
                        "--repeats", Integer.toString(REPEATS)));
                if (server) {
                    try {
                        Path section = servers.writeSection(store, "partition-hold-" + round,
                                dir.resolve("storage.yaml"));
                        args.addAll(List.of("--dropin-store", store, "--dropin-storage-yaml", section.toString()));
                    } catch (IOException e) {
                        notes.add("Round " + (round + 1) + " (" + store + "): cannot write the store's section under "
                                + dir + ": " + e);
                        return;
                    }
                }
                String failure = scenario(harness, args, dir, Duration.ofMinutes(30),
                        result -> record(result, store, dir));
                if (failure != null) {
                    notes.add("Round " + (round + 1) + " (" + store + ") failed: " + failure);
                    return;
                }
            }
            roundsMeasured++;
        }
    }

    /** The figures of one scenario run into {@link Metrics}; returns why the round does not count, or null. */
    String record(JsonNode result, String store, Path dir) {
        String failure = null;
        for (String v : VARIANTS) {
            if (result.path("variants").path(v).isMissingNode()) {
                continue; // a run of one variant (the drop-in on a store with a server, or stock alone)
            }
            JsonNode r = result.path("variants").path(v);
            String variant = variant(v, store);
            JsonNode phases = r.path("phases");
            for (Iterator<Map.Entry<String, JsonNode>> it = phases.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> phase = it.next();
                add(variant, phase.getKey(), ALL, phase.getValue().path("all"));
                for (Iterator<Map.Entry<String, JsonNode>> ops = phase.getValue().path("operations").fields();
                     ops.hasNext(); ) {
                    Map.Entry<String, JsonNode> op = ops.next();
                    add(variant, phase.getKey(), op.getKey(), op.getValue());
                }
                long off = phase.getValue().path("offPartitionThread").asLong();
                if (off > 0) {
                    notes.add(variant + ", " + phase.getKey() + ": " + off + " samples were taken off a partition"
                            + " thread (logs: " + dir + ").");
                }
            }
            JsonNode notRunning = r.path("masterKill").path("notRunning");
            if (notRunning.size() > 0) {
                failure = v + ": " + notRunning.size() + " of " + r.path("masterKill").path("jobs").asInt()
                        + " jobs not RUNNING again after the kill: " + notRunning + " (logs: " + dir + ").";
            }
        }
        return failure;
    }

    private void add(String variant, String phase, String op, JsonNode stats) {
        if (stats.path("count").asLong() == 0) {
            return; // not seen: no figure, the section says so
        }
        for (String s : STATS) {
            m.add(key(variant, phase, op, s), s.equals("count") ? "" : "us", stats.path(s).asDouble());
        }
    }

    /** The variant key of the harness's variant {@code v} on {@code store}: stock, or dropin-{@code store}. */
    static String variant(String v, String store) {
        return v.equals(STOCK) ? STOCK : DROPIN + "-" + store;
    }

    /** The metric of one statistic; {@code op} as the harness names it ({@code put/inline}) or {@link #ALL}. */
    static String key(String variant, String phase, String op, String stat) {
        return "partitionHold." + variant + "." + phase + "." + op.replace('/', '-') + "." + stat;
    }

    @Override
    String section() {
        return SeaTunnelPartitionHoldSection.markdown(m, o, roundsMeasured, notes);
    }
}
