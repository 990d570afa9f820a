package io.jobinfo.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.spi.testing.TestBlobs;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The S3 server restarts (S3Proxy 4.1.0 in this JVM, stopped and started again on the same port and blob directory)
 * while the store's connection pool holds connections to it: the first reads, and the first create and delete, after
 * the restart succeed. Before the
 * store's reads retried dead pooled connections ({@link StaleConnectionRetryStrategy}), the first read failed after
 * all 5 SDK attempts, each sent on another connection of the old server ("The target server failed to respond"), as
 * the pool held more of them than there are attempts and checks a connection only after 2 s of idleness.
 */
class S3StaleConnectionTest {

    private static final int BLOBS = 24;

    @TempDir
    Path dir;

    private final String access = "stale-access-" + UUID.randomUUID().toString().substring(0, 8);
    private final String secret = "stale-secret-" + UUID.randomUUID();
    private S3Proxy server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    private S3Proxy start(int port) throws Exception {
        Properties props = new Properties();
        props.setProperty("jclouds.filesystem.basedir", dir.toString());
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(BlobStores.create("filesystem", props))
                .endpoint(URI.create("http://127.0.0.1:" + port))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, access, secret)
                .stopTimeout(0)
                .build();
        proxy.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
            }
            Thread.sleep(5);
        }
        return proxy;
    }

    /**
     * Opens a store on a new server, fills the store's connection pool with {@value #BLOBS} connections (a restore:
     * every loader reads on a connection of its own, which the pool keeps afterwards), restarts the server on the same
     * port and returns the store, whose pool now holds only dead connections.
     */
    private S3JobInfoStore storeWithDeadPooledConnections() throws Exception {
        server = start(0);
        int port = server.getPort();
        URI endpoint = URI.create("http://127.0.0.1:" + port);
        try (S3Client raw = S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(access, secret)))
                .httpClientBuilder(ApacheHttpClient.builder()).build()) {
            raw.createBucket(b -> b.bucket("restart"));
        }
        JobInfoStorageConfig config = JobInfoStorageConfig.builder("s3").namespace("/restart")
                .option("s3.bucket", "restart").option("s3.endpoint", endpoint.toString())
                .option("s3.access-key", access).option("s3.secret-key", secret)
                .option("s3.probe.race-rounds", "1").build(); // the probe is not under test here
        ExecutorService pool = Executors.newFixedThreadPool(BLOBS);
        S3JobInfoStore store = (S3JobInfoStore) JobInfoStores.open(config);
        try {
            for (long id = 1; id <= BLOBS; id++) {
                store.create(id, BlobSource.ofBytes(BlobEnvelope.wrap(id, 1, TestBlobs.payloadNamed((int) id))));
            }
            CyclicBarrier together = new CyclicBarrier(BLOBS);
            List<Future<byte[]>> reads = new ArrayList<>();
            for (long id = 1; id <= BLOBS; id++) {
                long job = id;
                reads.add(pool.submit(() -> {
                    together.await();
                    return store.read(job).payload();
                }));
            }
            for (Future<byte[]> r : reads) {
                assertThat(r.get(60, TimeUnit.SECONDS)).isNotEmpty();
            }
            long lastUse = System.nanoTime();

            server.stop();
            server = start(port);

            long sinceLastUse = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastUse);
            // the pool checks a connection idle for 2 s or more; a slower restart would not test the point
            assumeThat(sinceLastUse).as("ms from the last use of the pool to the restarted server").isLessThan(1800);
            return store;
        } catch (Exception | AssertionError e) {
            store.close();
            throw e;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theFirstReadsAfterTheEndpointRestartsSucceed() throws Exception {
        try (S3JobInfoStore store = storeWithDeadPooledConnections()) {
            assertThat(store.read(1).payload()).isEqualTo(TestBlobs.payloadNamed(1));
            assertThat(store.list()).hasSize(BLOBS);
            for (long id = 2; id <= BLOBS; id++) {
                assertThat(store.read(id).payload()).isEqualTo(TestBlobs.payloadNamed((int) id));
            }
        }
    }

    /**
     * A create and a delete, the first requests after the restart: both succeed (no first-request failure, no
     * {@code OutcomeUnknownException}) and what they did is stored. Before the store's writes also retried dead pooled
     * connections, the create failed after 5 attempts on connections of the old server.
     */
    @Test
    void aCreateAndADeleteRightAfterTheEndpointRestartsSucceed() throws Exception {
        try (S3JobInfoStore store = storeWithDeadPooledConnections()) {
            byte[] created = BlobEnvelope.wrap(BLOBS + 1, 1, TestBlobs.payloadNamed(BLOBS + 1));
            assertThat(store.create(BLOBS + 1, BlobSource.ofBytes(created))).isEqualTo(CreateOutcome.CREATED);
            assertThat(store.delete(1)).isTrue();
            assertThat(store.list()).extracting(b -> b.jobId()).hasSize(BLOBS).contains((long) BLOBS + 1)
                    .doesNotContain(1L);
            assertThat(store.read(BLOBS + 1).payload()).isEqualTo(TestBlobs.payloadNamed(BLOBS + 1));
        }
    }
}
