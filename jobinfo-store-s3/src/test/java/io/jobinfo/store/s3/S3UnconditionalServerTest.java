package io.jobinfo.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.s3.testing.S3FaultProxy;
import io.jobinfo.store.spi.BlobAlreadyExistsException;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.spi.testing.TestBlobs;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A server that ignores {@code If-None-Match}: no real server here does, so a fault injector produces one. A second,
 * unauthenticated S3Proxy ({@link UnauthenticatedS3Proxy}) sits behind {@link S3FaultProxy}, which drops the header
 * from every request (dropping a signed header only works without authentication).
 */
class S3UnconditionalServerTest {

    private static UnauthenticatedS3Proxy server;
    private static S3FaultProxy stripping;
    private static URI serverEndpoint;

    @BeforeAll
    static void start() throws Exception {
        server = UnauthenticatedS3Proxy.start("plain");
        serverEndpoint = server.endpoint();
        stripping = new S3FaultProxy(serverEndpoint);
        stripping.stripRequestHeader("If-None-Match");
    }

    @AfterAll
    static void stop() throws Exception {
        stripping.close();
        server.close();
    }

    private static JobInfoStorageConfig.Builder config(URI endpoint, String namespace) {
        return UnauthenticatedS3Proxy.config(endpoint, "plain", namespace);
    }

    @Test
    void theSameServerWithTheHeaderPassingThroughIsAccepted() throws Exception {
        try (S3JobInfoStore store = (S3JobInfoStore) JobInfoStores.open(config(serverEndpoint, "/direct").build())) {
            assertThat(store.conditionalWrites()).isTrue();
        }
    }

    @Test
    void aServerIgnoringConditionalWritesIsRefusedAtStartUp() {
        assertThatThrownBy(() -> JobInfoStores.open(config(stripping.endpoint(), "/strict").build()))
                .isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining("does not honour conditional writes")
                .hasMessageContaining("If-None-Match")
                .hasMessageContaining("s3.allow-unconditional-writes=true");
    }

    @Test
    void theWeakerModeMustBeAskedForAndIsLoggedAndStillDetectsSequentialConflicts() throws Exception {
        List<ILoggingEvent> events = new ArrayList<>();
        List<S3JobInfoStore> opened = new ArrayList<>();
        S3ConfigurationTest.withLogsCaptured(events, () -> opened.add((S3JobInfoStore) JobInfoStores.open(
                config(stripping.endpoint(), "/weak").option("s3.allow-unconditional-writes", "true").build())));
        try (S3JobInfoStore store = opened.get(0)) {
            assertThat(store.conditionalWrites()).isFalse();
            assertThat(events).anySatisfy(e -> {
                assertThat(e.getLevel()).isEqualTo(Level.WARN);
                assertThat(e.getFormattedMessage()).contains("does not honour conditional writes")
                        .contains("racing creators");
            });
            byte[] first = BlobEnvelope.wrap(1, 1, TestBlobs.payloadNamed(1));
            assertThat(store.create(1, BlobSource.ofBytes(first))).isEqualTo(CreateOutcome.CREATED);
            assertThat(store.create(1, BlobSource.ofBytes(first))).isEqualTo(CreateOutcome.ALREADY_PRESENT);
            assertThatThrownBy(() -> store.create(1, BlobSource.ofBytes(BlobEnvelope.wrap(1, 1,
                    TestBlobs.payloadNamed(2))))).isInstanceOf(BlobAlreadyExistsException.class);
            assertThat(store.read(1).payload()).isEqualTo(TestBlobs.payloadNamed(1));
        }
    }
}
