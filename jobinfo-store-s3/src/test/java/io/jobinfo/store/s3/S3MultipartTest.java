package io.jobinfo.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.s3.testing.S3Fixture;
import io.jobinfo.store.s3.testing.S3FixtureExtension;
import io.jobinfo.store.spi.BlobAlreadyExistsException;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.spi.StoredBlob;
import io.jobinfo.store.spi.testing.TestBlobs;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

/** Multipart writes (5 MiB threshold and parts here): atomic, conditional, and never leaving an upload behind. */
@ExtendWith(S3FixtureExtension.class)
class S3MultipartTest {

    private static final int SIZE = 12 << 20; // three parts

    private final S3Fixture s3;
    private final String bucket;
    private S3JobInfoStore store;
    private S3Client raw;

    S3MultipartTest(S3Fixture s3) {
        this.s3 = s3;
        this.bucket = s3.createBucket("multipart");
    }

    @BeforeEach
    void open() throws Exception {
        store = (S3JobInfoStore) JobInfoStores.open(S3TestConfigs.builder(s3, bucket, "mp/" + UUID.randomUUID())
                .option("s3.multipart.threshold", "5MiB").option("s3.multipart.part-size", "5MiB").build());
        raw = s3.newClient();
    }

    @AfterEach
    void close() {
        store.close();
        raw.close();
    }

    private List<MultipartUpload> uploadsInBucket() {
        return raw.listMultipartUploads(l -> l.bucket(bucket)).uploads();
    }

    @Test
    void aSourceFailingMidwayLeavesNoUploadAndNoBlob() {
        byte[] envelope = BlobEnvelope.wrap(1, 1, TestBlobs.randomPayload(1, SIZE));
        BlobSource failing = new BlobSource() {
            private int opens;

            @Override
            public long length() {
                return envelope.length;
            }

            @Override
            public synchronized InputStream open() {
                if (opens++ == 0) {
                    return new ByteArrayInputStream(envelope); // create's check of the whole envelope
                }
                return new FilterInputStream(new ByteArrayInputStream(envelope)) {
                    private long read;

                    @Override
                    public int read(byte[] b, int off, int len) throws IOException {
                        if (read > (7 << 20)) { // after the first part went up
                            throw new IOException("disk went away (injected)");
                        }
                        int n = super.read(b, off, len);
                        read += Math.max(n, 0);
                        return n;
                    }
                };
            }
        };
        assertThatThrownBy(() -> store.create(1, failing))
                .isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining("injected")
                .hasMessageContaining("jobId=1");
        assertThat(uploadsInBucket()).isEmpty();
        assertThatThrownBy(() -> store.read(1)).isInstanceOf(BlobNotFoundException.class);
    }

    @Test
    void aShortSourceLeavesNoUpload() {
        byte[] envelope = BlobEnvelope.wrap(2, 1, TestBlobs.randomPayload(2, SIZE));
        BlobSource lying = new BlobSource() {
            private int opens;

            @Override
            public long length() {
                return envelope.length;
            }

            @Override
            public synchronized InputStream open() {
                // intact for create's check of the whole envelope; then the payload ends 1 MiB early (a source that
                // changed between reads), which the multipart write itself must catch
                return opens++ == 0 ? new ByteArrayInputStream(envelope)
                        : new ByteArrayInputStream(envelope, 0, envelope.length - (1 << 20));
            }
        };
        assertThatThrownBy(() -> store.create(2, lying)).isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining("declared");
        assertThat(uploadsInBucket()).isEmpty();
        assertThatThrownBy(() -> store.read(2)).isInstanceOf(BlobNotFoundException.class);
    }

    @Test
    void aConditionalCompletionOnAnExistingKeyKeepsTheFirstAndLeavesNoUpload() throws Exception {
        byte[] first = BlobEnvelope.wrap(3, 1, TestBlobs.randomPayload(3, SIZE));
        byte[] other = BlobEnvelope.wrap(3, 1, TestBlobs.randomPayload(4, SIZE));
        assertThat(store.create(3, BlobSource.ofBytes(first))).isEqualTo(CreateOutcome.CREATED);
        assertThat(store.create(3, BlobSource.ofBytes(first))).isEqualTo(CreateOutcome.ALREADY_PRESENT);
        assertThatThrownBy(() -> store.create(3, BlobSource.ofBytes(other)))
                .isInstanceOf(BlobAlreadyExistsException.class);
        assertThat(uploadsInBucket()).isEmpty();
        try (InputStream in = store.openRaw(3)) {
            assertThat(in.readAllBytes()).isEqualTo(first);
        }
    }

    @Test
    void anAbandonedUploadIsListedAsIncompleteAndDeleteIncompleteAbortsIt() throws Exception {
        String uploadId = raw.createMultipartUpload(c -> c.bucket(bucket).key(store.key(9))).uploadId();
        // an upload of a key that is not a blob name is not ours
        String foreign = raw.createMultipartUpload(c -> c.bucket(bucket).key(store.keyPrefix() + "other.bin"))
                .uploadId();

        List<StoredBlob> listed = store.list();
        assertThat(listed).singleElement().satisfies(b -> {
            assertThat(b.incomplete()).isTrue();
            assertThat(b.jobId()).isEqualTo(9);
            assertThat(b.location().parent()).isEqualTo(store.location(9).parent());
            assertThat(b.location().fileName()).isEqualTo(store.location(9).fileName());
            assertThat(b.location().toString()).startsWith(store.location(9) + "?uploadId=");
        });
        assertThatThrownBy(() -> store.read(9)).isInstanceOf(BlobNotFoundException.class);

        assertThat(store.deleteIncomplete(listed.get(0))).isTrue();
        assertThat(store.deleteIncomplete(listed.get(0))).isFalse();
        assertThat(store.list()).isEmpty();
        assertThat(uploadsInBucket()).extracting(MultipartUpload::uploadId).containsExactly(foreign)
                .doesNotContain(uploadId);
        raw.abortMultipartUpload(a -> a.bucket(bucket).key(store.keyPrefix() + "other.bin").uploadId(foreign));
    }
}
