package io.jobinfo.store.it;

import io.jobinfo.store.lifecycle.NamespaceClaim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.hazelcast.map.IMap;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.ops.GarbageCollector;
import io.jobinfo.store.ops.GcReport;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.spi.OutcomeUnknownException;
import io.jobinfo.store.spi.StoredBlob;
import io.jobinfo.store.testing.HazelcastTestCluster;
import io.jobinfo.store.spi.testing.TestBlobs;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HDFS servers crash in the middle of a write: a writer thread streams a large blob (24 MiB, several packets
 * and blocks of 8 MiB) and is held half-way; then the NameNode is restarted, or shut down until the writer has
 * given up, or the only DataNode is stopped (and later restarted); then the writer goes on. For each: the create
 * either returned (acknowledged), failed plainly (nothing visible) or reported {@link OutcomeUnknownException};
 * no torn blob is ever visible (every listed complete blob reads back verified); every acknowledged job, written
 * before the fault, reads back intact after it; and garbage collection (grace 0) removes the temporary files the
 * interrupted writes left behind, so that only acknowledged blobs remain.
 *
 * <p>By default the NameNode-down and DataNode-stopped cases run (about 90 s on a loaded build machine); the
 * NameNode-restart case also runs with {@code -Djobinfo.it.server-crash.long=true}.
 *
 * <p>The MiniDFSCluster is this class's own (one NameNode, one DataNode, replication 1), with client settings that
 * fail within seconds rather than retry for minutes.
 */
class HdfsServerCrashTest {

    private static final Logger LOG = LoggerFactory.getLogger(HdfsServerCrashTest.class);
    private static final int SIZE = 24 << 20;
    static final String LONG = "jobinfo.it.server-crash.long";

    @TempDir
    static Path base;
    private static MiniDFSCluster hdfs;
    private static HazelcastTestCluster cluster;
    private static final List<String> OUTCOMES = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        Configuration conf = new Configuration();
        conf.setInt("dfs.replication", 1);
        conf.setInt("dfs.heartbeat.interval", 1);
        conf.setInt("dfs.namenode.safemode.extension", 0);
        conf.setLong("dfs.blocksize", 8 << 20);
        hdfs = new MiniDFSCluster.Builder(conf, base.toFile()).numDataNodes(1).format(true).build();
        hdfs.waitActive();
        cluster = new HazelcastTestCluster(1);
    }

    @AfterAll
    static void stop() {
        LOG.warn("HDFS crash outcomes: {}", OUTCOMES);
        if (hdfs != null) {
            hdfs.shutdown(true);
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static JobInfoStorageConfig config(String namespace) {
        return JobInfoStorageConfig.builder("hdfs").namespace("/crash/" + namespace)
                .option("fs.defaultFS", hdfs.getURI().toString())
                .option("seatunnel.hadoop.dfs.replication", "1")
                .option("seatunnel.hadoop.dfs.blocksize", String.valueOf(8 << 20))
                .option("seatunnel.hadoop.dfs.client.max.block.acquire.failures", "1")
                .option("seatunnel.hadoop.dfs.client.retry.window.base", "100")
                .option("seatunnel.hadoop.dfs.client.socket-timeout", "5000")
                .option("seatunnel.hadoop.dfs.client.block.write.locateFollowingBlock.retries", "2")
                .option("seatunnel.hadoop.dfs.client.block.write.retries", "1")
                .option("seatunnel.hadoop.ipc.client.connect.max.retries", "1")
                .option("seatunnel.hadoop.ipc.client.connect.max.retries.on.timeouts", "1")
                .option("seatunnel.hadoop.ipc.client.connect.timeout", "2000")
                .build();
    }

    private enum Result { ACKNOWLEDGED, FAILED, OUTCOME_UNKNOWN }

    /** What the test does to the servers while the writer is held half-way; the writer goes on afterwards. */
    private interface Fault {
        /** Runs while the writer is held; returns what must run after the writer finished (the repair). */
        Repair inject() throws Exception;
    }

    private interface Repair {
        void run() throws Exception;
    }

    @Test
    void aNameNodeRestartMidWriteLosesNothingAcknowledgedAndLeavesNoTornBlob() throws Exception {
        assumeTrue(Boolean.getBoolean(LONG), "another NameNode restart (about 40 s on a loaded machine; the"
                + " NameNode-down test covers the same write path): run with -D" + LONG + "=true");
        crash("nn-restart", () -> {
            hdfs.restartNameNode(true);
            return () -> { };
        });
    }

    @Test
    void aNameNodeDownUntilTheWriterGivesUpLeavesOnlyATempFileThatGcRemoves() throws Exception {
        crash("nn-down", () -> {
            hdfs.shutdownNameNode(0);
            return () -> {
                hdfs.restartNameNode(0, true);
                hdfs.waitActive();
            };
        });
    }

    @Test
    void theOnlyDataNodeStoppedMidWriteFailsTheCreateAndLosesNothingAcknowledged() throws Exception {
        crash("dn-stop", () -> {
            MiniDFSCluster.DataNodeProperties stopped = hdfs.stopDataNode(0);
            return () -> {
                assertThat(hdfs.restartDataNode(stopped, true)).isTrue();
                hdfs.waitActive();
                hdfs.waitFirstBRCompleted(0, 60_000);
            };
        });
    }

    private void crash(String namespace, Fault fault) throws Exception {
        IMap<Long, String> map = cluster.master().getMap("hdfs-crash-" + namespace);
        Map<Long, byte[]> acknowledged = new LinkedHashMap<>();
        try (JobInfoStore store = JobInfoStores.open(config(namespace))) {
            for (long id = 1; id <= 3; id++) {
                byte[] envelope = BlobEnvelope.wrap(id, 1, TestBlobs.randomPayload(id, 256 << 10));
                assertThat(store.create(id, BlobSource.ofBytes(envelope))).isEqualTo(CreateOutcome.CREATED);
                acknowledged.put(id, envelope);
                map.put(id, "acknowledged");
            }
            long jobId = 10;
            byte[] envelope = BlobEnvelope.wrap(jobId, 1, TestBlobs.randomPayload(jobId, SIZE));
            CountDownLatch halfWritten = new CountDownLatch(1);
            CountDownLatch resume = new CountDownLatch(1);
            BlobSource held = new BlobSource() {
                private int opens;

                @Override
                public long length() {
                    return envelope.length;
                }

                @Override
                public synchronized InputStream open() {
                    // first open: the store's header check; then the write, held half-way until the fault is in
                    return opens++ == 0 ? new ByteArrayInputStream(envelope)
                            : new TestBlobs.PausingInputStream(envelope, envelope.length / 2, halfWritten, resume);
                }
            };
            List<String> messages = new ArrayList<>();
            CompletableFuture<Result> writer = CompletableFuture.supplyAsync(() -> {
                try {
                    store.create(jobId, held);
                    return Result.ACKNOWLEDGED;
                } catch (OutcomeUnknownException e) {
                    messages.add(e.getMessage());
                    return Result.OUTCOME_UNKNOWN;
                } catch (JobInfoStoreException e) {
                    messages.add(e.getMessage());
                    return Result.FAILED;
                }
            });
            assertThat(halfWritten.await(2, TimeUnit.MINUTES)).as("the writer reached half-way").isTrue();
            Repair repair = fault.inject();
            resume.countDown();
            Result result = writer.get(5, TimeUnit.MINUTES); // generous: only a hang fails here
            repair.run();

            String message = messages.isEmpty() ? "" : messages.get(0);
            if (result == Result.ACKNOWLEDGED) {
                acknowledged.put(jobId, envelope);
                map.put(jobId, "acknowledged");
            } else {
                assertThat(message).contains("jobId=" + jobId);
            }
            if (result == Result.FAILED) {
                assertThatThrownBy(() -> store.read(jobId)).as("a plainly failed create stores nothing")
                        .isInstanceOf(BlobNotFoundException.class);
            }
            List<StoredBlob> listed = store.list();
            long leftovers = listed.stream().filter(StoredBlob::incomplete).count();
            for (StoredBlob b : listed) {
                if (!b.incomplete()) {
                    assertThat(store.read(b.jobId())).as("listed blob %s reads back verified", b.location())
                            .isNotNull();
                }
            }
            for (Map.Entry<Long, byte[]> e : acknowledged.entrySet()) {
                assertThat(store.read(e.getKey()).payload()).as("acknowledged job %s", e.getKey())
                        .isEqualTo(BlobEnvelope.verify(e.getValue(), e.getKey(), io.jobinfo.store.location.Location.of("test", "expected")).payload());
            }

            GcReport report = new GarbageCollector(map, store, Duration.ZERO).run(true, b -> { });
            assertThat(report.failures()).isEmpty();
            List<StoredBlob> after = store.list();
            assertThat(after).noneMatch(StoredBlob::incomplete);
            assertThat(after).extracting(StoredBlob::jobId).filteredOn(id -> !NamespaceClaim.isClaim(id))
                    .containsExactlyInAnyOrderElementsOf(acknowledged.keySet());
            // and the store works again
            byte[] next = BlobEnvelope.wrap(20, 1, TestBlobs.randomPayload(20, 1 << 20));
            assertThat(store.create(20, BlobSource.ofBytes(next))).isEqualTo(CreateOutcome.CREATED);
            assertThat(store.read(20).payload()).isEqualTo(BlobEnvelope.verify(next, 20, io.jobinfo.store.location.Location.of("test", "expected")).payload());
            synchronized (OUTCOMES) {
                OUTCOMES.add(namespace + ": " + result + ", leftovers before gc " + leftovers + ", gc deleted "
                        + report.deleted().size() + (message.isEmpty() ? "" : ", message: " + message));
            }
        }
    }
}
