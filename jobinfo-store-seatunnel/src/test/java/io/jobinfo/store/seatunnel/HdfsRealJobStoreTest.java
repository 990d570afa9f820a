package io.jobinfo.store.seatunnel;

import io.jobinfo.store.config.JobInfoStorageConfig;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** Real SeaTunnel jobs on the Hadoop store over a real HDFS (one MiniDFSCluster for the class). */
class HdfsRealJobStoreTest extends AbstractRealJobStoreTest {

    @TempDir
    static Path base;
    static MiniDFSCluster cluster;

    @BeforeAll
    static void startHdfs() throws Exception {
        Configuration conf = new Configuration();
        conf.setInt("dfs.replication", 1);
        conf.setInt("dfs.heartbeat.interval", 1);
        conf.setInt("dfs.namenode.safemode.extension", 0);
        cluster = new MiniDFSCluster.Builder(conf, base.toFile()).numDataNodes(1).format(true).build();
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
                .option("fs.defaultFS", cluster.getURI().toString())
                .option("seatunnel.hadoop.dfs.replication", "1")
                .build();
    }
}
