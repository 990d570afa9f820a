package io.jobinfo.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.s3.testing.S3FaultProxy;
import io.jobinfo.store.s3.testing.S3Fixture;
import io.jobinfo.store.s3.testing.S3FixtureExtension;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.spi.OutcomeUnknownException;
import io.jobinfo.store.spi.testing.TestBlobs;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Throttling, 5xx answers and outages. The faults come from {@link S3FaultProxy}, a fault injector in front of the
 * real fixture server: no real server answers 503 SlowDown or stops answering on demand.
 */
@ExtendWith(S3FixtureExtension.class)
class S3RetryAndOutageTest {

    private final S3Fixture s3;
    private final String bucket;
    private S3FaultProxy proxy;

    S3RetryAndOutageTest(S3Fixture s3) {
        this.s3 = s3;
        this.bucket = s3.createBucket("faults");
    }

    @BeforeEach
    void startProxy() throws Exception {
        proxy = new S3FaultProxy(s3.endpoint());
    }

    @AfterEach
    void stopProxy() {
        proxy.close();
    }

    private JobInfoStore open(int maxAttempts) throws JobInfoStoreException {
        return JobInfoStores.open(S3TestConfigs.builder(s3, proxy.endpoint(), bucket, "retry/" + UUID.randomUUID())
                .option("s3.retry.max-attempts", String.valueOf(maxAttempts))
                .option("s3.retry.base-delay", "10ms")
                .option("s3.retry.max-delay", "100ms")
                .option("s3.socket-timeout", "1s")
                .option("s3.connection-timeout", "1s")
                .option("s3.call-timeout", "4s")
                .build());
    }

    private static BlobSource blob(long jobId) {
        return BlobSource.ofBytes(BlobEnvelope.wrap(jobId, 1, TestBlobs.payloadNamed(jobId)));
    }

    @Test
    void throttlingAndServerErrorsAreRetriedWithinTheBudget() throws Exception {
        try (JobInfoStore store = open(4)) {
            int before = proxy.forwardedRequests();
            proxy.enqueue(2, 503, "SlowDown");
            proxy.enqueue(1, 500, "InternalError");

            assertThat(store.create(1, blob(1))).isEqualTo(CreateOutcome.CREATED);

            assertThat(proxy.pendingFaults()).isZero();
            assertThat(proxy.faultedRequests()).hasSize(3).allMatch(r -> r.startsWith("PUT "));
            assertThat(proxy.forwardedRequests() - before).as("the fourth attempt reached the server").isEqualTo(1);
            assertThat(store.read(1).payload()).isEqualTo(TestBlobs.payloadNamed(1));

            proxy.enqueue(3, 503, "SlowDown");
            assertThat(store.read(1).payload()).as("reads are retried too").isEqualTo(TestBlobs.payloadNamed(1));
            assertThat(proxy.pendingFaults()).isZero();
        }
    }

    @Test
    void failuresBeyondTheBudgetFailWithAClearErrorAndNoExtraAttempt() throws Exception {
        try (JobInfoStore store = open(3)) {
            int faultedBefore = proxy.faultedRequests().size();
            proxy.enqueue(5, 503, "SlowDown");
            assertThatThrownBy(() -> store.create(2, blob(2)))
                    .isInstanceOf(OutcomeUnknownException.class)
                    .hasMessageContaining("jobId=2")
                    .hasMessageContaining("503")
                    .hasMessageContaining("s3.retry.max-attempts=3")
                    .hasMessageContaining("same bytes is safe");
            assertThat(proxy.faultedRequests().size() - faultedBefore).as("attempts made").isEqualTo(3);
            assertThat(proxy.pendingFaults()).isEqualTo(2);

            proxy.enqueue(1, 500, "InternalError"); // 2 SlowDown + 1 InternalError left: all 3 attempts fail
            assertThatThrownBy(() -> store.read(3))
                    .isInstanceOf(JobInfoStoreException.class)
                    .isNotInstanceOf(OutcomeUnknownException.class)
                    .hasMessageContaining("500")
                    .hasMessageContaining("retry later");
            assertThat(proxy.pendingFaults()).isZero();

            // The store works again once the server does.
            assertThat(store.create(2, blob(2))).isEqualTo(CreateOutcome.CREATED);
        }
    }

    @Test
    void anOutageLongerThanTheBudgetFailsInBoundedTimeNamingTheEndpoint() throws Exception {
        try (JobInfoStore store = open(2)) {
            proxy.blackhole(true);
            long start = System.nanoTime();
            assertThatThrownBy(() -> store.create(4, blob(4)))
                    .isInstanceOf(OutcomeUnknownException.class)
                    .hasMessageContaining(proxy.endpoint().toString())
                    .hasMessageContaining("jobId=4");
            assertThatThrownBy(() -> store.read(4))
                    .isInstanceOf(JobInfoStoreException.class)
                    .hasMessageContaining(proxy.endpoint().toString());
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            // call-timeout is 4s per request: both calls together end well within 3 times that.
            assertThat(took).isLessThan(Duration.ofSeconds(12));
        }
    }

    @Test
    void aClosedPortFailsAtStartUpNamingTheEndpointAndWhatToCheck() throws Exception {
        URI closed;
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            closed = URI.create("http://127.0.0.1:" + s.getLocalPort());
        }
        long start = System.nanoTime();
        assertThatThrownBy(() -> JobInfoStores.open(S3TestConfigs.builder(s3, closed, bucket, "closed")
                .option("s3.retry.max-attempts", "2").option("s3.retry.base-delay", "10ms").build()))
                .isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining("Cannot reach the S3 endpoint " + closed)
                .hasMessageContaining("check s3.endpoint");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    }

    @Test
    void aServerThatNeverAnswersFailsAtStartUpWithinTheCallTimeout() {
        proxy.blackhole(true);
        long start = System.nanoTime();
        assertThatThrownBy(() -> open(2))
                .isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining(proxy.endpoint().toString());
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(12));
    }
}
