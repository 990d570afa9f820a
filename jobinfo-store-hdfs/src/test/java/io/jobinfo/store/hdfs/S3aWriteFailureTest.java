package io.jobinfo.store.hdfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.s3.testing.S3Fixture;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.spi.OutcomeUnknownException;
import io.jobinfo.store.spi.testing.TestBlobs;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * On s3a:// a write that fails half-way is aborted: no object appears under the blob's name or anywhere in the
 * bucket (S3A would otherwise publish the partial bytes on close), and the job id stays free.
 */
class S3aWriteFailureTest {

    static String bucket;

    @BeforeAll
    static void bucket() {
        S3aJobInfoStoreContractTest.s3 = S3Fixture.shared();
        bucket = S3aJobInfoStoreContractTest.s3.createBucket("hdfs-s3a-failure");
    }

    @Test
    void aSourceFailingHalfWayIsAbortedAndLeavesNoObject() throws Exception {
        // large enough for a multipart upload (5 MiB parts): the first part is uploaded before the failure
        byte[] envelope = BlobEnvelope.wrap(6, 1, TestBlobs.randomPayload(6, 12 << 20));
        BlobSource failing = new BlobSource() {
            private int opens;

            @Override
            public long length() {
                return envelope.length;
            }

            @Override
            public synchronized InputStream open() {
                InputStream half = new java.io.ByteArrayInputStream(envelope, 0, envelope.length / 2);
                if (opens++ == 0) {
                    return new java.io.ByteArrayInputStream(envelope); // the header check
                }
                return new SequenceInputStream(half, new InputStream() {
                    @Override
                    public int read() throws IOException {
                        throw new IOException("source broke half-way (test fault)");
                    }
                });
            }
        };
        try (JobInfoStore store = JobInfoStores.open(S3aJobInfoStoreContractTest
                .s3aConfig(bucket, "/jobinfo/" + UUID.randomUUID())
                .option("fs.s3a.multipart.size", "5M").option("fs.s3a.multipart.threshold", "5M").build())) {
            assertThatThrownBy(() -> store.create(6, failing))
                    .isInstanceOf(JobInfoStoreException.class)
                    .isNotInstanceOf(OutcomeUnknownException.class)
                    .hasMessageContaining("nothing was stored").hasMessageContaining("jobId=6");
            assertThatThrownBy(() -> store.read(6)).isInstanceOf(BlobNotFoundException.class);
            assertThat(store.list()).isEmpty();
            try (S3Client s3 = S3aJobInfoStoreContractTest.s3.newClient()) {
                // S3A may leave an empty directory marker ("<namespace>/"): no object with data, though
                assertThat(s3.listObjectsV2(b -> b.bucket(bucket)).contents())
                        .allSatisfy(o -> assertThat(o.key()).endsWith("/"))
                        .allSatisfy(o -> assertThat(o.size()).isZero());
                assertThat(s3.listMultipartUploads(b -> b.bucket(bucket)).uploads())
                        .as("the multipart upload was aborted").isEmpty();
            }
            assertThat(store.create(6, BlobSource.ofBytes(envelope))).isEqualTo(CreateOutcome.CREATED);
            assertThat(store.read(6).payload()).hasSize(12 << 20);
        }
    }
}
