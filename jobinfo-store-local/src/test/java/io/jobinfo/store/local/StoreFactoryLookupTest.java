package io.jobinfo.store.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.config.InvalidConfigurationException;
import io.jobinfo.store.spi.JobInfoStoreFactory;
import io.jobinfo.store.spi.JobInfoStores;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store factory that cannot be loaded (its provider names a class the class path lacks, as a backend jar without
 * its libraries would) hides no other factory, and asking for its type names it. Before, the lookup threw
 * ServiceConfigurationError for every type. The broken provider is a services file of the test's own (no real jar
 * fails this way on demand); the real case, the hdfs store without Hadoop, is the release bundle's BundleTest.
 */
class StoreFactoryLookupTest {

    @Test
    void aProviderThatCannotBeLoadedHidesNoOtherAndIsNamed(@TempDir Path dir) throws Exception {
        Path services = Files.createDirectories(dir.resolve("META-INF/services"));
        Files.writeString(services.resolve(JobInfoStoreFactory.class.getName()), "io.jobinfo.store.nowhere.NoSuchFactory\n");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()},
                StoreFactoryLookupTest.class.getClassLoader())) {
            assertThat(JobInfoStores.factories(loader)).containsKey("local");
            assertThat(JobInfoStores.factory("local", loader)).isInstanceOf(LocalJobInfoStoreFactory.class);
            assertThatThrownBy(() -> JobInfoStores.factory("hdfs", loader))
                    .isInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining("unknown store type 'hdfs'")
                    .hasMessageContaining("could not be loaded here")
                    .hasMessageContaining("io.jobinfo.store.nowhere.NoSuchFactory");
        }
    }
}
