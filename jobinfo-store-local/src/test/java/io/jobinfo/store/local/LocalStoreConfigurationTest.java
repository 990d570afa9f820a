package io.jobinfo.store.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.config.InvalidConfigurationException;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

class LocalStoreConfigurationTest {

    @TempDir
    Path dir;

    private static Map<?, ?> yaml(String text) {
        return new Yaml().load(text);
    }

    @Test
    void coreAndBackendProblemsAreReportedTogether() {
        assertThatThrownBy(() -> JobInfoStores.open(yaml("""
                jobinfo-storage:
                  type: local
                  namespace: relative/dir
                  cache: { max-bytes: much }
                  plugin-config:
                    local.fsync: sometimes
                    local.fsnyc: true
                """)))
                .isInstanceOfSatisfying(InvalidConfigurationException.class, e -> assertThat(e.problems())
                        .hasSize(4)
                        .anyMatch(p -> p.startsWith("jobinfo-storage.cache.max-bytes"))
                        .anyMatch(p -> p.contains("must be an absolute directory"))
                        .anyMatch(p -> p.contains("local.fsync") && p.contains("true or false"))
                        .anyMatch(p -> p.contains("local.fsnyc") && p.contains("known options")));
    }

    @Test
    void aWriteTimeoutThatIsNoDurationIsNamedWithTheFormsAccepted() {
        assertThatThrownBy(() -> JobInfoStores.open(yaml("""
                jobinfo-storage:
                  type: local
                  namespace: %s
                  plugin-config:
                    local.write-timeout: soon
                """.formatted(dir.resolve("blobs")))))
                .isInstanceOfSatisfying(InvalidConfigurationException.class, e -> assertThat(e.problems())
                        .singleElement().asString().contains("local.write-timeout").contains("soon")
                        .contains("30s"));
        assertThat(Files.exists(dir.resolve("blobs"))).as("nothing created").isFalse();
    }

    @Test
    void anUnknownTypeNamesTheKnownOnes() {
        assertThatThrownBy(() -> JobInfoStores.open(yaml("""
                jobinfo-storage:
                  type: tape
                  namespace: /x
                """)))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("unknown store type 'tape'").hasMessageContaining("local");
    }

    @Test
    void aNamespaceThatIsAFileFailsAtStartUp() throws Exception {
        Path file = Files.writeString(dir.resolve("not-a-dir"), "x");
        assertThatThrownBy(() -> JobInfoStores.open(yaml("""
                jobinfo-storage:
                  type: local
                  namespace: %s
                """.formatted(file))))
                .isInstanceOf(JobInfoStoreException.class).hasMessageContaining(file.toUri().toString());
    }

    @Test
    void opensFromAMapAndFromYaml() throws Exception {
        try (JobInfoStore store = JobInfoStores.open(yaml("""
                jobinfo-storage:
                  type: local
                  namespace: %s
                  store-id: site-a
                """.formatted(dir.resolve("blobs"))))) {
            assertThat(store.type()).isEqualTo("local");
            assertThat(store.storeId()).isEqualTo("site-a");
            assertThat(Files.isDirectory(dir.resolve("blobs"))).isTrue();
        }
    }

    @Test
    void derivedStoreIdsDifferPerDirectoryAndAreStable() throws Exception {
        try (JobInfoStore a = LocalJobInfoStore.open(dir.resolve("a"), null, true, true);
             JobInfoStore a2 = LocalJobInfoStore.open(dir.resolve("a"), null, true, true);
             JobInfoStore b = LocalJobInfoStore.open(dir.resolve("b"), null, true, true)) {
            assertThat(a.storeId()).isEqualTo(a2.storeId()).isNotEqualTo(b.storeId()).hasSize(8);
        }
    }
}
