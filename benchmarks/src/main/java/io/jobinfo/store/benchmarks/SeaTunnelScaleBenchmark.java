package io.jobinfo.store.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobinfo.store.demo.engine.EngineHarness;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The real-engine scale scenario of the report (issue 28 item 1): for every round and every job count of
 * {@code --engine-scale}, a stock and a drop-in (local store) 3-member SeaTunnel 2.3.8 cluster of member processes,
 * interleaved (the order alternates by round and count), each running the harness's scenario with that many
 * streaming jobs (1 x 2, 110 x 20 and 1000 x 20 tables x columns in turn), with SeaTunnel's IMap persistence if
 * {@code --engine-scale-persistence on} (stock with SeaTunnel's map-store factory, the drop-in with its own;
 * the WAL bytes per job are then figures too). Each store of {@code --engine-scale-stores} other than local is one more
 * drop-in cluster per count (variant {@code dropin-<store>}, its server in this JVM: {@link EngineScaleStores}), in
 * the same alternating order. The figures ({@link EngineScaleFigures})
 * go into {@link Metrics} under {@code engineScale.<variant>.<count>.<figure>}; {@link SeaTunnelScaleSection} writes
 * them.
 *
 * <p>Where it stops: a count whose run fails (the scenario stops, or a job is not RUNNING again after the kill) is
 * the last one of every round; {@link ScaleBudget} decides whether a count starts within
 * {@code --engine-scale-minutes} and stops one that runs well past it. The section says which happened.
 */
final class SeaTunnelScaleBenchmark extends RealEngineBenchmark {

    /** Checkpoints of the scale jobs: every 30 s, so that 100 jobs' checkpoints do not take the machine's CPU. */
    static final int CHECKPOINT_MILLIS = 30_000;

    private final List<Integer> measured = new ArrayList<>();
    private int roundsMeasured;

    SeaTunnelScaleBenchmark(BenchOptions o, Metrics m, Path work) {
        super(o, m, work, !o.engineScale.isEmpty());
    }

    @Override
    void rounds(EngineHarness harness) {
        try (EngineScaleStores stores = new EngineScaleStores(o.engineScaleStores, work)) {
            notes.addAll(stores.notes());
            rounds(harness, stores);
        }
    }

    private void rounds(EngineHarness harness, EngineScaleStores stores) {
        long start = System.nanoTime();
        ScaleBudget budget = new ScaleBudget(o.engineScaleMinutes, o.engineScaleRounds());
        int ceiling = Integer.MAX_VALUE; // the first count that failed: no round goes there again
        for (int round = 0; round < o.engineScaleRounds(); round++) {
            boolean any = false;
            for (int c = 0; c < o.engineScale.size(); c++) {
                int count = o.engineScale.get(c);
                if (count >= ceiling) {
                    break;
                }
                String refusal = budget.refusal(round + 1, count, minutesSince(start));
                if (refusal != null) {
                    notes.add(refusal);
                    break;
                }
                List<String> runs = runs(round + c, stores.started());
                ScenarioBenchmark.log("real SeaTunnel at scale, round %d/%d, %d jobs per cluster (%s)", round + 1,
                        o.engineScaleRounds(), count, String.join(", then ", runs));
                long t0 = System.nanoTime();
                String failure = null;
                for (int r = 0; r < runs.size() && failure == null; r++) {
                    Duration timeout = Duration.ofSeconds((long) (60 * Math.min(90,
                            budget.timeoutMinutes(minutesSince(start)))));
                    String run = runs.get(r);
                    failure = runCount(harness, round, count, run, stores, timeout, harnessFailure -> String.format(
                            Locale.ROOT, "stopped by the budget: %.1f min spent, past the %d min of"
                                    + " `--engine-scale-minutes` and a quarter more, with %s of the count still running"
                                    + " (its figures are lost; its progress is in the log). %s", minutesSince(start),
                            o.engineScaleMinutes, run, harnessFailure));
                }
                double took = minutesSince(t0);
                budget.took(count, took);
                m.add("engineScale.minutes." + count, "min", took);
                if (failure != null) {
                    notes.add("Round " + (round + 1) + " stopped at " + count + " jobs: " + failure);
                    ceiling = count;
                    break;
                }
                any = true;
                if (!measured.contains(count)) {
                    measured.add(count);
                }
            }
            roundsMeasured += any ? 1 : 0;
        }
    }

    private static double minutesSince(long nanos) {
        return (System.nanoTime() - nanos) / 6e10;
    }

    /**
     * The scenario runs of the {@code i}-th count: the harness's {@code --variants} of the stock cluster (with the
     * local drop-in if asked), then one store each of {@code stores}; reversed on odd ones.
     */
    private List<String> runs(int i, List<String> stores) {
        List<String> runs = new ArrayList<>();
        runs.add(o.engineScaleStores.contains(EngineScaleStores.LOCAL) ? order(i) : "stock");
        runs.addAll(stores);
        if (i % 2 == 1) {
            java.util.Collections.reverse(runs);
        }
        return runs;
    }

    /**
     * One run ({@link #runs}) of one count of one round; returns why it failed (a run stopped by {@code timeout}
     * worded by {@code timedOut}), or null.
     */
    private String runCount(EngineHarness harness, int round, int count, String run, EngineScaleStores stores,
                            Duration timeout, UnaryOperator<String> timedOut) {
        boolean store = !run.startsWith("stock") && !run.startsWith("dropin");
        Path dir = work.resolve("seatunnel-scale-" + round + "-" + count + (store ? "-" + run : ""));
        List<String> args = new ArrayList<>(List.of("--members", Integer.toString(o.members), "--jobs",
                Integer.toString(count), "--sizes", "small,medium,large", "--plugin-jar",
                harness.pluginJar().toString(), "--member-heap", o.engineMemberHeap, "--checkpoint-interval-ms",
                Integer.toString(CHECKPOINT_MILLIS), "--restore-timeout-seconds", "600", "--rest-samples", "3",
                "--imap-persistence", o.engineScalePersistence, "--variants", store ? "dropin" : run));
        if (store) {
            try {
                Path section = stores.writeSection(run, "scale-" + round + "-" + count, dir.resolve("storage.yaml"));
                args.addAll(List.of("--dropin-store", run, "--dropin-storage-yaml", section.toString()));
            } catch (IOException e) {
                return "cannot write the " + run + " store's section under " + dir + ": " + e;
            }
        }
        return scenario(harness, args, dir, timeout, timedOut,
                result -> record(result, count, dir, store ? "-" + run : ""));
    }

    /** Records every variant of {@code result}; {@code suffix} names the drop-in's store ("" local, "-s3"). */
    private String record(JsonNode result, int count, Path dir, String suffix) {
        String failure = null;
        for (Map.Entry<String, JsonNode> variant : result.path("variants").properties()) {
            JsonNode r = variant.getValue();
            String v = variant.getKey() + (variant.getKey().equals(STOCK) ? "" : suffix);
            for (Map.Entry<EngineScaleFigures.Figure, Double> e : EngineScaleFigures.of(r).entrySet()) {
                m.add(key(v, count, e.getKey()), e.getKey().unit, e.getValue());
            }
            JsonNode notRunning = r.path("masterKill").path("notRunning");
            if (notRunning.size() > 0) {
                failure = v + ": " + notRunning.size() + " of " + r.path("masterKill").path("jobs").asInt()
                        + " jobs not RUNNING again after the kill: " + notRunning + " (logs: " + dir + ").";
            }
        }
        return failure;
    }

    static String key(String variant, int count, EngineScaleFigures.Figure f) {
        return "engineScale." + variant + "." + count + "." + f.key;
    }

    @Override
    String section() {
        return SeaTunnelScaleSection.markdown(m, measured, roundsMeasured, o, notes);
    }

    /** Draws the chart of cost by job count into {@code dir} if any count was measured. */
    void chart(Path dir) throws IOException {
        if (!measured.isEmpty()) {
            SeaTunnelScaleSection.chart(m, measured, dir);
        }
    }
}
