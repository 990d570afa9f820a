package io.jobinfo.store.seatunnel.dropin;

import io.jobinfo.store.config.InvalidConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DropInSettingsTest {

    @TempDir
    Path dir;

    /** A local jobinfo-storage section at %s, followed by the engine keys %s (indented 4). */
    static final String LOCAL_SECTION_AND = """
            seatunnel:
              engine:
                jobinfo-storage:
                  type: local
                  namespace: %s
            %s""";

    static Map<?, ?> yaml(String text) {
        return (Map<?, ?>) new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
    }

    @Test
    void aSectionNextToCheckpointIsRead() {
        Properties props = new Properties();
        props.setProperty(DropInSettings.GC_GRACE, "30");
        DropInSettings s = DropInSettings.fromRoot(yaml("""
                seatunnel:
                  engine:
                    checkpoint:
                      interval: 10000
                    jobinfo-storage:
                      type: local
                      namespace: %s
                      cache:
                        max-bytes: 8MiB
                """.formatted(dir)), "seatunnel.yaml", props);
        assertThat(s.storage().type()).isEqualTo("local");
        assertThat(s.storage().namespace()).isEqualTo(dir.toString());
        assertThat(s.storage().cache().maxBytes()).isEqualTo(8L << 20);
        assertThat(s.gcGraceMillis()).isEqualTo(30_000);
        assertThat(s.readTimeoutMillis()).as("a store outage up to 10 minutes across a master switch is waited out")
                .isGreaterThanOrEqualTo(600_000);
        assertThat(s.operationThreadWaitMillis()).isEqualTo(5_000);
        assertThat(s.viewWindowMillis()).isEqualTo(600_000);
        assertThat(s.moveThreads()).isEqualTo(2);
    }

    @Test
    void theModeIsActiveByDefaultAndPassiveWhenConfigured() {
        String section = LOCAL_SECTION_AND;
        assertThat(DropInSettings.fromRoot(yaml(section.formatted(dir, "")), "seatunnel.yaml", new Properties()).mode())
                .isEqualTo(DropInSettings.Mode.ACTIVE);
        assertThat(DropInSettings.fromRoot(yaml(section.formatted(dir, "    jobinfo-dropin:\n      mode: passive\n")),
                "seatunnel.yaml", new Properties()).mode()).isEqualTo(DropInSettings.Mode.PASSIVE);
        assertThat(DropInSettings.fromRoot(yaml(section.formatted(dir, "    jobinfo-dropin:\n      mode: active\n")),
                "seatunnel.yaml", new Properties()).mode()).isEqualTo(DropInSettings.Mode.ACTIVE);
    }

    @Test
    void seaTunnelsTelemetrySwitchIsReadOffByDefault() {
        String section = LOCAL_SECTION_AND;
        assertThat(DropInSettings.fromRoot(yaml(section.formatted(dir, "")), "seatunnel.yaml", new Properties())
                .telemetryMetrics()).isFalse();
        String telemetry = "    telemetry:\n      metric:\n        enabled: %s\n";
        assertThat(DropInSettings.fromRoot(yaml(section.formatted(dir, telemetry.formatted("false"))),
                "seatunnel.yaml", new Properties()).telemetryMetrics()).isFalse();
        assertThat(DropInSettings.fromRoot(yaml(section.formatted(dir, telemetry.formatted("true"))),
                "seatunnel.yaml", new Properties()).telemetryMetrics()).isTrue();
    }

    @Test
    void historyIsOffByDefaultAndNamesTheMapsItMoves() {
        String section = LOCAL_SECTION_AND;
        assertThat(DropInSettings.fromRoot(yaml(section.formatted(dir, "")), "seatunnel.yaml", new Properties())
                .historyMaps()).isEmpty();
        String history = "    jobinfo-dropin:\n      history: %s\n";
        assertThat(DropInSettings.fromRoot(yaml(section.formatted(dir, history.formatted("off"))), "seatunnel.yaml",
                new Properties()).historyMaps()).isEmpty();
        assertThat(DropInSettings.fromRoot(yaml(section.formatted(dir, history.formatted("metrics"))),
                "seatunnel.yaml", new Properties()).historyMaps()).containsExactly("engine_finishedJobMetrics");
        DropInSettings all = DropInSettings.fromRoot(yaml(section.formatted(dir, history.formatted("all"))),
                "seatunnel.yaml", new Properties());
        assertThat(all.historyMaps()).containsExactly("engine_finishedJobMetrics", "engine_finishedJobState",
                "engine_finishedJobVertexInfo");
        assertThat(all.mode()).isEqualTo(DropInSettings.Mode.ACTIVE);
        assertThatThrownBy(() -> DropInSettings.fromRoot(yaml(section.formatted(dir, history.formatted("dag"))),
                "seatunnel.yaml", new Properties()))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("seatunnel.engine.jobinfo-dropin.history: 'dag' is not a choice; use off")
                .hasMessageContaining("metrics (engine_finishedJobMetrics on the store)");
    }

    @Test
    void historyMaxRetainedIsUnboundedByDefaultAndAWholeNumberOfJobsWhenSet() {
        String section = LOCAL_SECTION_AND;
        assertThat(DropInSettings.fromRoot(yaml(section.formatted(dir, "")), "seatunnel.yaml", new Properties())
                .historyMaxRetained()).isEqualTo(Long.MAX_VALUE);
        String bound = "    jobinfo-dropin:\n      history-max-retained: %s\n";
        assertThat(DropInSettings.fromRoot(yaml(section.formatted(dir, bound.formatted("5"))), "seatunnel.yaml",
                new Properties()).historyMaxRetained()).isEqualTo(5);
        assertThat(DropInSettings.fromRoot(yaml(section.formatted(dir, bound.formatted("10_000"))), "seatunnel.yaml",
                new Properties()).historyMaxRetained()).as("written with a separator").isEqualTo(10_000);
        // with history off too: the bound is independent of where the values are kept
        DropInSettings both = DropInSettings.fromRoot(yaml(section.formatted(dir,
                "    jobinfo-dropin:\n      history: off\n      history-max-retained: 3\n")), "seatunnel.yaml",
                new Properties());
        assertThat(both.historyMaps()).isEmpty();
        assertThat(both.historyMaxRetained()).isEqualTo(3);
        for (String bad : new String[] {"0", "-4", "many", "2.5", "100000001", "''"}) {
            assertThatThrownBy(() -> DropInSettings.fromRoot(yaml(section.formatted(dir, bound.formatted(bad))),
                    "seatunnel.yaml", new Properties()))
                    .as(bad)
                    .isInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining("seatunnel.engine.jobinfo-dropin.history-max-retained: '")
                    .hasMessageContaining("is not a number of finished jobs; give a whole number from 1 to 100000000")
                    .hasMessageContaining("or leave the key out for no bound")
                    .hasMessageContaining("(seatunnel.yaml)");
        }
        // listed with every other problem of the section
        assertThatThrownBy(() -> DropInSettings.fromRoot(yaml(section.formatted(dir,
                "    jobinfo-dropin:\n      history: dag\n      history-max-retained: none\n")), "seatunnel.yaml",
                new Properties()))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("jobinfo-dropin.history: 'dag' is not a choice")
                .hasMessageContaining("jobinfo-dropin.history-max-retained: 'none' is not a number");
    }

    @Test
    void aWrongModeIsListedWithEveryOtherProblem() {
        assertThatThrownBy(() -> DropInSettings.fromRoot(yaml("""
                seatunnel:
                  engine:
                    jobinfo-storage:
                      type: local
                    jobinfo-dropin:
                      mode: adopt
                      speed: fast
                """), "seatunnel.yaml", new Properties()))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("jobinfo-storage.namespace")
                .hasMessageContaining("seatunnel.engine.jobinfo-dropin.mode: 'adopt' is not a mode")
                .hasMessageContaining("seatunnel.engine.jobinfo-dropin.speed: unknown key")
                .hasMessageContaining("history-max-retained, history-cache-max-bytes]");
    }

    @Test
    void noSectionRefusesTheMember() {
        assertThatThrownBy(() -> DropInSettings.fromRoot(yaml("""
                seatunnel:
                  engine:
                    checkpoint:
                      interval: 10000
                """), "/etc/seatunnel.yaml", new Properties()))
                .isInstanceOf(DropInRefusedException.class)
                .hasMessageContaining("/etc/seatunnel.yaml has no jobinfo-storage section under seatunnel.engine")
                .hasMessageContaining("remove the jar from every member");
    }

    @Test
    void aSectionAtTheWrongPlaceIsNotTaken() {
        assertThatThrownBy(() -> DropInSettings.fromRoot(yaml("""
                jobinfo-storage:
                  type: local
                  namespace: /tmp/x
                """), "seatunnel.yaml", new Properties()))
                .isInstanceOf(DropInRefusedException.class);
    }

    @Test
    void everyProblemIsListedAtOnce() {
        Properties props = new Properties();
        props.setProperty(DropInSettings.MOVE_THREADS, "none");
        props.setProperty(DropInSettings.SWEEP_INTERVAL, "0");
        assertThatThrownBy(() -> DropInSettings.fromRoot(yaml("""
                seatunnel:
                  engine:
                    jobinfo-storage:
                      type: nfs
                      namespace: /a/../b
                      cache:
                        max-bytes: lots
                """), "seatunnel.yaml", props))
                .isInstanceOfSatisfying(InvalidConfigurationException.class, e -> assertThat(e.problems())
                        .hasSize(5)
                        .anySatisfy(p -> assertThat(p).contains("unknown store type 'nfs'"))
                        .anySatisfy(p -> assertThat(p).contains("path traversal"))
                        .anySatisfy(p -> assertThat(p).contains("cache.max-bytes"))
                        .anySatisfy(p -> assertThat(p).contains("-Djobinfo.dropin.move-threads=none"))
                        .anySatisfy(p -> assertThat(p).contains("-Djobinfo.dropin.sweep-interval-seconds=0")));
    }

    @Test
    void aSectionThatIsNotAMappingIsAProblem() {
        assertThatThrownBy(() -> DropInSettings.fromRoot(yaml("""
                seatunnel:
                  engine:
                    jobinfo-storage: local
                """), "seatunnel.yaml", new Properties()))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("must be a mapping");
    }

    /** A broken seatunnel.yaml: the refusal says where, never what the line holds (it failed before: SnakeYAML's text). */
    @Test
    void aFileThatIsNotYamlIsRefusedWithoutQuotingItsLines() throws Exception {
        String secret = "SECRETVALUE-c0ffee";
        Path file = dir.resolve("seatunnel.yaml");
        java.nio.file.Files.writeString(file, "seatunnel:\n  engine:\n    jobinfo-storage:\n      type: s3\n"
                + "      plugin-config:\n        s3.secret-key: \"" + secret + "\n      namespace: ns\n");
        String before = System.getProperty("seatunnel.config");
        System.setProperty("seatunnel.config", file.toString());
        try {
            assertThatThrownBy(() -> DropInSettings.load(new Properties()))
                    .isInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining(file.toString())
                    .hasMessageContaining("is not valid YAML")
                    .hasMessageContaining("line 6")
                    .hasMessageNotContaining(secret)
                    .hasMessageNotContaining("SECRETVALUE");
        } finally {
            if (before == null) {
                System.clearProperty("seatunnel.config");
            } else {
                System.setProperty("seatunnel.config", before);
            }
        }
    }
}
