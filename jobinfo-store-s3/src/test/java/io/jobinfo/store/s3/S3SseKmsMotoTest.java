package io.jobinfo.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.testing.TestBlobs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/**
 * {@code s3.sse=kms} against a server that implements KMS: moto_server, with a customer key created through moto's
 * KMS API. Single-part and multipart blobs are stored under that key (the object's metadata names {@code aws:kms}
 * and the key) and read back verified.
 *
 * <p>Moto's conditional writes are not atomic under races (see {@link S3RacingConditionalWritesTest}), so the store
 * starts here with {@code s3.allow-unconditional-writes=true}; this test is about encryption only. Moto keeps the
 * bytes it is given (it does not really encrypt), so what is shown is that the store sends the SSE-KMS request
 * headers on PutObject and CreateMultipartUpload and that the server accepts and records them.
 */
class S3SseKmsMotoTest {

    private static MotoServer moto;
    private static String keyId;

    @BeforeAll
    static void start() throws Exception {
        moto = MotoServer.start();
        keyId = moto.createKmsKey("jobinfo sse-kms test");
        try (S3Client s3 = client()) {
            s3.createBucket(b -> b.bucket("kms"));
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (moto != null) {
            moto.close();
        }
    }

    private static S3Client client() {
        return S3Client.builder().endpointOverride(moto.endpoint()).forcePathStyle(true).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("any", "any")))
                .httpClientBuilder(ApacheHttpClient.builder()).build();
    }

    @Test
    void blobsAreStoredUnderTheConfiguredKmsKeySingleAndMultipart() throws Exception {
        JobInfoStorageConfig config = JobInfoStorageConfig.builder("s3").namespace("/sse")
                .option("s3.bucket", "kms").option("s3.endpoint", moto.endpoint().toString())
                .option("s3.access-key", "any").option("s3.secret-key", "any")
                .option("s3.allow-unconditional-writes", "true").option("s3.probe.race-rounds", "1")
                .option("s3.sse", "kms").option("s3.sse-kms-key-id", keyId)
                .option("s3.multipart.threshold", "5MiB").option("s3.multipart.part-size", "5MiB")
                .build();
        byte[] small = BlobEnvelope.wrap(1, 1, TestBlobs.randomPayload(1, 100_000));
        byte[] large = BlobEnvelope.wrap(2, 1, TestBlobs.randomPayload(2, 11 << 20));
        try (S3JobInfoStore store = (S3JobInfoStore) io.jobinfo.store.spi.JobInfoStores.open(config);
             S3Client raw = client()) {
            assertThat(store.create(1, BlobSource.ofBytes(small))).isEqualTo(CreateOutcome.CREATED);
            assertThat(store.create(2, BlobSource.ofBytes(large))).isEqualTo(CreateOutcome.CREATED);
            for (long id : new long[] {1, 2}) {
                HeadObjectResponse head = raw.headObject(h -> h.bucket("kms").key(store.key(id)));
                assertThat(head.serverSideEncryption()).as("job %s", id).isEqualTo(ServerSideEncryption.AWS_KMS);
                assertThat(head.ssekmsKeyId()).as("job %s", id).contains(keyId);
            }
            assertThat(store.read(1).payload()).isEqualTo(BlobEnvelope.verify(small, 1, store.location(1)).payload());
            assertThat(store.read(2).payload()).isEqualTo(BlobEnvelope.verify(large, 2, store.location(2)).payload());
        }
    }
}
