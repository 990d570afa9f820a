package io.jobinfo.store.hdfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hdfs store accepts only file systems whose write-once primitive it knows, and refuses any other at open instead
 * of falling back to a plain rename (which, on most file systems, replaces an existing blob). The refused file
 * systems here are real Hadoop file systems: a local file system registered under a scheme of its own, and
 * {@code viewfs://} mounted on a local directory.
 */
class UnsupportedFileSystemTest {

    /** Hadoop's raw local file system under the scheme {@code jiunknown}: real I/O, an unknown class to the store. */
    public static final class UnknownSchemeFileSystem extends RawLocalFileSystem {
        private static final URI NAME = URI.create("jiunknown:///");

        @Override
        public URI getUri() {
            return NAME;
        }

        @Override
        public String getScheme() {
            return "jiunknown";
        }
    }

    @TempDir
    Path root;

    @Test
    void aFileSystemOfUnknownClassIsRefusedAtOpenNamingSchemeClassAndWhatIsSupported() throws Exception {
        JobInfoStorageConfig cfg = JobInfoStorageConfig.builder("hdfs").namespace("jiunknown://" + root + "/ns")
                .option("seatunnel.hadoop.fs.jiunknown.impl", UnknownSchemeFileSystem.class.getName())
                .option("seatunnel.hadoop.fs.jiunknown.impl.disable.cache", "true")
                .build();
        assertThatThrownBy(() -> JobInfoStores.open(cfg).close())
                .isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining("jiunknown://")
                .hasMessageContaining(UnknownSchemeFileSystem.class.getName())
                .hasMessageContaining("is not supported by the hdfs store")
                .hasMessageContaining("Supported: hdfs://")
                .hasMessageContaining("file://")
                .hasMessageContaining("s3a://")
                .hasMessageContaining("viewfs:// mounted on hdfs://");
        assertThat(Files.exists(root.resolve("ns"))).as("nothing created on a refused file system").isFalse();
    }

    @Test
    void viewfsMountedOnALocalDirectoryIsRefusedAtOpen() throws Exception {
        Path target = Files.createDirectories(root.resolve("target"));
        JobInfoStorageConfig cfg = JobInfoStorageConfig.builder("hdfs").namespace("viewfs://jilocal/jobs/ns")
                .option("seatunnel.hadoop.fs.viewfs.mounttable.jilocal.link./jobs", target.toUri().toString())
                .build();
        assertThatThrownBy(() -> JobInfoStores.open(cfg).close())
                .isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining("resolves to file:")
                .hasMessageContaining("not hdfs://");
    }

    @Test
    void theLocalFileSystemItselfIsStillAccepted() throws Exception {
        JobInfoStorageConfig cfg = JobInfoStorageConfig.builder("hdfs").namespace("file://" + root + "/plain")
                .build();
        try (JobInfoStore store = JobInfoStores.open(cfg)) {
            assertThat(store.toString()).contains("commit=LOCAL_LINK");
        }
    }
}
