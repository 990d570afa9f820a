package io.jobinfo.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.s3.testing.S3FaultProxy;
import io.jobinfo.store.s3.testing.S3Fixture;
import io.jobinfo.store.s3.testing.S3FixtureExtension;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.spi.OutcomeUnknownException;
import io.jobinfo.store.spi.testing.TestBlobs;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * A create reports "nothing was stored" only when that is proven. The faults come from {@link S3FaultProxy} in front
 * of the real fixture server: a request that the server carries out but whose answer is lost, and a port that refuses
 * connections, are faults no real server produces on demand.
 */
@ExtendWith(S3FixtureExtension.class)
class S3OutcomeClassificationTest {

    private final S3Fixture s3;
    private final String bucket;
    private final String namespace = "outcome/" + UUID.randomUUID();
    private S3FaultProxy proxy;

    S3OutcomeClassificationTest(S3Fixture s3) {
        this.s3 = s3;
        this.bucket = s3.createBucket("outcome");
    }

    @BeforeEach
    void startProxy() throws Exception {
        proxy = new S3FaultProxy(s3.endpoint());
    }

    @AfterEach
    void stopProxy() {
        proxy.close();
    }

    private JobInfoStore throughProxy(int maxAttempts) throws JobInfoStoreException {
        return JobInfoStores.open(S3TestConfigs.builder(s3, proxy.endpoint(), bucket, namespace)
                .option("s3.retry.max-attempts", String.valueOf(maxAttempts))
                .option("s3.retry.base-delay", "10ms")
                .option("s3.retry.max-delay", "100ms")
                .option("s3.socket-timeout", "2s")
                .option("s3.connection-timeout", "1s")
                .option("s3.call-timeout", "10s")
                .build());
    }

    private JobInfoStore direct() throws JobInfoStoreException {
        return JobInfoStores.open(S3TestConfigs.builder(s3, s3.endpoint(), bucket, namespace).build());
    }

    private static byte[] envelope(long jobId) {
        return BlobEnvelope.wrap(jobId, 1, TestBlobs.payloadNamed(jobId));
    }

    /**
     * Whether {@code failure} is a store error whose SDK record shows only attempts that failed to connect (the last
     * one as its cause, the earlier ones as "Request attempt N failure" lines), that is, a create that met only
     * refusals.
     */
    private static boolean everyRecordedAttemptFailedToConnect(Throwable failure) {
        if (!(failure instanceof JobInfoStoreException) || !(failure.getCause() instanceof SdkException)) {
            return false;
        }
        SdkException sdk = (SdkException) failure.getCause();
        if (!S3Attempts.lastAttemptNeverConnected(sdk)) {
            return false;
        }
        for (Throwable earlier : sdk.getSuppressed()) {
            if (earlier.getMessage() != null && !S3Attempts.isConnectFailureMessage(earlier.getMessage())) {
                return false;
            }
        }
        return true;
    }

    @Test
    void aRefusalAfterAnAttemptThatLandedIsAnUnknownOutcomeAndTheBlobIsThere() throws Exception {
        try (JobInfoStore store = throughProxy(3)) {
            // attempt 1 is carried out by the server and its answer lost; the SDK retries, attempt 2 is refused
            proxy.forwardThenDropPutObjectAnswers(1, 1, new S3FaultProxy.Fault(403, "AccessDenied"));

            assertThatThrownBy(() -> store.create(31, BlobSource.ofBytes(envelope(31))))
                    .isInstanceOf(OutcomeUnknownException.class)
                    .hasMessageContaining("jobId=31")
                    .hasMessageContaining("2 attempts")
                    .hasMessageContaining("same bytes is safe");
            assertThat(proxy.droppedAnswers()).isEqualTo(1);
            assertThat(proxy.pendingFaults()).as("the refusal was served to the retry").isZero();

            // it is in fact there and intact, so a later retry (or GC after its grace period) decides
            assertThat(store.read(31).payload()).isEqualTo(TestBlobs.payloadNamed(31));
            assertThat(store.create(31, BlobSource.ofBytes(envelope(31)))).isEqualTo(CreateOutcome.ALREADY_PRESENT);
        }
    }

    /**
     * Every attempt the client makes is carried out and its answer lost: 3 standard attempts, and as a lost answer
     * looks like a dead pooled connection, up to {@link S3JobInfoStoreFactory#MAX_CONNECTIONS} more
     * ({@link StaleConnectionRetryStrategy}, which repeats writes too since every write of the store may be repeated).
     */
    @Test
    void aPutObjectWhoseEveryAnswerIsLostIsAnUnknownOutcomeAndTheBlobIsReadable() throws Exception {
        int everyAttempt = 3 + S3JobInfoStoreFactory.MAX_CONNECTIONS;
        try (JobInfoStore store = throughProxy(3)) {
            proxy.forwardThenDropPutObjectAnswers(1, everyAttempt);

            assertThatThrownBy(() -> store.create(32, BlobSource.ofBytes(envelope(32))))
                    .isInstanceOf(OutcomeUnknownException.class)
                    .hasMessageContaining("jobId=32")
                    .hasMessageContaining(everyAttempt + " attempts");
            assertThat(proxy.droppedAnswers()).isEqualTo(everyAttempt);
        }
        try (JobInfoStore store = direct()) {
            assertThat(store.read(32).payload()).isEqualTo(TestBlobs.payloadNamed(32));
        }
    }

    @Test
    void connectionRefusedOnEveryAttemptIsAPlainFailureAndNothingIsStored() throws Exception {
        try (JobInfoStore store = throughProxy(3)) {
            proxy.refuseConnections();
            // the refused port stays taken: a server started meanwhile (another test's, say) cannot answer for it
            assertThatThrownBy(() -> {
                try (ServerSocket takeover = new ServerSocket()) {
                    takeover.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                            proxy.endpoint().getPort()));
                }
            }).isInstanceOf(BindException.class);

            Throwable refused = null;
            int forwarded = 0;
            for (int call = 1; call <= 3; call++) {
                int forwardedBefore = proxy.forwardedRequests();
                refused = catchThrowable(() -> store.create(33, BlobSource.ofBytes(envelope(33))));
                forwarded = proxy.forwardedRequests() - forwardedBefore;
                if (!(refused instanceof OutcomeUnknownException) || forwarded > 0
                        || everyRecordedAttemptFailedToConnect(refused)) {
                    break;
                }
                // The premise did not hold: an SDK attempt had a connection although the proxy refuses and forwarded
                // nothing (fresh-clone CI at 8deb91e: attempt 1 "Broken pipe", cause not found; the store rightly
                // called that outcome unknown). Call again: the store's answer to refusals is what is tested here.
                System.err.println("S3OutcomeClassificationTest: call " + call + " had an attempt that connected"
                        + " through a refusing proxy that forwarded nothing; calling again: " + refused);
            }
            // (a fresh-clone CI run once saw this create succeed: the count tells whether it passed this proxy)
            assertThat(refused).as("the create through the refusing proxy (requests the proxy forwarded meanwhile: %d)",
                            forwarded)
                    .isInstanceOf(JobInfoStoreException.class)
                    .isNotInstanceOf(OutcomeUnknownException.class)
                    .hasMessageContaining("jobId=33")
                    .hasMessageContaining("could not connect in 3 attempts")
                    .hasMessageContaining("nothing was stored")
                    .hasMessageContaining(proxy.endpoint().toString());
        }
        try (JobInfoStore store = direct()) {
            assertThatThrownBy(() -> store.read(33)).isInstanceOf(BlobNotFoundException.class);
            assertThat(store.list()).isEmpty();
        }
    }
}
