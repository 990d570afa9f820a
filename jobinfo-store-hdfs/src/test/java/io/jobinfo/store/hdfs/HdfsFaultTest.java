package io.jobinfo.store.hdfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.spi.BlobAlreadyExistsException;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CorruptBlobException;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.location.Location;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.spi.OutcomeUnknownException;
import io.jobinfo.store.spi.StoredBlob;
import io.jobinfo.store.spi.testing.TestBlobs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults on a real HDFS: a NameNode restart, a stopped DataNode, interrupted writes; and viewfs:// over it. One
 * MiniDFSCluster for the class; every test leaves it running with its DataNode up.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class HdfsFaultTest {

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

    private static JobInfoStorageConfig.Builder config() {
        return JobInfoStorageConfig.builder("hdfs").namespace("/faults/" + UUID.randomUUID())
                .option("fs.defaultFS", MiniHdfs.uri(cluster))
                .option("seatunnel.hadoop.dfs.replication", "1");
    }

    /** Client settings that turn an unreachable DataNode into an error within seconds instead of minutes. */
    private static JobInfoStorageConfig.Builder fastFailing(JobInfoStorageConfig.Builder b) {
        return b.option("seatunnel.hadoop.dfs.client.max.block.acquire.failures", "1")
                .option("seatunnel.hadoop.dfs.client.retry.window.base", "100")
                .option("seatunnel.hadoop.dfs.client.socket-timeout", "5000")
                .option("seatunnel.hadoop.dfs.client.block.write.locateFollowingBlock.retries", "2")
                .option("seatunnel.hadoop.dfs.client.block.write.retries", "1")
                .option("seatunnel.hadoop.ipc.client.connect.max.retries", "1")
                .option("seatunnel.hadoop.ipc.client.connect.timeout", "2000");
    }

    private static byte[] envelope(long jobId, int seed, int size) {
        return BlobEnvelope.wrap(jobId, 1, TestBlobs.randomPayload(seed, size));
    }

    private static byte[] payloadOf(byte[] envelope) {
        return java.util.Arrays.copyOfRange(envelope, io.jobinfo.store.envelope.EnvelopeHeader.LENGTH,
                envelope.length);
    }

    // ------------------------------------------------------------------------------------------ NameNode restart

    @Test
    void aBlobWrittenBeforeANameNodeRestartIsReadableAfterIt() throws Exception {
        JobInfoStorageConfig cfg = config().build();
        byte[] blob = envelope(1, 1, 3 << 20);
        try (JobInfoStore store = JobInfoStores.open(cfg)) {
            assertThat(store.create(1, BlobSource.ofBytes(blob))).isEqualTo(CreateOutcome.CREATED);

            cluster.restartNameNode(true);

            // the same store (its client reconnects) and a fresh one both read the verified blob
            assertThat(store.read(1).payload()).isEqualTo(payloadOf(blob));
            try (JobInfoStore fresh = JobInfoStores.open(cfg)) {
                assertThat(fresh.read(1).payload()).isEqualTo(payloadOf(blob));
                assertThat(fresh.list()).extracting(StoredBlob::jobId).containsExactly(1L);
            }
            // and write-once still holds against the restarted NameNode
            assertThatThrownBy(() -> store.create(1, BlobSource.ofBytes(envelope(1, 2, 1000))))
                    .isInstanceOf(BlobAlreadyExistsException.class);
        }
    }

    // ------------------------------------------------------------------------------------------ DataNode stopped

    @Test
    void aStoppedDataNodeGivesAClearErrorInBoundedTimeNotAHang() throws Exception {
        JobInfoStorageConfig cfg = fastFailing(config()).build();
        byte[] blob = envelope(2, 3, 1 << 20);
        try (JobInfoStore store = JobInfoStores.open(cfg)) {
            store.create(2, BlobSource.ofBytes(blob));
            MiniDFSCluster.DataNodeProperties stopped = cluster.stopDataNode(0);
            try {
                // replication 1: the only replica is gone. A clear error, not data and not a hang (the timeout here
                // only guards against a hang; the bound comes from the dfs.client.* settings above).
                JobInfoStoreException read = assertTimeoutPreemptively(Duration.ofSeconds(90), () ->
                        catchStoreException(() -> store.read(2)));
                assertThat(read).isNotInstanceOf(BlobNotFoundException.class)
                        .isNotInstanceOf(CorruptBlobException.class)
                        .hasMessageContaining("jobId=2")
                        .hasMessageContaining(store.location(2).toString())
                        .hasMessageContaining("Could not obtain block");

                // a write cannot place its block either: it fails, and nothing becomes visible
                JobInfoStoreException write = assertTimeoutPreemptively(Duration.ofSeconds(90), () ->
                        catchStoreException(() -> store.create(3, BlobSource.ofBytes(envelope(3, 4, 1 << 20)))));
                assertThat(write).isNotInstanceOf(OutcomeUnknownException.class)
                        .hasMessageContaining("jobId=3")
                        .hasMessageContaining("nothing was stored");
                assertThat(store.list()).extracting(StoredBlob::jobId).containsExactly(2L);
            } finally {
                assertThat(cluster.restartDataNode(stopped, true)).isTrue();
                cluster.waitActive();
            }
            // once the DataNode is back, the blob is intact
            assertThat(store.read(2).payload()).isEqualTo(payloadOf(blob));
        }
    }

    private static JobInfoStoreException catchStoreException(ThrowingRunnable r) {
        try {
            r.run();
        } catch (JobInfoStoreException e) {
            return e;
        } catch (Exception e) {
            throw new AssertionError("expected a JobInfoStoreException, got " + e, e);
        }
        throw new AssertionError("expected a JobInfoStoreException, the call succeeded");
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    // ------------------------------------------------------------------------------------------ interrupted writes

    @Test
    void aSourceFailingHalfWayLeavesNoBlobAndNoLeftover() throws Exception {
        byte[] blob = envelope(4, 5, 2 << 20);
        BlobSource failing = new BlobSource() {
            private int opens;

            @Override
            public long length() {
                return blob.length;
            }

            @Override
            public synchronized InputStream open() {
                if (opens++ == 0) {
                    return new java.io.ByteArrayInputStream(blob); // create's check of the whole envelope
                }
                return new InputStream() {
                    private int pos;

                    @Override
                    public int read() throws IOException {
                        byte[] one = new byte[1];
                        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
                    }

                    @Override
                    public int read(byte[] b, int off, int len) throws IOException {
                        // the write fails half-way
                        if (pos >= blob.length / 2) {
                            throw new IOException("source broke half-way (test fault)");
                        }
                        int n = Math.min(len, blob.length / 2 - pos);
                        System.arraycopy(blob, pos, b, off, n);
                        pos += n;
                        return n;
                    }
                };
            }
        };
        try (JobInfoStore store = JobInfoStores.open(config().build())) {
            assertThatThrownBy(() -> store.create(4, failing))
                    .isInstanceOf(JobInfoStoreException.class)
                    .isNotInstanceOf(OutcomeUnknownException.class)
                    .hasMessageContaining("nothing was stored")
                    .hasMessageContaining("source broke half-way");
            assertThatThrownBy(() -> store.read(4)).isInstanceOf(BlobNotFoundException.class);
            assertThat(store.list()).as("the temporary file was removed").isEmpty();
            assertThat(store.create(4, BlobSource.ofBytes(blob))).isEqualTo(CreateOutcome.CREATED);
        }
    }

    @Test
    void anInterruptedWriterLeavesOnlyATempFileThatListReportsAndDeleteIncompleteRemoves() throws Exception {
        byte[] blob = envelope(5, 6, 4 << 20);
        CountDownLatch halfWritten = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        BlobSource pausing = new BlobSource() {
            private int opens;

            @Override
            public long length() {
                return blob.length;
            }

            @Override
            public synchronized InputStream open() {
                // first open: the header check, second: the write, which pauses half-way until interrupted
                return opens++ == 0 ? new java.io.ByteArrayInputStream(blob)
                        : new TestBlobs.PausingInputStream(blob, blob.length / 2, halfWritten, never);
            }
        };
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (JobInfoStore store = JobInfoStores.open(config().build())) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicBoolean interruptKept = new AtomicBoolean();
            Future<?> writer = pool.submit(() -> {
                try {
                    store.create(5, pausing);
                } catch (Throwable t) {
                    failure.set(t);
                    interruptKept.set(Thread.currentThread().isInterrupted());
                }
            });
            assertThat(halfWritten.await(1, TimeUnit.MINUTES)).isTrue();
            writer.cancel(true); // interrupts the writing thread
            pool.shutdown();
            assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();

            assertThat(failure.get()).isInstanceOf(JobInfoStoreException.class)
                    .isNotInstanceOf(OutcomeUnknownException.class)
                    .hasMessageContaining("interrupted").hasMessageContaining("jobId=5");
            assertThat(interruptKept).as("the caller still sees its interrupt").isTrue();
            assertThatThrownBy(() -> store.read(5)).isInstanceOf(BlobNotFoundException.class);

            List<StoredBlob> listed = store.list();
            assertThat(listed).singleElement().satisfies(b -> {
                assertThat(b.incomplete()).isTrue();
                assertThat(b.jobId()).isEqualTo(5L);
                assertThat(b.location().fileName()).startsWith(".tmp-0000000000000005-");
                assertThat(b.location().parent()).isEqualTo(store.location(5).parent());
            });
            assertThat(store.deleteIncomplete(listed.get(0))).isTrue();
            assertThat(store.deleteIncomplete(listed.get(0))).isFalse();
            assertThat(store.list()).isEmpty();
            assertThat(store.create(5, BlobSource.ofBytes(blob))).isEqualTo(CreateOutcome.CREATED);
            assertThat(store.read(5).payload()).isEqualTo(payloadOf(blob));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void deleteIncompleteRefusesLocationsOutsideTheStore() throws Exception {
        try (JobInfoStore store = JobInfoStores.open(config().build())) {
            String prefix = store.location(9).parent().toString();
            for (String evil : List.of(prefix + "../.tmp-0000000000000009-x", prefix + "sub/.tmp-0000000000000009-x",
                    "hdfs://elsewhere:8020/.tmp-0000000000000009-x", prefix + "0000000000000009.jobinfo")) {
                assertThatThrownBy(() -> store.deleteIncomplete(StoredBlob.of(9, Location.of(evil), 0, java.time.Instant.now(),
                        true))).as(evil).isInstanceOf(IllegalArgumentException.class);
                String token = evil.startsWith(prefix) ? evil.substring(prefix.length()) : evil;
                assertThatThrownBy(() -> store.deleteIncomplete(StoredBlob.leftover(9, Location.of(evil), 0,
                        java.time.Instant.now(), token))).as("token %s", token)
                        .isInstanceOf(IllegalArgumentException.class);
            }
        }
    }

    // ------------------------------------------------------------------------------------------ viewfs over HDFS

    @Test
    void viewfsOverHdfsIsWriteOnceWithOneWinnerAmongRacingWriters() throws Exception {
        String target = MiniHdfs.uri(cluster) + "/viewfs-target-" + UUID.randomUUID();
        JobInfoStorageConfig cfg = JobInfoStorageConfig.builder("hdfs")
                .namespace("viewfs://jobinfo-cluster/jobs/ns")
                .option("seatunnel.hadoop.fs.viewfs.mounttable.jobinfo-cluster.link./jobs", target)
                .option("seatunnel.hadoop.dfs.replication", "1")
                .build();
        try (JobInfoStore store = JobInfoStores.open(cfg)) {
            assertThat(store.location(1).parent()).hasToString("viewfs://jobinfo-cluster/jobs/ns/");
            int writers = 8;
            ExecutorService pool = Executors.newFixedThreadPool(writers);
            try {
                for (int round = 0; round < 3; round++) {
                    long jobId = 100 + round;
                    CyclicBarrier start = new CyclicBarrier(writers);
                    List<Future<CreateOutcome>> results = new ArrayList<>();
                    for (int i = 0; i < writers; i++) {
                        byte[] mine = envelope(jobId, round * 10 + i, 32 * 1024);
                        results.add(pool.submit(() -> {
                            start.await();
                            try {
                                return store.create(jobId, BlobSource.ofBytes(mine));
                            } catch (BlobAlreadyExistsException e) {
                                return null;
                            }
                        }));
                    }
                    int winners = 0;
                    for (Future<CreateOutcome> r : results) {
                        if (r.get(1, TimeUnit.MINUTES) != null) {
                            winners++;
                        }
                    }
                    assertThat(winners).as("winners in round %d", round).isEqualTo(1);
                    assertThat(store.read(jobId).header().jobId()).isEqualTo(jobId);
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(store.list()).extracting(StoredBlob::jobId).containsExactlyInAnyOrder(100L, 101L, 102L);
            // the blobs really live in the mount target on HDFS
            assertThat(cluster.getFileSystem().exists(new org.apache.hadoop.fs.Path(target
                    + "/ns/0000000000000064.jobinfo"))).isTrue();
        }
    }
}
