package io.jobinfo.store.hdfs;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/** Starts a real HDFS (one NameNode, one DataNode on 127.0.0.1) for one test class. */
final class MiniHdfs {

    private MiniHdfs() {
    }

    static MiniDFSCluster start(File baseDir) throws IOException {
        Configuration conf = new Configuration();
        conf.setInt("dfs.replication", 1);
        conf.setInt("dfs.heartbeat.interval", 1);
        conf.setBoolean("dfs.permissions.enabled", true);
        conf.setInt("dfs.namenode.safemode.extension", 0);
        return new MiniDFSCluster.Builder(conf, baseDir).numDataNodes(1).format(true).build();
    }

    /** The URI clients use as fs.defaultFS. */
    static String uri(MiniDFSCluster cluster) {
        return cluster.getURI().toString();
    }
}
