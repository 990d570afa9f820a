package io.jobinfo.store.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link JobInfoStorageConfig.Builder} takes each property once; options stay a map. */
class JobInfoStorageConfigBuilderSetOnceTest {

    @Test
    void aSecondNamespaceFailsNamingIt() {
        JobInfoStorageConfig.Builder b = JobInfoStorageConfig.builder("local").namespace("/a");
        assertThatThrownBy(() -> b.namespace("/b")).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("JobInfoStorageConfig.Builder: namespace is already set to '/a';");
        assertThat(b.build().namespace()).isEqualTo("/a");
    }

    @Test
    void aSecondStoreIdFailsNamingIt() {
        JobInfoStorageConfig.Builder b = JobInfoStorageConfig.builder("local").namespace("/a").storeId("one");
        assertThatThrownBy(() -> b.storeId("two")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("storeId");
    }

    @Test
    void eachCacheSettingIsSetOnce() {
        JobInfoStorageConfig.Builder b = JobInfoStorageConfig.builder("local").namespace("/a")
                .cacheMaxBytes(1 << 20).cacheMaxEntryBytes(1 << 10);
        assertThatThrownBy(() -> b.cacheMaxBytes(2 << 20)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cacheMaxBytes is already set to 1048576;");
        assertThatThrownBy(() -> b.cacheMaxEntryBytes(2 << 10)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cacheMaxEntryBytes");
        assertThat(b.build().cache().maxBytes()).isEqualTo(1 << 20);
    }

    @Test
    void eachBackendOptionIsSetOnceAndTheMessageNamesTheKeyNeverAValue() {
        JobInfoStorageConfig.Builder b = JobInfoStorageConfig.builder("s3").namespace("a")
                .option("s3.bucket", "b").option("s3.secret-key", "first-secret-value");
        assertThatThrownBy(() -> b.option("s3.secret-key", "second-secret-value"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("option 's3.secret-key' is already set")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret-value"));
        assertThatThrownBy(() -> b.options(java.util.Collections.singletonMap("s3.bucket", "other")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("'s3.bucket'");
        assertThat(b.build().pluginConfig()).containsEntry("s3.secret-key", "first-secret-value")
                .containsEntry("s3.bucket", "b");
    }
}
