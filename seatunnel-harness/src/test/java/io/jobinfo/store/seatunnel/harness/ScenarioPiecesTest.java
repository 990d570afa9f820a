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
import org.junit.jupiter.api.io.TempDir;

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
    void scaleSettingsRefuseBadHeapCheckpointAndSamplesByNameAndJobsGetTheirCheckpointInterval(@TempDir Path dir)
            throws Exception {
        ScenarioSettings s = new ScenarioSettings(3, ScenarioSettings.MAX_JOBS, List.of(JobSize.SMALL),
                List.of(Variant.STOCK), dir, null, Duration.ofSeconds(1), "2g", 30_000, 3);
        assertThat(s.memberHeap()).isEqualTo("2g");
        assertThat(new ScenarioSettings(3, 1, List.of(JobSize.SMALL), List.of(Variant.STOCK), dir, null,
                Duration.ofSeconds(1)).checkpointMillis()).isEqualTo(5000);
        assertThatThrownBy(() -> new ScenarioSettings(3, ScenarioSettings.MAX_JOBS + 1, List.of(JobSize.SMALL),
                List.of(Variant.STOCK), dir, null, Duration.ofSeconds(1))).hasMessageContaining("jobs must be 1..300");
        assertThatThrownBy(() -> new ScenarioSettings(3, 1, List.of(JobSize.SMALL), List.of(Variant.STOCK), dir,
                null, Duration.ofSeconds(1), "2GB", 30_000, 3)).hasMessageContaining("member heap")
                .hasMessageContaining("'2GB'");
        assertThatThrownBy(() -> new ScenarioSettings(3, 1, List.of(JobSize.SMALL), List.of(Variant.STOCK), dir,
                null, Duration.ofSeconds(1), "1g", 10, 3)).hasMessageContaining("checkpoint interval");
        assertThatThrownBy(() -> new ScenarioSettings(3, 1, List.of(JobSize.SMALL), List.of(Variant.STOCK), dir,
                null, Duration.ofSeconds(1), "1g", 30_000, 0)).hasMessageContaining("REST samples");
        assertThat(java.nio.file.Files.readString(FakeJobs.write(dir, "j", 2, 3, true, 30_000)))
                .contains("checkpoint.interval = 30000").contains("t_1").doesNotContain("t_2");
        assertThat(EngineScenarioMain.run(new String[] {"--out", dir.resolve("o.json").toString(), "--work-dir",
            dir.toString(), "--variants", "stock", "--member-heap", "lots"})).isEqualTo(2);
    }

    @Test
    void theStoreOptionsAreRefusedByNameWhereAScenarioCannotUseThem(@TempDir Path dir) throws Exception {
        java.nio.file.Path yaml = java.nio.file.Files.writeString(dir.resolve("s3.yaml"),
                "jobinfo-storage:\n  type: s3\n");
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream saved = System.err;
        System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            assertThat(EngineScenarioMain.run(new String[] {"--out", dir.resolve("o.json").toString(), "--work-dir",
                dir.toString(), "--variants", "stock", "--scenario", "partition-hold", "--imap-persistence", "on"}))
                    .isEqualTo(2);
            assertThat(EngineScenarioMain.run(new String[] {"--out", dir.resolve("o.json").toString(), "--work-dir",
                dir.toString(), "--variants", "stock", "--scenario", "history", "--dropin-store", "s3",
                "--dropin-storage-yaml", yaml.toString()})).isEqualTo(2);
        } finally {
            System.setErr(saved);
        }
        assertThat(err.toString(java.nio.charset.StandardCharsets.UTF_8))
                .contains("--imap-persistence on is for --scenario running only")
                .contains("--imap-persistence on and --dropin-store are for --scenario running and partition-hold"
                        + " only");
        assertThatThrownBy(() -> new PartitionHoldScenario(new ScenarioSettings(3, 3, List.of(JobSize.SMALL),
                List.of(Variant.STOCK), dir, null, Duration.ofSeconds(1), "1g", 30_000, 1), 5,
                new ScaleOptions(true, "local", null), System.err))
                .hasMessageContaining("runs without IMap persistence");
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
