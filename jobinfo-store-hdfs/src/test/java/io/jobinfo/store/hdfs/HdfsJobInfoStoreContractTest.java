package io.jobinfo.store.hdfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.testing.AbstractJobInfoStoreContractTest;
import java.nio.file.Path;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store contract on a real HDFS (MiniDFSCluster), namespace a path under fs.defaultFS; and what one create costs
 * HDFS, counted by HDFS itself.
 */
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

    /**
     * What one blob create costs HDFS, counted by HDFS itself (the DataNode's metrics and the NameNode's edit log, a real
     * MiniDFSCluster): the DataNode syncs the block to disk before the create returns (durability: a blob named by a
     * pointer survives a power cut of the DataNode), and the NameNode writes six edits in four calls, each call one
     * edit-log sync: create; add block (the block's id, its generation stamp, the block); complete; rename. An
     * {@code hsync} before the close syncs the block too, but costs a fifth call, the NameNode {@code fsync} that the
     * first hsync of a new block makes (a seventh edit, measured at 7 with the hsync), and one more pipeline round trip;
     * the store asks for the sync on close instead ({@code CreateFlag.SYNC_BLOCK}).
     */
    @Test
    void aCreateSyncsTheBlockOnTheDataNodeAndJournalsSixNameNodeEditsWithoutAnFsync() throws Exception {
        try (JobInfoStore store = open("durable")) {
            store.create(1, BlobSource.ofBytes(BlobEnvelope.wrap(1, 1, new byte[10_000]))); // warm the client
            long fewestEdits = Long.MAX_VALUE;
            for (int round = 0; round < 3; round++) { // the fewest of three: another edit may land in one
                long jobId = 100 + round;
                long fsyncs = dataNodeCounter("FsyncCount");
                long edits = nameNodeTransactions();
                store.create(jobId, BlobSource.ofBytes(BlobEnvelope.wrap(jobId, 1, new byte[200_000])));
                assertThat(dataNodeCounter("FsyncCount") - fsyncs)
                        .as("DataNode syncs of the block of job %d before its create returned", jobId)
                        .isGreaterThanOrEqualTo(1);
                fewestEdits = Math.min(fewestEdits, nameNodeTransactions() - edits);
            }
            assertThat(fewestEdits).as("NameNode edit-log transactions of one create: create, block id, generation"
                    + " stamp, add block, close, rename (no fsync's update of the blocks)").isEqualTo(6);
        }
    }

    /**
     * A counter of the DataNode's activity metrics, read from the metrics source itself (its JMX view caches values
     * for ten seconds).
     */
    private static long dataNodeCounter(String name) {
        String source = cluster.getDataNodes().get(0).getMetrics().name();
        MetricsSource metrics = DefaultMetricsSystem.instance().getSource(source);
        assertThat(metrics).as("metrics source %s", source).isNotNull();
        MetricsCollectorImpl collector = new MetricsCollectorImpl();
        metrics.getMetrics(collector, true);
        for (MetricsRecord record : collector.getRecords()) {
            for (AbstractMetric m : record.metrics()) {
                if (m.name().equals(name)) {
                    return m.value().longValue();
                }
            }
        }
        throw new AssertionError("no metric " + name + " in " + source);
    }

    /** The id of the NameNode's last edit-log transaction: one per journaled operation. */
    private static long nameNodeTransactions() {
        return cluster.getNamesystem().getEditLog().getLastWrittenTxId();
    }
}
