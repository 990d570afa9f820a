package io.jobinfo.store.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobinfo.store.demo.engine.EngineDemoSummary;
import io.jobinfo.store.demo.engine.EngineHarness;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The real-engine scenario of the report: in every round, a stock SeaTunnel 2.3.8 cluster of member processes and a
 * drop-in one (local store), one after the other (the order alternates by round), each running the harness's
 * scenario (real FakeSource -> Console jobs of ~10 KB, ~200 KB and ~1.8 MB, kill -9 of the master). The figures go
 * into {@link Metrics} under {@code engine.<variant>.*}; {@link SeaTunnelEngineSection} writes them.
 *
 * <p>Not run with {@code --quick} or {@code --no-engine}, nor when the harness is not built; a round that fails is
 * logged and left out; the section says which of these happened.
 */
final class SeaTunnelEngineBenchmark extends RealEngineBenchmark {

    private int roundsMeasured;
    private int jobsPerRound;

    SeaTunnelEngineBenchmark(BenchOptions o, Metrics m, Path work) {
        super(o, m, work, true);
    }

    @Override
    String skipped() {
        if (!o.quick) {
            return super.skipped();
        }
        return "Skipped by `--quick`: two real SeaTunnel clusters of member processes take about two minutes."
                + " Run the report without `--quick` (or `bin/jobinfo-store demo --engine seatunnel`).";
    }

    @Override
    void rounds(EngineHarness harness) {
        jobsPerRound = o.engineJobs;
        for (int round = 0; round < o.rounds; round++) {
            String order = order(round);
            ScenarioBenchmark.log("real SeaTunnel scenario, round %d/%d (%s), %d jobs per cluster", round + 1,
                    o.rounds, order, jobsPerRound);
            Path dir = work.resolve("seatunnel-engine-" + round);
            try {
                EngineHarness.Outcome out = harness.run(List.of("--members", Integer.toString(o.members), "--jobs",
                        Integer.toString(jobsPerRound), "--sizes", "small,medium,large", "--variants", order,
                        "--plugin-jar", harness.pluginJar().toString()), dir, line -> ScenarioBenchmark.log("  %s",
                        line), Duration.ofMinutes(30));
                if (!out.completed()) {
                    notes.add("Round " + (round + 1) + " failed and is left out: " + out.failure() + " (logs: " + dir
                            + ").");
                    continue;
                }
                record(out.result(), round);
            } catch (Exception e) {
                notes.add("Round " + (round + 1) + " failed and is left out: " + e + ".");
            }
        }
    }

    private void record(JsonNode result, int round) {
        Map<String, Object> s = EngineDemoSummary.of(result);
        for (String v : VARIANTS) {
            Map<?, ?> r = (Map<?, ?>) s.get(v);
            for (Map.Entry<?, ?> e : ((Map<?, ?>) r.get("bytesPerJob")).entrySet()) {
                m.add("engine." + v + ".bytes." + e.getKey(), "B", ((Number) e.getValue()).doubleValue());
            }
            m.add("engine." + v + ".submitP50", "ms", ((Number) r.get("submitP50Millis")).doubleValue());
            m.add("engine." + v + ".submitP99", "ms", ((Number) r.get("submitP99Millis")).doubleValue());
            m.add("engine." + v + ".killToNewMaster", "ms", ((Number) r.get("killToNewMasterMillis")).doubleValue());
            if (r.get("killToAllRunningMillis") instanceof Number n) {
                m.add("engine." + v + ".killToAllRunning", "ms", n.doubleValue());
            } else {
                notes.add("Round " + (round + 1) + ", " + v + ": jobs not RUNNING again after the kill: "
                        + r.get("notRunning") + " (logs: " + r.get("logs") + ").");
            }
            m.add("engine." + v + ".jobsNotRunning", "jobs", ((Map<?, ?>) r.get("notRunning")).size());
        }
        roundsMeasured++;
    }

    @Override
    String section() {
        return SeaTunnelEngineSection.markdown(m, roundsMeasured, jobsPerRound, o.members, notes);
    }
}
