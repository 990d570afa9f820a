package io.jobinfo.store.seatunnel.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.seatunnel.harness.ScenarioSettings.Variant;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The scenario's pieces that need no cluster (the scenario itself runs in seatunnel-it's EngineDemoCommandTest):
 * sizes and settings refuse bad input by name, the sizes take turns, medians and percentiles, and the JSON the CLI
 * and the benchmarks read.
 */
class ScenarioPiecesTest {

    @Test
    void sizesParseAndTakeTurnsAndBadInputIsNamed() {
        assertThat(JobSize.parseList(" Large,small,large ")).containsExactly(JobSize.LARGE, JobSize.SMALL);
        assertThatThrownBy(() -> JobSize.parseList("small,huge")).hasMessageContaining("unknown job size 'huge'")
                .hasMessageContaining("medium (~200 KB)");
        assertThatThrownBy(() -> JobSize.parseList(" , ")).hasMessageContaining("no job size given");
        ScenarioSettings s = new ScenarioSettings(3, 5, List.of(JobSize.SMALL, JobSize.LARGE), List.of(Variant.STOCK),
                Path.of("w"), null, Duration.ofSeconds(1));
        assertThat(List.of(s.sizeOf(0), s.sizeOf(1), s.sizeOf(2))).containsExactly(JobSize.SMALL, JobSize.LARGE,
                JobSize.SMALL);
        assertThatThrownBy(() -> new ScenarioSettings(3, 1, List.of(JobSize.SMALL), List.of(Variant.DROPIN),
                Path.of("w"), null, Duration.ofSeconds(1))).hasMessageContaining("plugin jar");
        assertThatThrownBy(() -> new ScenarioSettings(1, 1, List.of(JobSize.SMALL), List.of(Variant.STOCK),
                Path.of("w"), null, Duration.ofSeconds(1))).hasMessageContaining("members must be 2..7");
        assertThatThrownBy(() -> Variant.parse("flink")).hasMessageContaining("unknown variant 'flink'");
    }

    @Test
    void mediansPerSizeAndNearestRankPercentiles() {
        List<Map<String, Object>> jobs = List.of(job("small", 20_000), job("small", 20_400), job("small", 20_100),
                job("large", 3_309_042));
        Map<String, Object> by = EngineScenario.bySize(jobs);
        assertThat(by).containsOnlyKeys("small", "large");
        assertThat(((Map<?, ?>) by.get("small")).get("medianOwnedPlusBackupBytes")).isEqualTo(20_100L);
        assertThat(((Map<?, ?>) by.get("small")).get("jobs")).isEqualTo(3);
        double[] ms = {5, 1, 4, 2, 3};
        assertThat(EngineScenario.percentile(ms, 0.5)).isEqualTo(3);
        assertThat(EngineScenario.percentile(ms, 0.99)).isEqualTo(5);
    }

    @Test
    void jsonEscapesAndNestsAndWritesNoNaN() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("s", "a\"b\\c\nd\u0001");
        m.put("n", 3L);
        m.put("d", Double.NaN);
        m.put("l", List.of(1, Map.of()));
        m.put("z", null);
        String json = Json.write(m);
        assertThat(json).contains("\"s\": \"a\\\"b\\\\c\\nd\\u0001\"", "\"n\": 3", "\"d\": null", "\"z\": null", "{}");
    }

    private static Map<String, Object> job(String size, long bytes) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("size", size);
        m.put("ownedPlusBackupBytes", bytes);
        m.put("mapValueBytes", bytes / 2);
        return m;
    }
}
