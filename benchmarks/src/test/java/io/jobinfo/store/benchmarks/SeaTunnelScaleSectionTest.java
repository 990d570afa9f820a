package io.jobinfo.store.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobinfo.store.benchmarks.EngineScaleFigures.Figure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pieces of the real-engine scale scenario that need no cluster (the scenario runs in the full report and in
 * {@code benchmarks.jar engine-scale}): its options refuse bad input by name, the figures read from the harness's
 * JSON, growth per 10x jobs, and the section (stock and drop-in side by side per count with their ratio, the growth
 * table, where it stopped) and its chart.
 */
class SeaTunnelScaleSectionTest {

    @Test
    void optionsDefaultToAtLeast100JobsAndRefuseBadInputByName() {
        BenchOptions d = BenchOptions.parse(new String[] {"report"});
        assertThat(d.engineScale).containsExactly(10, 30, 100);
        assertThat(d.engineScaleRounds()).isEqualTo(3);
        BenchOptions o = BenchOptions.parse(new String[] {"report", "--engine-scale", " 10, 300 ",
            "--engine-scale-rounds", "1", "--engine-member-heap", "2g"});
        assertThat(o.engineScale).containsExactly(10, 300);
        assertThat(o.engineScaleRounds()).isEqualTo(1);
        assertThat(o.engineMemberHeap).isEqualTo("2g");
        assertThat(BenchOptions.parse(new String[] {"report", "--engine-scale", "none"}).engineScale).isEmpty();
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"report", "--engine-scale", "10,ten"}))
                .hasMessageContaining("--engine-scale: 'ten' is not a whole number");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"report", "--engine-scale", "30,10"}))
                .hasMessageContaining("--engine-scale must be increasing");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"report", "--engine-scale", "10,400"}))
                .hasMessageContaining("--engine-scale must list values in 1..300");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"report", "--engine-member-heap", "1gb"}))
                .hasMessageContaining("--engine-member-heap must be a java -Xmx size").hasMessageContaining("'1gb'");
    }

    @Test
    void growthPer10xIsThePowerOfTheDecadesBetweenTheFirstAndLastMeasuredCount() {
        assertThat(EngineScaleFigures.growthPer10x(List.of(10, 100), List.of(5.0, 50.0))).isCloseTo(10, within(1e-9));
        assertThat(EngineScaleFigures.growthPer10x(List.of(10, 30, 1000), List.of(2.0, Double.NaN, 200.0)))
                .isCloseTo(10, within(1e-9));
        assertThat(EngineScaleFigures.growthPer10x(List.of(10, 30, 100), List.of(7.0, 7.0, 7.0)))
                .isCloseTo(1, within(1e-9));
        // 3x over half a decade (10 -> 31.6) is 9x per decade
        assertThat(EngineScaleFigures.growthPer10x(List.of(10, 30), List.of(1.0, 3.0)))
                .isCloseTo(Math.pow(3, 1 / Math.log10(3)), within(1e-9));
        assertThat(EngineScaleFigures.growthPer10x(List.of(10, 30, 100), List.of(1.0, Double.NaN, Double.NaN)))
                .isNaN();
        assertThat(EngineScaleFigures.growthPer10x(List.of(10, 30), List.of(0.0, 3.0))).isNaN();
    }

    @Test
    void figuresReadFromTheHarnessJsonTakeTheMastersHeapAndLeaveMissingOnesOut() throws Exception {
        String json = """
                {"mapBytesPerJob": 1234, "liveHeapBytes": 314572800, "liveHeapBytesPerJob": 2048,
                 "liveHeap": [{"member": 1, "master": false, "liveHeapBytes": 1048576},
                              {"member": 0, "master": true, "liveHeapBytes": 3145728}],
                 "submitP50Millis": 250.5, "submitP99Millis": 900.0,
                 "masterKill": {"killToAllRunningMillis": null},
                 "rest": {"runningJobsP50Millis": 12.5, "jobInfoP50Millis": 3.0}}""";
        Map<Figure, Double> f = EngineScaleFigures.of(new ObjectMapper().readTree(json));
        assertThat(f).containsEntry(Figure.MAP_BYTES_PER_JOB, 1234.0).containsEntry(Figure.LIVE_HEAP, 300.0)
                .containsEntry(Figure.MASTER_LIVE_HEAP, 3.0).containsEntry(Figure.LIVE_HEAP_PER_JOB, 2.0)
                .containsEntry(Figure.SUBMIT_P99, 900.0).containsEntry(Figure.REST_RUNNING_JOBS, 12.5)
                .doesNotContainKeys(Figure.KILL_TO_ALL_RUNNING, Figure.REST_JOB_INFO_P99);
    }

    @Test
    void sectionSetsStockAndDropInSideBySidePerCountWithRatioGrowthAndWhereItStopped(@TempDir Path dir)
            throws Exception {
        Metrics m = new Metrics();
        for (double round : new double[] {0.9, 1.0, 1.1}) {
            put(m, "stock", 10, Figure.MAP_BYTES_PER_JOB, 1_200_000 * round);
            put(m, "dropin", 10, Figure.MAP_BYTES_PER_JOB, 450 * round);
            put(m, "stock", 10, Figure.LIVE_HEAP, 100 * round);
            put(m, "dropin", 10, Figure.LIVE_HEAP, 80 * round);
            put(m, "stock", 100, Figure.LIVE_HEAP, 1000 * round);
            put(m, "dropin", 100, Figure.LIVE_HEAP, 120 * round);
        }
        m.add("engineScale.minutes.10", "min", 2.0);
        m.add("engineScale.minutes.100", "min", 9.5);
        BenchOptions o = BenchOptions.parse(new String[] {"report", "--engine-scale", "10,100,300"});
        String md = SeaTunnelScaleSection.markdown(m, List.of(10, 100), 3, o,
                List.of("Round 1 stopped before 300 jobs: budget."));
        assertThat(md).startsWith(SeaTunnelScaleSection.TITLE)
                .contains("| 10 | `engine_runningJobInfo` bytes per job (owned + backup) | 1200000 | 450 | 0.000375x |")
                .contains("| 100 | live heap after full GC, all members (MiB) | 1000.0 | 120.0 | 0.120x |")
                .contains("| 100 | `engine_runningJobInfo` bytes per job (owned + backup) | not measured |"
                        + " not measured |  |")
                .contains("| live heap after full GC, all members (MiB) | 10.00x | 1.50x |")
                .contains("| submit p50 (ms) | n/a | n/a |")
                .contains("10 jobs 2.0 min; 100 jobs 9.5 min.")
                .contains("Round 1 stopped before 300 jobs: budget.")
                .contains("![real SeaTunnel 2.3.8 at scale](" + SeaTunnelScaleSection.CHART + ")");
        SeaTunnelScaleSection.chart(m, List.of(10, 100), dir);
        byte[] png = Files.readAllBytes(dir.resolve(SeaTunnelScaleSection.CHART));
        assertThat(png).hasSizeGreaterThan(1000);
        assertThat(new String(png, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }

    @Test
    void aRunThatStopsAtTheDefaultCountsSaysSoAndQuickSkipsIt(@TempDir Path work) {
        Metrics m = new Metrics();
        put(m, "stock", 100, Figure.SUBMIT_P50, 300);
        put(m, "dropin", 100, Figure.SUBMIT_P50, 330);
        String md = SeaTunnelScaleSection.markdown(m, List.of(100), 1, BenchOptions.parse(new String[] {"report"}),
                List.of());
        assertThat(md).contains("| 100 | submit p50 (ms) | 300 | 330 | 1.10x |")
                .contains("Stopped at 100 jobs: larger counts were not asked for").doesNotContain("Growth per 10x");
        String quick = new SeaTunnelScaleBenchmark(BenchOptions.parse(new String[] {"report", "--quick"}), m, work)
                .run();
        assertThat(quick).startsWith(SeaTunnelScaleSection.TITLE).contains("Skipped by `--quick`.")
                .doesNotContain("| jobs |");
        assertThat(new SeaTunnelScaleBenchmark(BenchOptions.parse(new String[] {"report", "--engine-scale", "none"}),
                m, work).run()).isEmpty();
    }

    private static void put(Metrics m, String variant, int count, Figure f, double v) {
        m.add(SeaTunnelScaleBenchmark.key(variant, count, f), f.unit, v);
    }
}
