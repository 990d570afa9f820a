package io.jobinfo.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.s3.S3JobInfoStore.WriteMode;
import io.jobinfo.store.s3.S3StoreSettings.ChecksumMode;
import io.jobinfo.store.s3.testing.RgwInstalled;
import io.jobinfo.store.s3.testing.S3Fixture;
import io.jobinfo.store.spi.BlobAlreadyExistsException;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.spi.testing.TestBlobs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * The S3 store on Ceph's RADOS Gateway 16.2 (Debian's {@code radosgw}, {@link S3Fixture#rgw()}), a production S3
 * server that refuses the AWS SDK's default trailing checksums and ignores {@code If-None-Match: *} on
 * CompleteMultipartUpload while honouring it on PutObject. Skipped, naming what is missing, where Ceph is not
 * installed. Before request checksum modes and the single-PUT mode, the store could not open on it at all (its first
 * probe write was answered 400 XAmzContentSHA256Mismatch).
 */
@ExtendWith(RgwInstalled.class)
class S3RgwTest {

    private static S3Fixture rgw;
    private static String bucket;
    private static S3Client raw;

    @BeforeAll
    static void start() {
        rgw = S3Fixture.rgw();
        bucket = rgw.createBucket("rgw-store");
        raw = rgw.newClient();
    }

    @AfterAll
    static void close() {
        if (raw != null) {
            raw.close();
        }
    }

    private static io.jobinfo.store.config.JobInfoStorageConfig.Builder config(String namespace) {
        return S3TestConfigs.builder(rgw, bucket, namespace + "/" + UUID.randomUUID())
                .option("s3.multipart.threshold", "5MiB").option("s3.multipart.part-size", "5MiB");
    }

    @Test
    void autoChoosesNoTrailingChecksumAndSinglePutsAndLogsBothVerdictsInOneInfoLine() throws Exception {
        List<ILoggingEvent> events = new ArrayList<>();
        List<S3JobInfoStore> opened = new ArrayList<>();
        S3ConfigurationTest.withLogsCaptured(events, () -> opened.add((S3JobInfoStore) JobInfoStores.open(
                config("/auto").build())));
        try (S3JobInfoStore store = opened.get(0)) {
            assertThat(store.checksumMode()).isEqualTo(ChecksumMode.WHEN_REQUIRED);
            assertThat(store.writeMode()).isEqualTo(WriteMode.SINGLE_PUT);
            assertThat(store.conditionalWrites()).isTrue();
        }
        List<String> lines = events.stream().filter(e -> e.getLevel() == Level.INFO)
                .map(ILoggingEvent::getFormattedMessage).filter(m -> m.contains("request checksums:"))
                .collect(Collectors.toList());
        assertThat(lines).singleElement().asString()
                .contains("request checksums: when-required (auto: the server refused crc32c with HTTP 400"
                        + " XAmzContentSHA256Mismatch")
                .contains("verified on PutObject")
                .contains("ignored by CompleteMultipartUpload (CompleteMultipartUpload with If-None-Match: * on an"
                        + " existing key succeeded")
                .contains("every blob is one conditional PutObject");
    }

    @Test
    void theSdksDefaultModeIsRefusedWithAMessageNamingTheSetting() {
        assertThatThrownBy(() -> JobInfoStores.open(config("/crc").option("s3.request-checksum", "crc32c")
                .build()))
                .isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining("HTTP 400 XAmzContentSHA256Mismatch")
                .hasMessageContaining("jobinfo-storage.plugin-config.s3.request-checksum=when-required");
    }

    @Test
    void theUnchunkedModeWorksToo() throws Exception {
        try (S3JobInfoStore store = (S3JobInfoStore) JobInfoStores.open(config("/unchunked")
                .option("s3.request-checksum", "unchunked").build())) {
            byte[] envelope = BlobEnvelope.wrap(5, 1, TestBlobs.randomPayload(5, 6 << 20));
            assertThat(store.create(5, BlobSource.ofBytes(envelope))).isEqualTo(CreateOutcome.CREATED);
            assertThat(store.read(5).payload()).isEqualTo(TestBlobs.randomPayload(5, 6 << 20));
        }
    }

    /** The fact the single-PUT mode answers: RGW replaces an existing object on a conditional complete. */
    @Test
    void rgwIgnoresTheConditionOnCompleteSoTheProbeRefusesMultipartCreates() throws Exception {
        String key = "raw/" + UUID.randomUUID();
        raw.putObject(p -> p.bucket(bucket).key(key), RequestBody.fromString("first"));
        String id = raw.createMultipartUpload(c -> c.bucket(bucket).key(key)).uploadId();
        UploadPartResponse part = raw.uploadPart(u -> u.bucket(bucket).key(key).uploadId(id).partNumber(1),
                RequestBody.fromString("second"));
        raw.completeMultipartUpload(c -> c.bucket(bucket).key(key).uploadId(id).ifNoneMatch("*")
                .multipartUpload(m -> m.parts(p -> p.partNumber(1).eTag(part.eTag()))));
        assertThat(raw.getObjectAsBytes(g -> g.bucket(bucket).key(key)).asString(StandardCharsets.UTF_8))
                .as("RGW 16 completed over an existing key despite If-None-Match: *").isEqualTo("second");

        try (S3JobInfoStore store = (S3JobInfoStore) JobInfoStores.open(config("/probe").build())) {
            assertThat(store.writeMode()).as("multipart creates refused, single conditional PUTs instead")
                    .isEqualTo(WriteMode.SINGLE_PUT);
        }
        assertThat(raw.listMultipartUploads(l -> l.bucket(bucket).prefix("probe")).uploads()).isEmpty();
    }

    @Test
    void aSixMiBBlobIsOneConditionalPutAndEightRacingCreatorsLeaveExactlyOneWinner() throws Exception {
        int size = 6 << 20; // above the 5 MiB multipart threshold of this store
        ExecutorService pool = Executors.newFixedThreadPool(ConditionalWriteRaceProbe.WRITERS);
        try (S3JobInfoStore store = (S3JobInfoStore) JobInfoStores.open(config("/race").build())) {
            assertThat(store.writeMode()).isEqualTo(WriteMode.SINGLE_PUT);
            for (int round = 1; round <= 5; round++) {
                long jobId = 100 + round;
                CyclicBarrier start = new CyclicBarrier(ConditionalWriteRaceProbe.WRITERS);
                List<Future<CreateOutcome>> creators = new ArrayList<>();
                List<byte[]> envelopes = new ArrayList<>();
                for (int w = 0; w < ConditionalWriteRaceProbe.WRITERS; w++) {
                    byte[] envelope = BlobEnvelope.wrap(jobId, 1, TestBlobs.randomPayload(round * 100 + w, size));
                    envelopes.add(envelope);
                    creators.add(pool.submit(() -> {
                        start.await();
                        try {
                            return store.create(jobId, BlobSource.ofBytes(envelope));
                        } catch (BlobAlreadyExistsException lost) {
                            return null;
                        }
                    }));
                }
                int winner = -1;
                for (int w = 0; w < creators.size(); w++) {
                    CreateOutcome outcome = creators.get(w).get(5, TimeUnit.MINUTES);
                    if (outcome == CreateOutcome.CREATED) {
                        assertThat(winner).as("round %s: a second winner", round).isEqualTo(-1);
                        winner = w;
                    } else {
                        assertThat(outcome).as("round %s writer %s", round, w).isNull();
                    }
                }
                assertThat(winner).as("round %s: a winner", round).isNotEqualTo(-1);
                assertThat(store.read(jobId).payload()).isEqualTo(TestBlobs.randomPayload(round * 100 + winner,
                        size));

                // one PutObject: its ETag is the MD5 of the bytes (a completed multipart upload's ends in -<parts>)
                HeadObjectResponse head = raw.headObject(h -> h.bucket(bucket).key(store.key(jobId)));
                assertThat(head.contentLength()).isEqualTo(envelopes.get(winner).length);
                assertThat(head.eTag().replace("\"", "")).isEqualTo(HexFormat.of().formatHex(
                        MessageDigest.getInstance("MD5").digest(envelopes.get(winner))));
            }
            assertThat(raw.listMultipartUploads(l -> l.bucket(bucket).prefix(store.keyPrefix())).uploads())
                    .as("no multipart upload was started").isEmpty();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aBlobAboveFiveGiBIsRefusedBeforeAByteIsSent() throws Exception {
        long size = (5L << 30) + 1;
        try (S3JobInfoStore store = (S3JobInfoStore) JobInfoStores.open(config("/huge").build())) {
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
                    .hasMessageContaining("not on CompleteMultipartUpload");
            assertThat(raw.listObjectsV2(l -> l.bucket(bucket).prefix(store.keyPrefix())).contents()).isEmpty();
        }
    }
}
