package io.jobinfo.store.it;

import io.jobinfo.store.lifecycle.NamespaceClaim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.io.File;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The S3 server itself crashes: S3Proxy 4.1.0 runs as a separate process ({@link S3ProxyMain}, filesystem blob
 * store in a temporary directory) and is killed with SIGKILL while the store is in the middle of a single-part
 * PutObject or of a multipart upload, then restarted on the same port and directory. The store reaches it through a
 * {@link TcpFaultProxy} with a per-chunk latency, so that a large blob takes seconds on the wire and the kill lands
 * while its bytes are flowing (at a random fraction, 10% to 90%, of the blob's bytes).
 *
 * <p>For every trial: the create either returned (the job is acknowledged), failed plainly (then nothing is stored),
 * or reported {@link OutcomeUnknownException}; after the restart every blob that reads back is complete and
 * verified, no acknowledged job is lost, and garbage collection (grace 0 here) removes every leftover, including
 * multipart uploads that the killed server left pending (the store could not abort them while the server was
 * down), so that the store's listing is clean at the end.
 *
 * <p>Trials: 1 single-part and 1 multipart by default (about a minute on a loaded build machine, most of it JVM
 * restarts); {@code -Djobinfo.it.s3-crash-trials=N} runs N of each.
 */
class S3ServerCrashTest {

    private static final Logger LOG = LoggerFactory.getLogger(S3ServerCrashTest.class);
    private static final int TRIALS = Integer.getInteger("jobinfo.it.s3-crash-trials", 1);
    private static final int SINGLE_PART = 6 << 20;  // below the 8 MiB threshold: one PutObject
    private static final int MULTIPART = 12 << 20;   // 5 MiB parts: 3 parts

    @TempDir
    static Path temp;

    private static S3ProxyProcess server;
    private static TcpFaultProxy wire;
    private static HazelcastTestCluster cluster;
    private static String bucket = "crash-bucket";

    @BeforeAll
    static void start() throws Exception {
        Path data = Files.createDirectories(temp.resolve("s3data"));
        server = S3ProxyProcess.start(data, temp.resolve("s3proxy.log").toFile());
        try (S3Client s3 = rawClient()) {
            s3.createBucket(b -> b.bucket(bucket));
        }
        wire = new TcpFaultProxy(new InetSocketAddress("127.0.0.1", server.port()));
        cluster = new HazelcastTestCluster(1);
    }

    @AfterAll
    static void stop() {
        if (wire != null) {
            wire.close();
        }
        if (server != null) {
            server.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static S3Client rawClient() {
        return S3Client.builder().endpointOverride(server.endpoint()).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(server.accessKey(), server.secretKey())))
                .httpClientBuilder(ApacheHttpClient.builder()).build();
    }

    private static JobInfoStorageConfig config(String namespace) {
        InetSocketAddress through = wire.address();
        return JobInfoStorageConfig.builder("s3").namespace("/crash/" + namespace)
                .option("s3.bucket", bucket)
                .option("s3.endpoint", "http://127.0.0.1:" + through.getPort())
                .option("s3.region", "us-east-1")
                .option("s3.path-style-access", "true")
                .option("s3.access-key", server.accessKey())
                .option("s3.secret-key", server.secretKey())
                .option("s3.multipart.threshold", "8MiB")
                .option("s3.multipart.part-size", "5MiB")
                .option("s3.retry.max-attempts", "2")
                .option("s3.retry.base-delay", "100ms")
                .option("s3.retry.max-delay", "200ms")
                .option("s3.connection-timeout", "5s")
                .option("s3.socket-timeout", "60s")
                .option("s3.call-timeout", "120s")
                .option("s3.probe.race-rounds", "1")
                .build();
    }

    @Test
    void killingTheServerMidSinglePartWriteLosesNothingAcknowledgedAndLeavesNoTornBlob() throws Exception {
        crashTrials("single", SINGLE_PART, 100);
    }

    @Test
    void killingTheServerMidMultipartUploadLosesNothingAcknowledgedAndGcRemovesThePendingUploads() throws Exception {
        List<Outcome> outcomes = crashTrials("multi", MULTIPART, 200);
        LOG.warn("multipart crash trials: {}", outcomes);
    }

    private enum Result { ACKNOWLEDGED, FAILED, OUTCOME_UNKNOWN }

    private record Outcome(long jobId, Result result, String when, boolean storedAfterRestart, String message) {
    }

    private List<Outcome> crashTrials(String namespace, int size, long firstJob) throws Exception {
        IMap<Long, String> map = cluster.master().getMap("crash-" + namespace);
        Map<Long, byte[]> acknowledged = new LinkedHashMap<>();
        List<Outcome> outcomes = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(Long.getLong("jobinfo.it.seed", System.nanoTime()));
        int pendingUploadsSeen = 0;
        List<String> messages = new ArrayList<>();
        try (JobInfoStore store = JobInfoStores.open(config(namespace))) {
            // jobs acknowledged before any crash
            for (long id = firstJob; id < firstJob + 3; id++) {
                byte[] envelope = BlobEnvelope.wrap(id, 1, TestBlobs.randomPayload(id, 64 << 10));
                assertThat(store.create(id, BlobSource.ofBytes(envelope))).isEqualTo(CreateOutcome.CREATED);
                acknowledged.put(id, envelope);
                map.put(id, "acknowledged");
            }
            for (int trial = 0; trial < TRIALS; trial++) {
                long jobId = firstJob + 10 + trial;
                byte[] envelope = BlobEnvelope.wrap(jobId, 1, TestBlobs.randomPayload(jobId, size));
                double fraction = 0.1 + 0.8 * random.nextDouble();
                long killAt = wire.bytesToServer() + (long) (envelope.length * fraction);
                wire.latency(5); // 16 KiB chunks: about 3 MB/s
                CompletableFuture<Result> create = CompletableFuture.supplyAsync(() -> {
                    try {
                        store.create(jobId, BlobSource.ofBytes(envelope));
                        return Result.ACKNOWLEDGED;
                    } catch (OutcomeUnknownException e) {
                        messages.add(e.getMessage());
                        return Result.OUTCOME_UNKNOWN;
                    } catch (JobInfoStoreException e) {
                        messages.add(e.getMessage());
                        return Result.FAILED;
                    }
                });
                long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
                while (wire.bytesToServer() < killAt && !create.isDone() && System.nanoTime() < waitUntil) {
                    Thread.sleep(5);
                }
                boolean killedMidWrite = !create.isDone();
                server.kill();
                Result result = create.get(240, TimeUnit.SECONDS); // no hang: the create ends while the server is down
                wire.latency(0);
                server.restart();
                awaitAnswering(store);
                if (result == Result.ACKNOWLEDGED) {
                    acknowledged.put(jobId, envelope);
                    map.put(jobId, "acknowledged");
                }

                // after the restart: acknowledged jobs intact; the crashed job either verified or absent
                for (Map.Entry<Long, byte[]> e : acknowledged.entrySet()) {
                    assertThat(store.read(e.getKey()).payload()).as("acknowledged job %s after restart", e.getKey())
                            .isEqualTo(BlobEnvelope.verify(e.getValue(), e.getKey(), io.jobinfo.store.location.Location.of("test", "expected")).payload());
                }
                if (result == Result.FAILED) {
                    assertThatThrownBy(() -> store.read(jobId)).as("a plainly failed create stores nothing")
                            .isInstanceOf(BlobNotFoundException.class);
                } else if (result == Result.OUTCOME_UNKNOWN) {
                    assertNotTorn(store, jobId, envelope);
                }
                boolean pendingUpload = false;
                for (StoredBlob b : store.list()) {
                    if (b.incomplete()) {
                        pendingUploadsSeen += b.jobId() == jobId ? 1 : 0;
                        pendingUpload |= b.jobId() == jobId;
                    } else {
                        assertNotTorn(store, b.jobId(), null);
                    }
                }
                String message = result == Result.ACKNOWLEDGED ? "" : messages.get(messages.size() - 1);
                assertThat(message).doesNotContain(server.secretKey());
                if (pendingUpload) {
                    assertThat(message).as("the failure says the upload is left for gc")
                            .contains("could not be aborted").contains("garbage collection");
                }
                outcomes.add(new Outcome(jobId, result, killedMidWrite ? "mid-write" : "after",
                        store.list().stream().anyMatch(b -> b.jobId() == jobId && !b.incomplete()), message));
            }
            // gc: every leftover (pending multipart upload) and every unacknowledged blob goes; acknowledged stay
            GcReport report = new GarbageCollector(map, store, Duration.ZERO).run(true, b -> { });
            assertThat(report.failures()).isEmpty();
            List<StoredBlob> after = store.list();
            assertThat(after).noneMatch(StoredBlob::incomplete);
            assertThat(after).extracting(StoredBlob::jobId).filteredOn(id -> !NamespaceClaim.isClaim(id))
                    .containsExactlyInAnyOrderElementsOf(acknowledged.keySet());
            for (Map.Entry<Long, byte[]> e : acknowledged.entrySet()) {
                assertThat(store.read(e.getKey()).payload()).isEqualTo(
                        BlobEnvelope.verify(e.getValue(), e.getKey(), io.jobinfo.store.location.Location.of("test", "expected")).payload());
            }
            try (S3Client s3 = rawClient()) {
                assertThat(s3.listMultipartUploads(l -> l.bucket(bucket).prefix("crash/" + namespace + "/"))
                        .uploads()).as("pending uploads after gc").isEmpty();
            }
            LOG.warn("S3 server crash ({}, {} bytes): {}; pending uploads of crashed jobs: {}; gc: {}", namespace,
                    size, outcomes, pendingUploadsSeen, report);
            assertThat(outcomes).as("at least one kill landed mid-write")
                    .anyMatch(o -> o.when().equals("mid-write"));
        }
        return outcomes;
    }

    /**
     * Returns once the restarted server answers a request of {@code store}'s client (30 s at most). The client's
     * connection pool may still hold connections to the killed server: a request on one fails without an answer ("The
     * target server failed to respond"; fresh-clone CI at 31cc72d, where both SDK attempts of the first read after a
     * restart met one) and the client drops that connection. A failed request, not lost data: what the server holds
     * is checked after this.
     */
    private static void awaitAnswering(JobInfoStore store) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                store.list();
                return;
            } catch (JobInfoStoreException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                LOG.warn("the restarted server did not answer yet: {}", e.getMessage());
                Thread.sleep(100);
            }
        }
    }

    /** The blob of {@code jobId} is either absent or complete and verified; never torn. */
    private static void assertNotTorn(JobInfoStore store, long jobId, byte[] expectedEnvelope) throws Exception {
        try {
            byte[] payload = store.read(jobId).payload();
            if (expectedEnvelope != null) {
                assertThat(payload).isEqualTo(BlobEnvelope.verify(expectedEnvelope, jobId, io.jobinfo.store.location.Location.of("test", "expected")).payload());
            }
        } catch (BlobNotFoundException absent) {
            // fine: not stored
        }
    }
}
