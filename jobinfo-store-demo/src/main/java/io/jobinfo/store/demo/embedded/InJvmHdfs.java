package io.jobinfo.store.demo.embedded;

import io.jobinfo.store.config.JobInfoStorageConfig;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * A real HDFS in this JVM, for the demo and the benchmarks: one NameNode and one DataNode (MiniDFSCluster) on
 * 127.0.0.1 over {@code dir}, replication 1. Not for production.
 */
public final class InJvmHdfs implements AutoCloseable {

    private final MiniDFSCluster cluster;
    private final String fsDefaultFs;

    public InJvmHdfs(Path dir) throws Exception {
        Configuration conf = new Configuration();
        conf.setInt("dfs.replication", 1);
        conf.setInt("dfs.namenode.safemode.extension", 0);
        cluster = new MiniDFSCluster.Builder(conf, dir.toFile()).numDataNodes(1).format(true).build();
        cluster.waitActive();
        fsDefaultFs = cluster.getURI().toString();
    }

    /** The URI to give as {@code fs.defaultFS}. */
    public String fsDefaultFs() {
        return fsDefaultFs;
    }

    /** A store configuration for the directory {@code namespace} of this file system. */
    public JobInfoStorageConfig config(String namespace) {
        return JobInfoStorageConfig.builder("hdfs").namespace(namespace).option("fs.defaultFS", fsDefaultFs).build();
    }

    @Override
    public void close() {
        try {
            cluster.shutdown(true);
        } catch (RuntimeException e) {
            System.err.println("stopping the in-JVM HDFS failed: " + e);
        }
    }
}
