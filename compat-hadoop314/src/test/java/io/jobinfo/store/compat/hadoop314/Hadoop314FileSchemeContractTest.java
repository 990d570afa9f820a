package io.jobinfo.store.compat.hadoop314;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.hdfs.HdfsJobInfoStore;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.testing.AbstractJobInfoStoreContractTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole store contract on {@code file://} through the hdfs backend, with SeaTunnel 2.3.8's Hadoop 3.1.4 (the
 * uber jar) as the only Hadoop on the class path. A call into Hadoop API that 3.1.4 lacks fails here with
 * {@code NoSuchMethodError} or {@code NoClassDefFoundError}.
 */
class Hadoop314FileSchemeContractTest extends AbstractJobInfoStoreContractTest {

    @TempDir
    static Path root;

    @Override
    protected JobInfoStorageConfig storeConfig(String namespaceName) {
        return JobInfoStorageConfig.builder("hdfs").namespace("file://" + root + "/" + namespaceName).build();
    }

    @Override
    protected void overwriteStoredBytes(JobInfoStore store, long jobId, byte[] bytes) throws Exception {
        Files.write(Paths.get(((HdfsJobInfoStore) store).path(jobId).toUri()), bytes);
    }
}
