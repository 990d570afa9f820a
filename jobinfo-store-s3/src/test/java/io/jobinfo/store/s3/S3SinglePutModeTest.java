package io.jobinfo.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.s3.S3JobInfoStore.WriteMode;
import io.jobinfo.store.s3.testing.S3Fixture;
import io.jobinfo.store.spi.BlobAlreadyExistsException;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.testing.TestBlobs;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The store's write path in {@link WriteMode#SINGLE_PUT}, the mode the start-up probe chooses for a server that
 * honours {@code If-None-Match: *} on PutObject but ignores it on CompleteMultipartUpload (Ceph RGW 16, see
 * {@code S3RgwTest}): on the shared fixture, with the requests counted by an SDK interceptor on the store's own client
 * (the requests themselves are real). A blob above the multipart threshold is one conditional PutObject; one above
 * S3's 5 GiB PutObject limit is refused before anything is sent.
 */
class S3SinglePutModeTest {

    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
    private S3Client client;
    private S3JobInfoStore store;

    @BeforeEach
    void open() {
        S3Fixture s3 = S3Fixture.shared();
        String bucket = s3.createBucket("single-put");
        List<String> problems = S3StoreSettings.newProblems();
        S3StoreSettings settings = S3StoreSettings.parse(S3TestConfigs.builder(s3, bucket, "/single")
                .option("s3.multipart.threshold", "5MiB").build(), problems);
        assertThat(problems).isEmpty();
        client = s3.newClient(o -> o.addExecutionInterceptor(new ExecutionInterceptor() {
            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                requests.computeIfAbsent(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME),
                        k -> new AtomicInteger()).incrementAndGet();
            }
        }));
        store = new S3JobInfoStore(S3Clients.single(client, S3StoreSettings.ChecksumMode.CRC32C), settings,
                "single-put", WriteMode.SINGLE_PUT);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private int count(String operation) {
        AtomicInteger n = requests.get(operation);
        return n == null ? 0 : n.get();
    }

    @Test
    void aBlobAboveTheMultipartThresholdIsOneConditionalPutObject() throws Exception {
        byte[] envelope = BlobEnvelope.wrap(1, 1, TestBlobs.randomPayload(1, 6 << 20));
        assertThat(store.create(1, BlobSource.ofBytes(envelope))).isEqualTo(CreateOutcome.CREATED);
        assertThat(count("PutObject")).isEqualTo(1);
        assertThat(count("CreateMultipartUpload")).isZero();
        assertThat(count("UploadPart")).isZero();
        assertThat(store.read(1).payload()).isEqualTo(TestBlobs.randomPayload(1, 6 << 20));
        // conditional: the same bytes are already there, other bytes are refused
        assertThat(store.create(1, BlobSource.ofBytes(envelope))).isEqualTo(CreateOutcome.ALREADY_PRESENT);
        assertThatThrownBy(() -> store.create(1, BlobSource.ofBytes(BlobEnvelope.wrap(1, 1,
                TestBlobs.randomPayload(2, 6 << 20))))).isInstanceOf(BlobAlreadyExistsException.class);
        assertThat(count("CreateMultipartUpload")).isZero();
    }

    @Test
    void aBlobAboveFiveGiBIsRefusedBeforeAnythingIsSent() {
        long size = (5L << 30) + 1;
        BlobSource huge = new BlobSource() {
            @Override
            public long length() {
                return size;
            }

            @Override
            public InputStream open() throws IOException {
                throw new IOException("not to be read: the size alone is refused");
            }
        };
        // writeIfAbsent directly: create() would first read all 5 GiB to verify the envelope
        assertThatThrownBy(() -> store.writeIfAbsent(9, huge, null))
                .isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining(size + " bytes, above the 5 GiB S3 allows in one PutObject (nothing was"
                        + " stored)")
                .hasMessageContaining("honours If-None-Match: * on PutObject but not on CompleteMultipartUpload");
        assertThat(requests).isEmpty();
    }
}
