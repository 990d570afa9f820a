package io.jobinfo.store.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToDoubleBiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScaleReportTest {

    @TempDir
    Path dir;

    /**
     * A figure of 0 (a heap growth within the noise, as a quick run measured in a fresh-clone CI run) has no place on
     * the chart's log axes: it is left out of its panel instead of failing the whole report (XChart refused it).
     */
    @Test
    void aFigureOfZeroIsLeftOffTheLogChartInsteadOfFailingTheReport() throws Exception {
        BenchOptions o = BenchOptions.parse(new String[] {"--quick"});
        o.scaleJobs = List.of(100, 1000);
        Metrics m = figures(o, (v, n) -> v.equals("local") && n == 100 ? 0 : 1000, (v, n) -> 0);
        new ScaleReport(o, m).chart(dir);
        assertThat(dir.resolve("scale.png")).exists();
        assertThat(Files.size(dir.resolve("scale.png"))).isPositive();
    }

    /**
     * A heap figure below 0 at the smallest count (the live heap after the restore lower than before the kill, in a
     * quick run of the fresh-clone CI) has no growth factor: the table says so instead of printing "n/a" as for a
     * figure that was not measured, and the memory verdict is taken from the factors that exist.
     */
    @Test
    void aNegativeHeapFigureHasNoGrowthFactorAndTheVerdictUsesTheOthers() {
        BenchOptions o = BenchOptions.parse(new String[] {"--quick"});
        o.scaleJobs = List.of(10, 100);
        Metrics m = figures(o, (v, n) -> 1000, (v, n) -> n == 10 ? -48_703 : 600_000);
        ScaleReport report = new ScaleReport(o, m);
        assertThat(report.growthPer10x("inline", "heapRetainedPerJob")).isNaN();
        String md = report.section();
        assertThat(md).doesNotContain("| n/a |").contains("none (a value <= 0)");
        String[] memory = report.summaryRows().stream().filter(r -> r[1].startsWith("memory per job growth"))
                .findFirst().orElseThrow();
        assertThat(memory[2]).isEqualTo(ReportWriter.x(1.0)); // cluster bytes and high-water: flat
        assertThat(memory[6]).isEqualTo(ReportWriter.verdict(true));
    }

    /**
     * The scale scenario runs {@code --scale-rounds} rounds ({@code --rounds} unless given; one round made the growth
     * factor hang on a single restore of the smallest count: 11.06x in one report, 6.3x in a rerun), and the table
     * quotes the median of each figure.
     */
    @Test
    void theScaleScenarioRunsItsRoundsAndTheTableQuotesMedians() {
        assertThat(BenchOptions.parse(new String[] {"--rounds", "3"}).scaleRounds()).isEqualTo(3);
        assertThat(BenchOptions.parse(new String[] {"--rounds", "3", "--scale-rounds", "5"}).scaleRounds())
                .isEqualTo(5);
        assertThat(BenchOptions.parse(new String[] {"--quick"}).scaleRounds()).isEqualTo(1);
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--scale-rounds", "-1"}))
                .hasMessageContaining("--scale-rounds must be 0..50");

        BenchOptions o = BenchOptions.parse(new String[] {"--quick", "--scale-rounds", "3"});
        o.scaleJobs = List.of(10, 100);
        Metrics m = figures(o, (v, n) -> 1000, (v, n) -> 1000);
        for (double slow : new double[] {7_777, 3_333}) { // two more rounds of local at 100 jobs: median 3,333
            m.add(ScaleBenchmark.key("local", 100) + ".restoreMs", "ms", slow);
        }
        String md = new ScaleReport(o, m).section();
        assertThat(md).contains("3 rounds per count").contains("| 3333 ms |").doesNotContain("7777");
    }

    /**
     * Scale figures of the inline and local variants at {@code o}'s counts: flat cluster bytes and submit p99, restore
     * time linear in the count, the heap figures as given.
     */
    private static Metrics figures(BenchOptions o, ToDoubleBiFunction<String, Integer> highWater,
                                   ToDoubleBiFunction<String, Integer> retained) {
        Metrics m = new Metrics();
        for (String v : List.of("inline", "local")) {
            for (int n : o.scaleJobs) {
                String k = ScaleBenchmark.key(v, n);
                m.add(k + ".clusterBytesPerJob", "bytes", v.equals("inline") ? 400_000 : 384);
                m.add(k + ".submitP99", "ms", 5);
                m.add(k + ".restoreMs", "ms", n);
                m.add(k + ".heapHighWaterPerJob", "bytes", highWater.applyAsDouble(v, n));
                m.add(k + ".heapRetainedPerJob", "bytes", retained.applyAsDouble(v, n));
            }
        }
        return m;
    }
}
