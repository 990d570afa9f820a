package io.jobinfo.store.hdfs;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.testing.AbstractJobInfoStoreContractTest;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store contract on {@code file://} through Hadoop's local file system: the namespace is a full URI, and
 * write-once rests on a hard link (Hadoop's local rename would replace an existing file).
 */
class FileSchemeJobInfoStoreContractTest extends AbstractJobInfoStoreContractTest {

    @TempDir
    static Path root;

    @Override
    protected JobInfoStorageConfig storeConfig(String namespaceName) {
        return JobInfoStorageConfig.builder("hdfs").namespace("file://" + root + "/" + namespaceName).build();
    }

    @Override
    protected void overwriteStoredBytes(JobInfoStore store, long jobId, byte[] bytes) throws Exception {
        HdfsJobInfoStore local = (HdfsJobInfoStore) store;
        Files.write(Path.of(local.path(jobId).toUri()), bytes);
    }
}
