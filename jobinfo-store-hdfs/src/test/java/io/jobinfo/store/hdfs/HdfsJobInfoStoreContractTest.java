package io.jobinfo.store.hdfs;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.testing.AbstractJobInfoStoreContractTest;
import java.nio.file.Path;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on a real HDFS (MiniDFSCluster), namespace a path under fs.defaultFS. */
class HdfsJobInfoStoreContractTest extends AbstractJobInfoStoreContractTest {

    @TempDir
    static Path base;
    static MiniDFSCluster cluster;

    @BeforeAll
    static void startHdfs() throws Exception {
        cluster = MiniHdfs.start(base.toFile());
    }

    @AfterAll
    static void stopHdfs() {
        if (cluster != null) {
            cluster.shutdown(true);
        }
    }

    @Override
    protected JobInfoStorageConfig storeConfig(String namespaceName) {
        return JobInfoStorageConfig.builder("hdfs").namespace("/seatunnel/jobinfo/" + namespaceName)
                .option("fs.defaultFS", MiniHdfs.uri(cluster))
                .option("seatunnel.hadoop.dfs.replication", "1")
                .build();
    }

    @Override
    protected void overwriteStoredBytes(JobInfoStore store, long jobId, byte[] bytes) throws Exception {
        HdfsJobInfoStore hdfs = (HdfsJobInfoStore) store;
        try (FSDataOutputStream out = cluster.getFileSystem().create(hdfs.path(jobId), true)) {
            out.write(bytes);
        }
    }
}
