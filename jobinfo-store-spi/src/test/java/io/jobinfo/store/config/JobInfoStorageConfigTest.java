package io.jobinfo.store.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobInfoStorageConfigTest {

    @Test
    void readsTheSectionFromYaml() {
        JobInfoStorageConfig c = JobInfoStorageConfig.fromYaml("""
                jobinfo-storage:
                  type: s3
                  namespace: /seatunnel/jobinfo
                  store-id: prod-a
                  cache: { max-bytes: 64MiB, max-entry-bytes: 8MiB, expire-after-access: PT10M }
                  plugin-config:
                    s3.bucket: jobinfo
                    s3.endpoint: http://127.0.0.1:9000
                    s3.path-style-access: true
                """);
        assertThat(c.type()).isEqualTo("s3");
        assertThat(c.namespace()).isEqualTo("/seatunnel/jobinfo");
        assertThat(c.storeId()).isEqualTo("prod-a");
        assertThat(c.cache()).isEqualTo(CacheConfig.of(64L << 20, 8L << 20, Duration.ofMinutes(10)));
        assertThat(c.pluginConfig()).containsEntry("s3.bucket", "jobinfo")
                .containsEntry("s3.path-style-access", "true");
    }

    @Test
    void findsTheSectionNestedUnderAnEngineSection() {
        JobInfoStorageConfig c = JobInfoStorageConfig.fromYaml("""
                seatunnel:
                  engine:
                    jobinfo-storage:
                      type: local
                      namespace: /data/jobinfo
                """);
        assertThat(c.type()).isEqualTo("local");
        assertThat(c.cache()).isEqualTo(CacheConfig.defaults());
    }

    @Test
    void readsTheCacheStalenessBound() {
        JobInfoStorageConfig c = JobInfoStorageConfig.fromYaml("""
                jobinfo-storage:
                  type: local
                  namespace: /data/jobinfo
                  cache: { max-staleness: 2s }
                """);
        assertThat(c.cache().maxStaleness()).isEqualTo(Duration.ofSeconds(2));
        assertThat(CacheConfig.defaults().maxStaleness()).isEqualTo(Duration.ofSeconds(5));
        assertThatThrownBy(() -> JobInfoStorageConfig.fromYaml("""
                jobinfo-storage:
                  type: local
                  namespace: /data/jobinfo
                  cache: { max-staleness: -PT1S }
                """)).isInstanceOfSatisfying(InvalidConfigurationException.class, e -> assertThat(e.problems())
                        .anyMatch(p -> p.startsWith("jobinfo-storage.cache.max-staleness") && p.contains("negative")));
        assertThatThrownBy(() -> JobInfoStorageConfig.fromYaml("""
                jobinfo-storage:
                  type: local
                  namespace: /data/jobinfo
                  cache: { max-staleness: soon }
                """)).isInstanceOfSatisfying(InvalidConfigurationException.class, e -> assertThat(e.problems())
                        .anyMatch(p -> p.startsWith("jobinfo-storage.cache.max-staleness") && p.contains("soon")));
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        assertThatThrownBy(() -> JobInfoStorageConfig.fromYaml("""
                jobinfo-storage:
                  namespace: ../../etc
                  store-id: "has spaces and is far too long"
                  cahce: {}
                  cache: { max-bytes: lots, max-entry-bytes: -1, expire-after-access: soon, size: 3 }
                  plugin-config:
                    nested: { a: 1 }
                """))
                .isInstanceOfSatisfying(InvalidConfigurationException.class, e -> assertThat(e.problems())
                        .anyMatch(p -> p.startsWith("jobinfo-storage.type: missing"))
                        .anyMatch(p -> p.contains("namespace") && p.contains("traversal"))
                        .anyMatch(p -> p.startsWith("jobinfo-storage.store-id"))
                        .anyMatch(p -> p.startsWith("jobinfo-storage.cahce: unknown key"))
                        .anyMatch(p -> p.startsWith("jobinfo-storage.cache.max-bytes") && p.contains("lots"))
                        .anyMatch(p -> p.startsWith("jobinfo-storage.cache.max-entry-bytes"))
                        .anyMatch(p -> p.startsWith("jobinfo-storage.cache.expire-after-access") && p.contains("30s, 5m"))
                        .anyMatch(p -> p.startsWith("jobinfo-storage.cache.size: unknown key"))
                        .anyMatch(p -> p.startsWith("jobinfo-storage.plugin-config.nested")))
                .hasMessageStartingWith("Invalid jobinfo-storage configuration (9 problems)");
    }

    @Test
    void sizesAreWholeNumbersThatFitAndDurationsUseTheOneSyntax() {
        assertThatThrownBy(() -> JobInfoStorageConfig.fromYaml("""
                jobinfo-storage:
                  type: local
                  namespace: /a
                  cache: { max-bytes: 1.5, max-entry-bytes: 99999999999999999999999, expire-after-access: 90 }
                """))
                .isInstanceOfSatisfying(InvalidConfigurationException.class, e -> assertThat(e.problems())
                        .anyMatch(p -> p.startsWith("jobinfo-storage.cache.max-bytes") && p.contains("whole number"))
                        .anyMatch(p -> p.startsWith("jobinfo-storage.cache.max-entry-bytes") && p.contains("too large"))
                        .anyMatch(p -> p.startsWith("jobinfo-storage.cache.expire-after-access") && p.contains("no unit"))
                        .hasSize(3));
        JobInfoStorageConfig c = JobInfoStorageConfig.fromYaml(
                "jobinfo-storage: {type: local, namespace: /a, cache: {max-bytes: 128MiB, expire-after-access: 1h30m}}");
        assertThat(c.cache().maxBytes()).isEqualTo(128L << 20);
        assertThat(c.cache().expireAfterAccess()).isEqualTo(java.time.Duration.ofMinutes(90));
    }

    @Test
    void yamlNeverInstantiatesClasses() {
        assertThatThrownBy(() -> JobInfoStorageConfig.fromYaml(
                "jobinfo-storage: !!javax.script.ScriptEngineManager [!!java.net.URLClassLoader [[!!java.net.URL"
                        + " [\"http://127.0.0.1:1/\"]]]]"))
                .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("is not allowed");
    }

    @Test
    void theCallersMapIsNeitherKeptNorModified() {
        Map<String, Object> plugin = new LinkedHashMap<>(Map.of("s3.bucket", "a"));
        Map<String, Object> section = new HashMap<>(Map.of("type", "s3", "namespace", "p", "plugin-config", plugin));
        JobInfoStorageConfig c = JobInfoStorageConfig.fromMap(section);
        plugin.put("s3.bucket", "changed");
        assertThat(c.option("s3.bucket")).isEqualTo("a");
        assertThat(section).hasSize(3);
        assertThatThrownBy(() -> c.pluginConfig().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void toStringHidesPluginConfigValues() {
        JobInfoStorageConfig c = JobInfoStorageConfig.builder("s3").namespace("p")
                .option("s3.secret-key", "SUPERSECRET").build();
        assertThat(c.toString()).contains("s3.secret-key").doesNotContain("SUPERSECRET");
    }

    @Test
    void byteSizesAcceptCommonForms() {
        assertThat(ByteSize.parse("64MiB")).isEqualTo(64L << 20);
        assertThat(ByteSize.parse("512 KB")).isEqualTo(512L << 10);
        assertThat(ByteSize.parse("1g")).isEqualTo(1L << 30);
        assertThat(ByteSize.parse("4096")).isEqualTo(4096);
        assertThat(ByteSize.parse(7)).isEqualTo(7);
        assertThatThrownBy(() -> ByteSize.parse("-5MiB")).hasMessageContaining("64MiB");
    }
}
