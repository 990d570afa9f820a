package io.jobinfo.store.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobinfo.store.demo.engine.EngineDemoSummary;
import io.jobinfo.store.demo.engine.EngineHarness;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
final class SeaTunnelEngineBenchmark {

    static final String[] VARIANTS = {EngineDemoSummary.STOCK, EngineDemoSummary.DROPIN};

    private final BenchOptions o;
    private final Metrics m;
    private final Path work;
    private final List<String> notes = new ArrayList<>();
    private int roundsMeasured;
    private int jobsPerRound;

    SeaTunnelEngineBenchmark(BenchOptions o, Metrics m, Path work) {
        this.o = o;
        this.m = m;
        this.work = work;
    }

    /** Runs the rounds; returns the report section (markdown). Never throws for a failed round. */
    String run() {
        if (o.quick) {
            notes.add("Skipped by `--quick`: two real SeaTunnel clusters of member processes take about two minutes."
                    + " Run the report without `--quick` (or `bin/jobinfo-store demo --engine seatunnel`).");
            return section();
        }
        if (!o.engine) {
            notes.add("Skipped by `--no-engine`.");
            return section();
        }
        EngineHarness harness = locate(notes);
        if (harness == null) {
            return section();
        }
        jobsPerRound = o.engineJobs;
        for (int round = 0; round < o.rounds; round++) {
            String order = round % 2 == 0 ? "stock,dropin" : "dropin,stock";
            ScenarioBenchmark.log("real SeaTunnel scenario, round %d/%d (%s), %d jobs per cluster", round + 1,
                    o.rounds, order, jobsPerRound);
            Path dir = work.resolve("seatunnel-engine-" + round);
            try {
                EngineHarness.Outcome out = harness.run(List.of("--members", Integer.toString(o.members), "--jobs",
                        Integer.toString(jobsPerRound), "--sizes", "small,medium,large", "--variants", order,
                        "--plugin-jar", harness.pluginJar().toString()), dir, line -> ScenarioBenchmark.log("  %s",
                        line), Duration.ofMinutes(30));
                if (out.result() == null || out.result().has("error")) {
                    notes.add("Round " + (round + 1) + " failed and is left out: " + (out.result() == null
                            ? "exit code " + out.exitCode() : out.result().path("error").asText()) + " (logs: " + dir
                            + ").");
                    continue;
                }
                record(out.result(), round);
            } catch (Exception e) {
                notes.add("Round " + (round + 1) + " failed and is left out: " + e + ".");
            }
        }
        return section();
    }

    /** The built harness, or null with a note saying why it cannot run (not built, and the command that builds it). */
    static EngineHarness locate(List<String> notes) {
        try {
            return EngineHarness.locate();
        } catch (EngineHarness.NotBuilt e) {
            notes.add("Not measured: " + e.getMessage());
            ScenarioBenchmark.log("real-engine scenario not measured: %s", e.getMessage());
            return null;
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

    private String section() {
        return SeaTunnelEngineSection.markdown(m, roundsMeasured, jobsPerRound, o.members, notes);
    }
}
