package io.jobinfo.store.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report section of the real SeaTunnel scenario from figures in {@link Metrics} (the scenario itself runs in
 * seatunnel-it's EngineDemoCommandTest and in the full report): medians, drop-in/stock ratios, figures no round
 * measured said so, and {@code --quick} / {@code --no-engine} skipping it with a sentence.
 */
class SeaTunnelEngineSectionTest {

    @Test
    void medianAcrossRoundsAndRatioDropInOverStock() {
        Metrics m = new Metrics();
        for (double[] round : new double[][] {{3_309_042, 424, 100, 50}, {3_309_050, 424, 300, 70},
            {3_309_046, 424, 200, 60}}) {
            m.add("engine.stock.bytes.large", "B", round[0]);
            m.add("engine.dropin.bytes.large", "B", round[1]);
            m.add("engine.stock.killToAllRunning", "ms", round[2]);
            m.add("engine.dropin.killToAllRunning", "ms", round[3]);
        }
        String md = SeaTunnelEngineSection.markdown(m, 3, 3, 3, List.of("a note"));
        assertThat(md).startsWith(SeaTunnelEngineSection.TITLE)
                .contains("| `engine_runningJobInfo` bytes per job, ~1.8 MB (owned + backup) | 3309046 | 424 | 0.000128x |")
                .contains("| kill -9 master -> every job RUNNING again (ms) | 200 | 60 | 0.300x |")
                .contains("| `engine_runningJobInfo` bytes per job, ~10 KB (owned + backup) | not measured | not measured | |")
                .contains("a note");
    }

    @Test
    void quickAndNoEngineSkipTheScenarioAndSaySo(@TempDir Path work) {
        String quick = new SeaTunnelEngineBenchmark(BenchOptions.parse(new String[] {"report", "--quick"}),
                new Metrics(), work).run();
        assertThat(quick).contains(SeaTunnelEngineSection.TITLE).contains("Skipped by `--quick`")
                .doesNotContain("| figure |");
        String none = new SeaTunnelEngineBenchmark(BenchOptions.parse(new String[] {"report", "--no-engine"}),
                new Metrics(), work).run();
        assertThat(none).contains("Skipped by `--no-engine`.");
    }
}
