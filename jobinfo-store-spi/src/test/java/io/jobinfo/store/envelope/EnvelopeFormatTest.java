package io.jobinfo.store.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.location.Location;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.Checksum;
import org.junit.jupiter.api.Test;

/** Envelope format versions: version 2 is written and records the initialization timestamp; version 1 is read. */
class EnvelopeFormatTest {
    private static final Location MEM = Location.of("mem:blob");

    private static final byte[] PAYLOAD = "the job's encoded bytes".getBytes(StandardCharsets.UTF_8);

    @Test
    void versionTwoIsWrittenAndCarriesTheInitializationTimestamp() throws Exception {
        byte[] envelope = BlobEnvelope.wrap(77, 1, 1_700_000_000_123L, PAYLOAD);
        assertThat(envelope).hasSize(EnvelopeHeader.V2_LENGTH + PAYLOAD.length);
        assertThat(ByteBuffer.wrap(envelope, 4, 2).getShort()).isEqualTo((short) 2);
        assertThat(ByteBuffer.wrap(envelope, 8, 2).getShort()).isEqualTo((short) 76);
        VerifiedBlob blob = BlobEnvelope.verify(envelope, 77, MEM);
        assertThat(blob.payload()).isEqualTo(PAYLOAD);
        assertThat(blob.header().formatVersion()).isEqualTo(2);
        assertThat(blob.header().hasInitializationTimestamp()).isTrue();
        assertThat(blob.header().initializationTimestamp()).isEqualTo(1_700_000_000_123L);
        assertThat(blob.header().blobLength()).isEqualTo(envelope.length);
        assertThat(BlobEnvelope.readHeader(new ByteArrayInputStream(envelope))).isEqualTo(blob.header());
    }

    @Test
    void anEnvelopeWrittenWithoutATimestampSaysSo() throws Exception {
        VerifiedBlob blob = BlobEnvelope.verify(BlobEnvelope.wrap(5, 1, PAYLOAD), 5, MEM);
        assertThat(blob.header().formatVersion()).isEqualTo(2);
        assertThat(blob.header().hasInitializationTimestamp()).isFalse();
    }

    /** A version 1 blob as jobinfo-store wrote it before version 2 (68-byte header), built byte by byte here. */
    @Test
    void versionOneIsStillRead() throws Exception {
        byte[] header = new byte[68];
        ByteBuffer buf = ByteBuffer.wrap(header);
        buf.put(EnvelopeHeader.MAGIC).putShort((short) 1).putShort((short) 1).putShort((short) 68)
                .putShort((short) 0).putLong(9).putLong(PAYLOAD.length);
        Checksum crc = Crc32c.create();
        crc.update(PAYLOAD, 0, PAYLOAD.length);
        buf.putInt((int) crc.getValue());
        buf.put(BlobEnvelope.sha256().digest(PAYLOAD));
        Checksum headerCrc = Crc32c.create();
        headerCrc.update(header, 0, 64);
        buf.putInt((int) headerCrc.getValue());
        byte[] envelope = Arrays.copyOf(header, 68 + PAYLOAD.length);
        System.arraycopy(PAYLOAD, 0, envelope, 68, PAYLOAD.length);

        VerifiedBlob blob = BlobEnvelope.verify(envelope, 9, MEM);
        assertThat(blob.payload()).isEqualTo(PAYLOAD);
        assertThat(blob.header().formatVersion()).isEqualTo(1);
        assertThat(blob.header().hasInitializationTimestamp()).isFalse();
        assertThat(blob.header().blobLength()).isEqualTo(envelope.length);
        assertThat(blob.header().toBytes()).isEqualTo(header);
        // a version 1 and a version 2 envelope of the same payload are different blobs
        assertThat(blob.header().describesSameBlob(BlobEnvelope.headerFor(9, 1, PAYLOAD))).isFalse();
    }

    @Test
    void anUnknownVersionAndABadHeaderChecksumAreRefusedNamingTheProblem() {
        byte[] envelope = BlobEnvelope.wrap(3, 1, 42L, PAYLOAD);
        byte[] version3 = envelope.clone();
        version3[5] = 3;
        assertThatThrownBy(() -> BlobEnvelope.verify(version3, 3, MEM))
                .isInstanceOf(EnvelopeFormatException.class).hasMessageContaining("unsupported format version 3");
        byte[] badTimestamp = envelope.clone();
        badTimestamp[70] ^= 1;
        assertThatThrownBy(() -> BlobEnvelope.verify(badTimestamp, 3, MEM))
                .isInstanceOf(EnvelopeFormatException.class).hasMessageContaining("header checksum mismatch");
        assertThatThrownBy(() -> BlobEnvelope.verify(Arrays.copyOf(envelope, 70), 3, MEM))
                .isInstanceOf(EnvelopeFormatException.class).hasMessageContaining("truncated header: 70 of 76");
    }

    @Test
    void theTimestampIsNotPartOfBlobIdentityButOfEquality() {
        EnvelopeHeader a = BlobEnvelope.headerFor(1, 1, 100L, PAYLOAD);
        EnvelopeHeader b = BlobEnvelope.headerFor(1, 1, 200L, PAYLOAD);
        assertThat(a.describesSameBlob(b)).isTrue();
        assertThat(a).isNotEqualTo(b);
        assertThatThrownBy(() -> new EnvelopeHeader(1, 1, 1, 0, 0, new byte[32], 5L))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
