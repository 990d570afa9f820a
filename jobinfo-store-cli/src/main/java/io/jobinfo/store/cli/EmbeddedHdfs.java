package io.jobinfo.store.cli;

import io.jobinfo.store.config.JobInfoStorageConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * A real HDFS in this JVM for {@code demo --store hdfs} when no file system is configured: one NameNode and one
 * DataNode (MiniDFSCluster) on 127.0.0.1 over a temporary directory, removed on close.
 */
final class EmbeddedHdfs implements DemoBackend {

    private final Path dir;
    private final MiniDFSCluster cluster;
    private final JobInfoStorageConfig config;

    EmbeddedHdfs() throws Exception {
        dir = Files.createTempDirectory("jobinfo-demo-hdfs-");
        Configuration conf = new Configuration();
        conf.setInt("dfs.replication", 1);
        conf.setInt("dfs.namenode.safemode.extension", 0);
        cluster = new MiniDFSCluster.Builder(conf, dir.toFile()).numDataNodes(1).format(true).build();
        cluster.waitActive();
        config = JobInfoStorageConfig.builder("hdfs").namespace("/seatunnel/jobinfo")
                .option("fs.defaultFS", cluster.getURI().toString())
                .build();
    }

    @Override
    public JobInfoStorageConfig config() {
        return config;
    }

    @Override
    public String describe() {
        return "HDFS " + config.option("fs.defaultFS") + config.namespace() + " (in-JVM MiniDFSCluster)";
    }

    @Override
    public void close() {
        try {
            cluster.shutdown(true);
        } catch (RuntimeException e) {
            System.err.println("stopping the embedded HDFS failed: " + e);
        }
        DemoBackend.deleteRecursively(dir);
    }
}
