package io.jobinfo.store.it;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.spi.StoreNaming;
import java.io.File;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/** A real HDFS: MiniDFSCluster (one NameNode, one DataNode on 127.0.0.1), started once per test JVM. */
final class HdfsBackend implements Backend {

    private final MiniDFSCluster cluster;
    private final FileSystem raw;
    private final URI uri;

    HdfsBackend() {
        try {
            File base = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "it-hdfs-").toFile();
            Configuration conf = new Configuration();
            conf.setInt("dfs.replication", 1);
            conf.setInt("dfs.heartbeat.interval", 1);
            conf.setInt("dfs.namenode.safemode.extension", 0);
            cluster = new MiniDFSCluster.Builder(conf, base).numDataNodes(1).format(true).build();
            cluster.waitActive();
            uri = cluster.getURI();
            raw = FileSystem.newInstance(uri, cluster.getConfiguration(0));
            Runtime.getRuntime().addShutdownHook(new Thread(() -> cluster.shutdown(true), "stop-minidfs"));
        } catch (Exception e) {
            throw new IllegalStateException("MiniDFSCluster did not start", e);
        }
    }

    @Override
    public String name() {
        return "hdfs";
    }

    @Override
    public JobInfoStorageConfig config(String namespace) {
        return builder(namespace, uri.toString()).build();
    }

    private JobInfoStorageConfig.Builder builder(String namespace, String defaultFs) {
        return JobInfoStorageConfig.builder("hdfs").namespace("/it/" + namespace)
                .option("fs.defaultFS", defaultFs)
                .option("seatunnel.hadoop.dfs.replication", "1");
    }

    private org.apache.hadoop.fs.Path path(String namespace, long jobId) {
        return new org.apache.hadoop.fs.Path("/it/" + namespace + "/" + StoreNaming.blobName(jobId));
    }

    @Override
    public byte[] rawRead(String namespace, long jobId) throws Exception {
        try (FSDataInputStream in = raw.open(path(namespace, jobId))) {
            return in.readAllBytes();
        }
    }

    @Override
    public void rawWrite(String namespace, long jobId, byte[] bytes) throws Exception {
        try (OutputStream out = raw.create(path(namespace, jobId), true)) {
            out.write(bytes);
        }
    }

    @Override
    public void rawDelete(String namespace, long jobId) throws Exception {
        raw.delete(path(namespace, jobId), false);
    }

    @Override
    public InetSocketAddress faultableServer() {
        return new InetSocketAddress("127.0.0.1", cluster.getNameNodePort());
    }

    /**
     * Through the proxy for NameNode RPC (DataNode traffic goes direct, as the NameNode hands out its address), with
     * Hadoop client timeouts and retries cut so that one operation ends within about the deadline.
     */
    @Override
    public JobInfoStorageConfig configThrough(String namespace, InetSocketAddress proxy, int deadlineMillis) {
        int attempt = Math.max(500, deadlineMillis / 4);
        return builder(namespace, "hdfs://" + proxy.getHostString() + ":" + proxy.getPort())
                .option("seatunnel.hadoop.ipc.client.connect.timeout", Integer.toString(attempt))
                .option("seatunnel.hadoop.ipc.client.connect.max.retries", "1")
                .option("seatunnel.hadoop.ipc.client.connect.max.retries.on.timeouts", "1")
                .option("seatunnel.hadoop.ipc.client.connect.retry.interval", "100")
                .option("seatunnel.hadoop.ipc.client.rpc-timeout.ms", Integer.toString(attempt))
                .option("seatunnel.hadoop.ipc.client.ping", "false")
                .option("seatunnel.hadoop.dfs.client.retry.policy.enabled", "false")
                .option("seatunnel.hadoop.dfs.client.socket-timeout", Integer.toString(attempt))
                .option("seatunnel.hadoop.dfs.client.block.write.locateFollowingBlock.retries", "1")
                .option("seatunnel.hadoop.dfs.client.retry.window.base", "100")
                .build();
    }

    @Override
    public String toString() {
        return name();
    }
}
