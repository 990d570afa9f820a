package io.jobinfo.store.envelope;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.Checksum;

/**
 * The header in front of every stored payload. Two format versions are read; version 2 is written.
 *
 * <pre>
 * offset size field
 *      0    4 magic "JISB"
 *      4    2 format version (1 or 2)
 *      6    2 codec id (see {@link io.jobinfo.store.codec.JobInfoCodec#id()})
 *      8    2 header length in bytes (68 for version 1, 76 for version 2)
 *     10    2 flags (0; reserved)
 *     12    8 job id
 *     20    8 payload length
 *     28    4 CRC32C of the payload
 *     32   32 SHA-256 of the payload
 * version 1:
 *     64    4 CRC32C of bytes 0..63 (the header itself)
 * version 2:
 *     64    8 initialization timestamp of the job, milliseconds since the epoch ({@link #NO_TIMESTAMP}: not recorded)
 *     72    4 CRC32C of bytes 0..71 (the header itself)
 * </pre>
 * All integers are big-endian. Version 2 carries everything a {@code JobInfoPointer} holds (the store id comes from
 * the store that holds the blob), so a pointer lost with its map partition can be rebuilt from the blob alone.
 */
public final class EnvelopeHeader {
    public static final byte[] MAGIC = {'J', 'I', 'S', 'B'};
    /** The version this code writes. */
    public static final int CURRENT_VERSION = 2;
    /** Header length of format version 1 (read, no longer written). */
    public static final int V1_LENGTH = 68;
    /** Header length of format version 2. */
    public static final int V2_LENGTH = 76;
    /** Header length of the version this code writes ({@link #CURRENT_VERSION}): the header room to leave. */
    public static final int LENGTH = V2_LENGTH;
    /** Bytes before anything version-specific: magic, version, codec id, header length, flags. */
    static final int PREFIX = 12;
    /** The initialization timestamp of a header that does not record one (every version 1 header). */
    public static final long NO_TIMESTAMP = Long.MIN_VALUE;

    private final int formatVersion;
    private final int codecId;
    private final long jobId;
    private final long payloadLength;
    private final int payloadCrc32c;
    private final byte[] payloadSha256;
    private final long initializationTimestamp;

    /** A header without an initialization timestamp. */
    public EnvelopeHeader(int formatVersion, int codecId, long jobId, long payloadLength, int payloadCrc32c,
            byte[] payloadSha256) {
        this(formatVersion, codecId, jobId, payloadLength, payloadCrc32c, payloadSha256, NO_TIMESTAMP);
    }

    /**
     * @param initializationTimestamp when the job was initialized (milliseconds since the epoch), or
     *                                {@link #NO_TIMESTAMP}; version 1 cannot record one
     * @throws IllegalArgumentException an unknown version, a version 1 header with a timestamp, or a bad field
     */
    public EnvelopeHeader(int formatVersion, int codecId, long jobId, long payloadLength, int payloadCrc32c,
            byte[] payloadSha256, long initializationTimestamp) {
        if (formatVersion != 1 && formatVersion != 2) {
            throw new IllegalArgumentException("format version must be 1 or 2: " + formatVersion);
        }
        if (formatVersion == 1 && initializationTimestamp != NO_TIMESTAMP) {
            throw new IllegalArgumentException("format version 1 cannot record an initialization timestamp");
        }
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
        this.initializationTimestamp = initializationTimestamp;
    }

    /** Header length of {@code version}, or -1 for a version this code does not know. */
    public static int lengthOf(int version) {
        return version == 1 ? V1_LENGTH : version == 2 ? V2_LENGTH : -1;
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

    /** Length of this header in bytes (by its version). */
    public int headerLength() {
        return lengthOf(formatVersion);
    }

    /** Total stored size: header plus payload. */
    public long blobLength() {
        return headerLength() + payloadLength;
    }

    /** Whether the header records the job's initialization timestamp (version 2 headers written with one). */
    public boolean hasInitializationTimestamp() {
        return initializationTimestamp != NO_TIMESTAMP;
    }

    /** The job's initialization timestamp, or {@link #NO_TIMESTAMP}. */
    public long initializationTimestamp() {
        return initializationTimestamp;
    }

    public byte[] payloadSha256() {
        return payloadSha256.clone();
    }

    public String sha256Hex() {
        return Hex.format(payloadSha256);
    }

    public byte[] toBytes() {
        int length = headerLength();
        ByteBuffer buf = ByteBuffer.allocate(length);
        buf.put(MAGIC);
        buf.putShort((short) formatVersion);
        buf.putShort((short) codecId);
        buf.putShort((short) length);
        buf.putShort((short) 0);
        buf.putLong(jobId);
        buf.putLong(payloadLength);
        buf.putInt(payloadCrc32c);
        buf.put(payloadSha256);
        if (formatVersion >= 2) {
            buf.putLong(initializationTimestamp);
        }
        Checksum crc = Crc32c.create();
        crc.update(buf.array(), 0, length - 4);
        buf.putInt((int) crc.getValue());
        return buf.array();
    }

    /**
     * The header length that the first {@link #PREFIX} bytes announce (by the version field), after checking the
     * magic.
     *
     * @throws EnvelopeFormatException bad magic or an unknown version
     */
    static int announcedLength(byte[] bytes, int length) throws EnvelopeFormatException {
        if (length < PREFIX) {
            throw new EnvelopeFormatException("truncated header: " + length + " of " + V1_LENGTH + " bytes");
        }
        if (bytes[0] != MAGIC[0] || bytes[1] != MAGIC[1] || bytes[2] != MAGIC[2] || bytes[3] != MAGIC[3]) {
            throw new EnvelopeFormatException("bad magic " + Hex.format(bytes, 0, 4)
                    + " (expected 4a495342, \"JISB\"): not a job blob");
        }
        int version = ((bytes[4] & 0xFF) << 8) | (bytes[5] & 0xFF);
        int headerLength = lengthOf(version);
        if (headerLength < 0) {
            throw new EnvelopeFormatException("unsupported format version " + version + " (this reader knows 1 and "
                    + CURRENT_VERSION + "); upgrade jobinfo-store to read it");
        }
        return headerLength;
    }

    /**
     * Parses and checks a header of either version: magic, version, header checksum, header length.
     *
     * @throws EnvelopeFormatException naming what is wrong
     */
    public static EnvelopeHeader parse(byte[] bytes, int length) throws EnvelopeFormatException {
        int expected = announcedLength(bytes, length);
        if (length < expected) {
            throw new EnvelopeFormatException("truncated header: " + length + " of " + expected + " bytes");
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes, 0, expected);
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
        long timestamp = version >= 2 ? buf.getLong() : NO_TIMESTAMP;
        int headerCrc = buf.getInt();
        Checksum crc = Crc32c.create();
        crc.update(bytes, 0, expected - 4);
        if ((int) crc.getValue() != headerCrc) {
            throw new EnvelopeFormatException("header checksum mismatch");
        }
        if (headerLength != expected) {
            throw new EnvelopeFormatException("header length " + headerLength + " does not match version " + version);
        }
        if (payloadLength < 0) {
            throw new EnvelopeFormatException("negative payload length " + payloadLength);
        }
        if (version == 1 && timestamp != NO_TIMESTAMP) {
            throw new EnvelopeFormatException("version 1 header with a timestamp");
        }
        return new EnvelopeHeader(version, codecId, jobId, payloadLength, crc32c, sha, timestamp);
    }

    /**
     * Same payload (length and both checksums), same codec, same job id, same format version. The initialization
     * timestamp is not compared: a create whose envelope differs from the stored one only in it is
     * {@code ALREADY_PRESENT}, and the stored blob (with the timestamp of the write that created it) is kept.
     */
    public boolean describesSameBlob(EnvelopeHeader other) {
        return other != null && formatVersion == other.formatVersion && codecId == other.codecId
                && jobId == other.jobId && payloadLength == other.payloadLength
                && payloadCrc32c == other.payloadCrc32c && Arrays.equals(payloadSha256, other.payloadSha256);
    }

    /** {@link #describesSameBlob} and the same initialization timestamp. */
    @Override
    public boolean equals(Object o) {
        return o instanceof EnvelopeHeader && describesSameBlob((EnvelopeHeader) o)
                && initializationTimestamp == ((EnvelopeHeader) o).initializationTimestamp;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(jobId) * 31 + payloadCrc32c;
    }

    @Override
    public String toString() {
        return "EnvelopeHeader{version=" + formatVersion + ", codecId=" + codecId + ", jobId=" + jobId
                + ", payloadLength=" + payloadLength + ", crc32c=" + Integer.toHexString(payloadCrc32c)
                + ", sha256=" + sha256Hex()
                + (hasInitializationTimestamp() ? ", initializedAt=" + initializationTimestamp : "") + '}';
    }
}
