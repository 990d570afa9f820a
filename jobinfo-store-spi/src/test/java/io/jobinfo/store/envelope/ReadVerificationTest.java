package io.jobinfo.store.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.location.Location;
import io.jobinfo.store.spi.testing.TestBlobs;
import java.io.ByteArrayInputStream;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The two read verification levels against each threat of docs/design.md ("Read verification"): torn writes, bit
 * rot, truncation and a blob of another job are detected by both; a deliberate rewrite that forges the CRC32C only
 * by {@link ReadVerification#FULL}, which is why it stays the default.
 */
class ReadVerificationTest {

    private static final long JOB = 4242;
    private static final long TS = 1_700_000_000_000L;
    private final byte[] payload = TestBlobs.randomPayload(7, 200_000);
    private final byte[] envelope = BlobEnvelope.wrap(JOB, 1, TS, payload);

    private static VerifiedBlob read(byte[] bytes, long jobId, ReadVerification level) throws Exception {
        return BlobEnvelope.readVerified(new ByteArrayInputStream(bytes), jobId, Location.of("test:" + jobId), level);
    }

    @ParameterizedTest
    @EnumSource(ReadVerification.class)
    void anIntactBlobPassesAndSaysWhatWasChecked(ReadVerification level) throws Exception {
        VerifiedBlob blob = read(envelope, JOB, level);
        assertThat(blob.payload()).isEqualTo(payload);
        assertThat(blob.verification()).isEqualTo(level);
    }

    @ParameterizedTest
    @EnumSource(ReadVerification.class)
    void tornWritesAreDetected(ReadVerification level) {
        Random r = new Random(1);
        byte[] other = BlobEnvelope.wrap(JOB, 1, TS, TestBlobs.randomPayload(8, payload.length));
        for (int i = 0; i < 100; i++) {
            int cut = EnvelopeHeader.LENGTH + 1 + r.nextInt(payload.length - 1);
            byte[] zeros = Arrays.copyOf(envelope, envelope.length); // the tail never reached the disk
            Arrays.fill(zeros, cut, zeros.length, (byte) 0);
            byte[] mixed = Arrays.copyOf(envelope, envelope.length); // the tail of another write of the same size
            System.arraycopy(other, cut, mixed, cut, mixed.length - cut);
            assertThatThrownBy(() -> read(zeros, JOB, level)).isInstanceOf(EnvelopeFormatException.class)
                    .hasMessageContaining("CRC32C mismatch");
            assertThatThrownBy(() -> read(mixed, JOB, level)).isInstanceOf(EnvelopeFormatException.class)
                    .hasMessageContaining("CRC32C mismatch");
        }
    }

    @ParameterizedTest
    @EnumSource(ReadVerification.class)
    void bitRotAnywhereIsDetected(ReadVerification level) {
        Random r = new Random(2);
        for (int i = 0; i < 100; i++) {
            byte[] oneBit = TestBlobs.flipBit(envelope, (long) r.nextInt(envelope.length * 8));
            assertThatThrownBy(() -> read(oneBit, JOB, level)).isInstanceOf(EnvelopeFormatException.class);
            byte[] burst = Arrays.copyOf(envelope, envelope.length);
            int at = r.nextInt(envelope.length - 64);
            for (int j = 0; j < 1 + r.nextInt(64); j++) {
                burst[at + j] ^= (byte) (1 + r.nextInt(255));
            }
            assertThatThrownBy(() -> read(burst, JOB, level)).isInstanceOf(EnvelopeFormatException.class);
        }
    }

    @ParameterizedTest
    @EnumSource(ReadVerification.class)
    void truncationAndTrailingBytesAreDetected(ReadVerification level) {
        for (int keep : new int[] {0, 3, 11, EnvelopeHeader.LENGTH - 1, EnvelopeHeader.LENGTH,
                EnvelopeHeader.LENGTH + 1, envelope.length / 2, envelope.length - 1}) {
            byte[] truncated = Arrays.copyOf(envelope, keep);
            assertThatThrownBy(() -> read(truncated, JOB, level)).as("kept " + keep)
                    .isInstanceOf(EnvelopeFormatException.class);
        }
        byte[] longer = Arrays.copyOf(envelope, envelope.length + 1);
        assertThatThrownBy(() -> read(longer, JOB, level)).isInstanceOf(EnvelopeFormatException.class)
                .hasMessageContaining("trailing bytes");
    }

    @ParameterizedTest
    @EnumSource(ReadVerification.class)
    void aBlobOfAnotherJobIsDetected(ReadVerification level) throws Exception {
        byte[] otherJob = BlobEnvelope.wrap(JOB + 1, 1, TS, payload);
        assertThatThrownBy(() -> read(otherJob, JOB, level)).isInstanceOf(EnvelopeFormatException.class)
                .hasMessageContaining("belongs to job " + (JOB + 1));
        // the same job id, other content (an id reused, or a blob restored from elsewhere): the blob is intact, but
        // its header's digest fields differ from those the submit recorded (the pointer's), which every load compares
        EnvelopeHeader submitted = BlobEnvelope.headerFor(JOB, 1, TS, payload);
        byte[] sameIdOtherJob = BlobEnvelope.wrap(JOB, 1, TS, TestBlobs.randomPayload(9, payload.length));
        VerifiedBlob read = read(sameIdOtherJob, JOB, level);
        assertThat(submitted.describesSameBlob(read.header())).isFalse();
        assertThat(submitted.describesSameBlob(read(envelope, JOB, level).header())).isTrue();
    }

    @Test
    void aDeliberateRewriteThatForgesTheCrc32cIsDetectedOnlyByFull() throws Exception {
        byte[] forged = Arrays.copyOf(envelope, envelope.length);
        byte[] evil = "{\"sink\":\"attacker\"}".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        System.arraycopy(evil, 0, forged, EnvelopeHeader.LENGTH + 100, evil.length);
        forgeCrc32c(forged, EnvelopeHeader.LENGTH, payload.length, EnvelopeHeader.LENGTH + 1000,
                Crc32c.of(payload, 0, payload.length));
        assertThat(Arrays.equals(forged, envelope)).isFalse();

        EnvelopeHeader submitted = BlobEnvelope.headerFor(JOB, 1, TS, payload);
        VerifiedBlob accepted = read(forged, JOB, ReadVerification.CRC32C);
        assertThat(submitted.describesSameBlob(accepted.header())).as("the header is untouched").isTrue();
        assertThat(accepted.payload()).as("CRC32C alone hands the rewritten payload over").isNotEqualTo(payload);

        assertThatThrownBy(() -> read(forged, JOB, ReadVerification.FULL)).isInstanceOf(EnvelopeFormatException.class)
                .hasMessageContaining("SHA-256 mismatch");
    }

    /**
     * Changes the 4 bytes at {@code at} so that the CRC32C of {@code bytes[off, off + len)} becomes {@code target}:
     * CRC32C is affine over GF(2), so the 32 effects of flipping each bit there span every difference, and a Gaussian
     * elimination finds the bits to flip. What an attacker with write access to the store does in microseconds.
     */
    private static void forgeCrc32c(byte[] bytes, int off, int len, int at, int target) {
        int base = Crc32c.of(bytes, off, len);
        int[] effect = new int[32];
        for (int bit = 0; bit < 32; bit++) {
            bytes[at + bit / 8] ^= (byte) (1 << (bit % 8));
            effect[bit] = Crc32c.of(bytes, off, len) ^ base;
            bytes[at + bit / 8] ^= (byte) (1 << (bit % 8));
        }
        // solve sum(x_bit * effect[bit]) = base ^ target over GF(2); rows are the 32 CRC bits
        int[] masks = new int[32]; // which input bits combine into each pivot's column
        int[] cols = effect.clone();
        for (int i = 0; i < 32; i++) {
            masks[i] = 1 << i;
        }
        int want = base ^ target;
        int chosen = 0;
        int[] pivotCol = new int[32];
        Arrays.fill(pivotCol, -1);
        for (int row = 0; row < 32; row++) {
            int p = -1;
            for (int c = 0; c < 32; c++) {
                if (!isPivot(pivotCol, c) && (cols[c] >>> row & 1) != 0) {
                    p = c;
                    break;
                }
            }
            if (p < 0) {
                throw new IllegalStateException("singular");
            }
            pivotCol[row] = p;
            for (int c = 0; c < 32; c++) {
                if (c != p && (cols[c] >>> row & 1) != 0) {
                    cols[c] ^= cols[p];
                    masks[c] ^= masks[p];
                }
            }
        }
        for (int row = 0; row < 32; row++) {
            int p = pivotCol[row];
            // after elimination cols[p] has its row bit set and no other pivot's row bit
            if ((want >>> row & 1) != 0) {
                chosen ^= masks[p];
            }
        }
        for (int bit = 0; bit < 32; bit++) {
            if ((chosen >>> bit & 1) != 0) {
                bytes[at + bit / 8] ^= (byte) (1 << (bit % 8));
            }
        }
        if (Crc32c.of(bytes, off, len) != target) {
            throw new IllegalStateException("forging failed");
        }
    }

    private static boolean isPivot(int[] pivotCol, int c) {
        for (int p : pivotCol) {
            if (p == c) {
                return true;
            }
        }
        return false;
    }
}
