package io.jobinfo.store.envelope;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.Checksum;

/**
 * The fixed-size header in front of every stored payload.
 *
 * <pre>
 * offset size field
 *      0    4 magic "JISB"
 *      4    2 format version (1)
 *      6    2 codec id (see {@link io.jobinfo.store.codec.JobInfoCodec#id()})
 *      8    2 header length in bytes (68 for version 1)
 *     10    2 flags (0; reserved)
 *     12    8 job id
 *     20    8 payload length
 *     28    4 CRC32C of the payload
 *     32   32 SHA-256 of the payload
 *     64    4 CRC32C of bytes 0..63 (the header itself)
 * </pre>
 * All integers are big-endian.
 */
public final class EnvelopeHeader {
    public static final byte[] MAGIC = {'J', 'I', 'S', 'B'};
    public static final int CURRENT_VERSION = 1;
    public static final int LENGTH = 68;

    private final int formatVersion;
    private final int codecId;
    private final long jobId;
    private final long payloadLength;
    private final int payloadCrc32c;
    private final byte[] payloadSha256;

    public EnvelopeHeader(int formatVersion, int codecId, long jobId, long payloadLength, int payloadCrc32c,
            byte[] payloadSha256) {
        if (payloadSha256 == null || payloadSha256.length != 32) {
            throw new IllegalArgumentException("payloadSha256 must be 32 bytes");
        }
        if (payloadLength < 0) {
            throw new IllegalArgumentException("payloadLength must not be negative: " + payloadLength);
        }
        if (codecId < 0 || codecId > 0xFFFF) {
            throw new IllegalArgumentException("codecId must fit in 16 bits: " + codecId);
        }
        payloadSha256 = payloadSha256.clone();
        this.formatVersion = formatVersion;
        this.codecId = codecId;
        this.jobId = jobId;
        this.payloadLength = payloadLength;
        this.payloadCrc32c = payloadCrc32c;
        this.payloadSha256 = payloadSha256;
    }

    public int formatVersion() {
        return formatVersion;
    }

    public int codecId() {
        return codecId;
    }

    public long jobId() {
        return jobId;
    }

    public long payloadLength() {
        return payloadLength;
    }

    public int payloadCrc32c() {
        return payloadCrc32c;
    }

    /** Total stored size: header plus payload. */
    public long blobLength() {
        return LENGTH + payloadLength;
    }

    public byte[] payloadSha256() {
        return payloadSha256.clone();
    }

    public String sha256Hex() {
        return Hex.format(payloadSha256);
    }

    public byte[] toBytes() {
        ByteBuffer buf = ByteBuffer.allocate(LENGTH);
        buf.put(MAGIC);
        buf.putShort((short) formatVersion);
        buf.putShort((short) codecId);
        buf.putShort((short) LENGTH);
        buf.putShort((short) 0);
        buf.putLong(jobId);
        buf.putLong(payloadLength);
        buf.putInt(payloadCrc32c);
        buf.put(payloadSha256);
        Checksum crc = Crc32c.create();
        crc.update(buf.array(), 0, LENGTH - 4);
        buf.putInt((int) crc.getValue());
        return buf.array();
    }

    /**
     * Parses and checks a header: magic, header checksum, version, header length.
     *
     * @throws EnvelopeFormatException naming what is wrong
     */
    public static EnvelopeHeader parse(byte[] bytes, int length) throws EnvelopeFormatException {
        if (length < LENGTH) {
            throw new EnvelopeFormatException("truncated header: " + length + " of " + LENGTH + " bytes");
        }
        if (bytes[0] != MAGIC[0] || bytes[1] != MAGIC[1] || bytes[2] != MAGIC[2] || bytes[3] != MAGIC[3]) {
            throw new EnvelopeFormatException("bad magic " + Hex.format(bytes, 0, 4)
                    + " (expected 4a495342, \"JISB\"): not a job blob");
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes, 0, LENGTH);
        buf.position(4);
        int version = Short.toUnsignedInt(buf.getShort());
        int codecId = Short.toUnsignedInt(buf.getShort());
        int headerLength = Short.toUnsignedInt(buf.getShort());
        buf.getShort(); // flags
        long jobId = buf.getLong();
        long payloadLength = buf.getLong();
        int crc32c = buf.getInt();
        byte[] sha = new byte[32];
        buf.get(sha);
        int headerCrc = buf.getInt();
        Checksum crc = Crc32c.create();
        crc.update(bytes, 0, LENGTH - 4);
        if ((int) crc.getValue() != headerCrc) {
            if (version != CURRENT_VERSION) {
                throw new EnvelopeFormatException("unsupported format version " + version + " (this reader knows "
                        + CURRENT_VERSION + "); upgrade jobinfo-store to read it");
            }
            throw new EnvelopeFormatException("header checksum mismatch");
        }
        if (version != CURRENT_VERSION) {
            throw new EnvelopeFormatException("unsupported format version " + version + " (this reader knows "
                    + CURRENT_VERSION + "); upgrade jobinfo-store to read it");
        }
        if (headerLength != LENGTH) {
            throw new EnvelopeFormatException("header length " + headerLength + " does not match version " + version);
        }
        if (payloadLength < 0) {
            throw new EnvelopeFormatException("negative payload length " + payloadLength);
        }
        return new EnvelopeHeader(version, codecId, jobId, payloadLength, crc32c, sha);
    }

    /** Same payload (length and both checksums), same codec, same job id. */
    public boolean describesSameBlob(EnvelopeHeader other) {
        return other != null && formatVersion == other.formatVersion && codecId == other.codecId
                && jobId == other.jobId && payloadLength == other.payloadLength
                && payloadCrc32c == other.payloadCrc32c && Arrays.equals(payloadSha256, other.payloadSha256);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EnvelopeHeader && describesSameBlob((EnvelopeHeader) o);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(jobId) * 31 + payloadCrc32c;
    }

    @Override
    public String toString() {
        return "EnvelopeHeader{version=" + formatVersion + ", codecId=" + codecId + ", jobId=" + jobId
                + ", payloadLength=" + payloadLength + ", crc32c=" + Integer.toHexString(payloadCrc32c)
                + ", sha256=" + sha256Hex() + '}';
    }
}
