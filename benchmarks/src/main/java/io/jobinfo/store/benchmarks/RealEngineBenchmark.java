package io.jobinfo.store.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobinfo.store.demo.engine.EngineDemoSummary;
import io.jobinfo.store.demo.engine.EngineHarness;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * What the real-engine scenarios of the report share ({@link SeaTunnelEngineBenchmark},
 * {@link SeaTunnelScaleBenchmark}, {@link SeaTunnelHistoryBenchmark}): each is skipped by {@code --quick} and {@code --no-engine}, needs the built
 * harness, runs rounds in which a stock and a drop-in cluster of SeaTunnel member processes run one after the other
 * (the order alternating), puts its figures into {@link Metrics} and writes a section of medians across rounds, with
 * notes on what was skipped or failed. A failed round never throws.
 */
abstract class RealEngineBenchmark {

    static final String[] VARIANTS = {EngineDemoSummary.STOCK, EngineDemoSummary.DROPIN};
    static final String STOCK = VARIANTS[0];
    static final String DROPIN = VARIANTS[1];

    final BenchOptions o;
    final Metrics m;
    final Path work;
    final List<String> notes = new ArrayList<>();
    private final boolean asked;

    /** {@code asked}: whether the options ask for this scenario at all (when not, it has no section). */
    RealEngineBenchmark(BenchOptions o, Metrics m, Path work, boolean asked) {
        this.o = o;
        this.m = m;
        this.work = work;
        this.asked = asked;
    }

    /** Runs the rounds; returns the report section (markdown), or "" when the scenario is not asked for. */
    final String run() {
        if (!asked) {
            return "";
        }
        if (o.quick || !o.engine) {
            notes.add(skipped());
            return section();
        }
        EngineHarness harness = locate(notes);
        if (harness != null) {
            rounds(harness);
        }
        return section();
    }

    /** The note of a run that {@code --quick} or {@code --no-engine} skips. */
    String skipped() {
        return "Skipped by " + (o.quick ? "`--quick`" : "`--no-engine`") + ".";
    }

    /** The rounds, on the built harness; a failed one is a note. */
    abstract void rounds(EngineHarness harness);

    /** The report section of what {@link Metrics} and the notes hold. */
    abstract String section();

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

    /** The harness's {@code --variants} of the i-th run: stock first on even ones, the drop-in first on odd ones. */
    static String order(int i) {
        return i % 2 == 0 ? "stock,dropin" : "dropin,stock";
    }

    /**
     * Runs the harness's scenario JVM with {@code args} in {@code dir} (its output logged) and hands a result without
     * an error to {@code record}; returns why it failed (naming the logs), what {@code record} returns, or null.
     */
    final String scenario(EngineHarness harness, List<String> args, Path dir, Duration timeout,
                          Function<JsonNode, String> record) {
        return scenario(harness, args, dir, timeout, failure -> failure, record);
    }

    /**
     * {@link #scenario(EngineHarness, List, Path, Duration, Function)}, with the failure of a run stopped by its
     * {@code timeout} worded by {@code timedOut} (given the harness's description).
     */
    final String scenario(EngineHarness harness, List<String> args, Path dir, Duration timeout,
                          UnaryOperator<String> timedOut, Function<JsonNode, String> record) {
        try {
            EngineHarness.Outcome out = harness.run(args, dir, line -> ScenarioBenchmark.log("  %s", line), timeout);
            if (!out.completed()) {
                String failure = out.failure() + " (logs: " + dir + ").";
                return out.timedOut() ? timedOut.apply(failure) : failure;
            }
            return record.apply(out.result());
        } catch (IOException | RuntimeException e) {
            return e + " (logs: " + dir + ").";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted.";
        }
    }

    /**
     * A section: its title, then what {@code body} writes if anything was measured, then each paragraph (the notes,
     * and what else a section says whether or not it measured).
     */
    static String markdown(String title, boolean measured, Consumer<StringBuilder> body, List<String> paragraphs) {
        StringBuilder md = new StringBuilder(title).append("\n\n");
        if (measured) {
            body.accept(md);
        }
        for (String n : paragraphs) {
            md.append(n).append("\n\n");
        }
        return md.toString();
    }

    /**
     * A table row of one figure at one count: its medians under the stock and the drop-in keys (in {@code format}, or
     * "not measured") and, when both are measured and the stock's is positive, their drop-in / stock ratio.
     */
    static void comparison(StringBuilder md, Metrics m, int count, String label, String stockKey, String dropInKey,
                           String format) {
        md.append("| ").append(count).append(" | ").append(label).append(" | ").append(median(m, stockKey, format))
                .append(" | ").append(median(m, dropInKey, format)).append(" | ");
        if (m.has(stockKey) && m.has(dropInKey) && m.median(stockKey) > 0) {
            md.append(String.format(Locale.ROOT, "%.3gx", m.median(dropInKey) / m.median(stockKey)));
        }
        md.append(" |\n");
    }

    private static String median(Metrics m, String key, String format) {
        return m.has(key) ? String.format(Locale.ROOT, format, m.median(key)) : "not measured";
    }
}
