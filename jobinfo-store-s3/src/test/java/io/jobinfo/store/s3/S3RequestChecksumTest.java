package io.jobinfo.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.s3.S3StoreSettings.ChecksumMode;
import io.jobinfo.store.s3.testing.S3FaultProxy;
import io.jobinfo.store.s3.testing.S3Fixture;
import io.jobinfo.store.s3.testing.S3FixtureExtension;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.spi.testing.TestBlobs;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code s3.request-checksum}: every mode writes and reads single-part and multipart blobs; {@code auto} keeps the
 * SDK's trailing CRC32C where the server takes it and falls back where the server refuses it, saying so in the one
 * INFO line of the start-up; an explicit mode the server refuses fails at start-up naming the setting. The refusing
 * server is the shared fixture behind {@link S3FaultProxy#refuseTrailingChecksums}, which answers trailing checksums
 * as Ceph RGW 16 does ({@code S3RgwTest} runs the same against RGW itself where it is installed).
 */
@ExtendWith(S3FixtureExtension.class)
class S3RequestChecksumTest {

    private final S3Fixture s3;
    private final String bucket;
    private S3FaultProxy rgwLike;

    S3RequestChecksumTest(S3Fixture s3) {
        this.s3 = s3;
        this.bucket = s3.createBucket("checksum");
    }

    @BeforeEach
    void proxy() throws Exception {
        rgwLike = new S3FaultProxy(s3.endpoint());
        rgwLike.refuseTrailingChecksums(true);
    }

    @AfterEach
    void closeProxy() throws Exception {
        rgwLike.close();
    }

    @Test
    void everyExplicitModeWritesAndReadsSingleAndMultipartBlobs() throws Exception {
        for (ChecksumMode mode : new ChecksumMode[] {ChecksumMode.CRC32C, ChecksumMode.WHEN_REQUIRED,
                ChecksumMode.UNCHUNKED}) {
            try (S3JobInfoStore store = (S3JobInfoStore) JobInfoStores.open(S3TestConfigs.builder(s3, bucket,
                    "/modes/" + mode + "/" + UUID.randomUUID()).option("s3.request-checksum", mode.toString())
                    .option("s3.multipart.threshold", "5MiB").option("s3.multipart.part-size", "5MiB").build())) {
                assertThat(store.checksumMode()).isEqualTo(mode);
                byte[] small = BlobEnvelope.wrap(1, 1, TestBlobs.payloadNamed(1));
                byte[] large = BlobEnvelope.wrap(2, 1, TestBlobs.randomPayload(2, (11 << 20) + 17));
                assertThat(store.create(1, BlobSource.ofBytes(small))).isEqualTo(CreateOutcome.CREATED);
                assertThat(store.create(2, BlobSource.ofBytes(large))).as("multipart in mode %s", mode)
                        .isEqualTo(CreateOutcome.CREATED);
                assertThat(store.create(2, BlobSource.ofBytes(large))).isEqualTo(CreateOutcome.ALREADY_PRESENT);
                assertThat(store.read(1).payload()).isEqualTo(TestBlobs.payloadNamed(1));
                assertThat(store.read(2).payload()).isEqualTo(TestBlobs.randomPayload(2, (11 << 20) + 17));
            }
        }
    }

    @Test
    void eachModeSendsTheBodyAsItSays() throws Exception {
        rgwLike.refuseTrailingChecksums(false);
        for (ChecksumMode mode : new ChecksumMode[] {ChecksumMode.CRC32C, ChecksumMode.WHEN_REQUIRED,
                ChecksumMode.UNCHUNKED}) {
            try (S3JobInfoStore store = (S3JobInfoStore) JobInfoStores.open(S3TestConfigs.builder(s3,
                    rgwLike.endpoint(), bucket, "/wire/" + mode + "/" + UUID.randomUUID())
                    .option("s3.request-checksum", mode.toString()).option("s3.multipart.threshold", "5MiB")
                    .option("s3.multipart.part-size", "5MiB").build())) {
                int before = rgwLike.putBodyEncodings().size();
                store.create(1, BlobSource.ofBytes(BlobEnvelope.wrap(1, 1, TestBlobs.payloadNamed(1))));
                store.create(2, BlobSource.ofBytes(BlobEnvelope.wrap(2, 1, TestBlobs.randomPayload(2, 6 << 20))));
                List<String> sent = rgwLike.putBodyEncodings().subList(before, rgwLike.putBodyEncodings().size());
                assertThat(sent).as("PutObject, UploadPart x2 in mode %s", mode).hasSize(3);
                switch (mode) {
                    case CRC32C:
                        assertThat(sent).allSatisfy(h -> assertThat(h).isEqualTo(
                                "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER"));
                        break;
                    case WHEN_REQUIRED:
                        assertThat(sent).allSatisfy(h -> assertThat(h).isEqualTo(
                                "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"));
                        break;
                    default:
                        assertThat(sent).allSatisfy(h -> assertThat(h).matches("[0-9a-f]{64}"));
                }
            }
        }
    }

    @Test
    void autoKeepsTheSdksChecksumWhereTheServerTakesItAndSaysSoInOneInfoLine() throws Exception {
        List<ILoggingEvent> events = new ArrayList<>();
        List<S3JobInfoStore> opened = new ArrayList<>();
        S3ConfigurationTest.withLogsCaptured(events, () -> opened.add((S3JobInfoStore) JobInfoStores.open(
                S3TestConfigs.builder(s3, bucket, "/auto-direct").build())));
        try (S3JobInfoStore store = opened.get(0)) {
            assertThat(store.checksumMode()).isEqualTo(ChecksumMode.CRC32C);
        }
        assertThat(verdictLines(events)).singleElement().asString()
                .contains("request checksums: crc32c (auto: the server accepts the AWS SDK's default)");
    }

    @Test
    void autoFallsBackToNoTrailingChecksumOnAServerRefusingItAndSaysWhy() throws Exception {
        List<ILoggingEvent> events = new ArrayList<>();
        List<S3JobInfoStore> opened = new ArrayList<>();
        S3ConfigurationTest.withLogsCaptured(events, () -> opened.add((S3JobInfoStore) JobInfoStores.open(
                S3TestConfigs.builder(s3, rgwLike.endpoint(), bucket, "/auto-refused")
                        .option("s3.multipart.threshold", "5MiB").build())));
        try (S3JobInfoStore store = opened.get(0)) {
            assertThat(store.checksumMode()).isEqualTo(ChecksumMode.WHEN_REQUIRED);
            int refusedAtStartUp = rgwLike.trailerRefusals();
            assertThat(refusedAtStartUp).as("the probe's first write in crc32c mode").isEqualTo(1);
            byte[] large = BlobEnvelope.wrap(7, 1, TestBlobs.randomPayload(7, 6 << 20));
            assertThat(store.create(7, BlobSource.ofBytes(large))).isEqualTo(CreateOutcome.CREATED);
            assertThat(store.create(8, BlobSource.ofBytes(BlobEnvelope.wrap(8, 1, TestBlobs.payloadNamed(8)))))
                    .isEqualTo(CreateOutcome.CREATED);
            assertThat(store.read(7).payload()).isEqualTo(TestBlobs.randomPayload(7, 6 << 20));
            assertThat(rgwLike.trailerRefusals()).as("no write of the open store carries a trailing checksum")
                    .isEqualTo(refusedAtStartUp);
        }
        assertThat(verdictLines(events)).singleElement().asString()
                .contains("request checksums: when-required (auto: the server refused crc32c with HTTP 400"
                        + " XAmzContentSHA256Mismatch");
    }

    @Test
    void anExplicitModeTheServerRefusesFailsAtStartUpNamingTheSetting() {
        assertThatThrownBy(() -> JobInfoStores.open(S3TestConfigs.builder(s3, rgwLike.endpoint(), bucket,
                "/crc-refused").option("s3.request-checksum", "crc32c").build()))
                .isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining("HTTP 400 XAmzContentSHA256Mismatch")
                .hasMessageContaining("in s3.request-checksum mode crc32c")
                .hasMessageContaining("jobinfo-storage.plugin-config.s3.request-checksum=when-required");
        // and the same server takes the mode the message names
        assertThat(rgwLike.trailerRefusals()).isEqualTo(1);
    }

    @Test
    void aWriteRefusedLaterNamesTheSettingToChange() throws Exception {
        // the store opens while the server takes trailing checksums; then the server (or a proxy before it) changes
        rgwLike.refuseTrailingChecksums(false);
        try (S3JobInfoStore store = (S3JobInfoStore) JobInfoStores.open(S3TestConfigs.builder(s3,
                rgwLike.endpoint(), bucket, "/crc-later").option("s3.request-checksum", "crc32c").build())) {
            rgwLike.refuseTrailingChecksums(true);
            assertThatThrownBy(() -> store.create(3, BlobSource.ofBytes(BlobEnvelope.wrap(3, 1,
                    TestBlobs.payloadNamed(3)))))
                    .isInstanceOf(JobInfoStoreException.class)
                    .hasMessageContaining("nothing was stored")
                    .hasMessageContaining("refused the request body as the AWS SDK sent it"
                            + " (jobinfo-storage.plugin-config.s3.request-checksum=crc32c)")
                    .hasMessageContaining("s3.request-checksum=when-required");
        }
    }

    private static List<String> verdictLines(List<ILoggingEvent> events) {
        return events.stream().filter(e -> e.getLevel() == Level.INFO)
                .map(ILoggingEvent::getFormattedMessage).filter(m -> m.contains("request checksums:"))
                .collect(Collectors.toList());
    }
}
