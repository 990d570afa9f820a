package io.jobinfo.store.lifecycle;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.envelope.Hex;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;

/**
 * The value kept in {@code engine_runningJobInfo} in place of a job's blob: enough to find the blob (the id of the
 * store that holds it plus the job id; the location itself is derived from that store's configuration) and to check
 * that what is found is exactly what was written (length, CRC32C, the first 16 bytes of the SHA-256, codec and format
 * version).
 *
 * <p>Serialized with {@link IdentifiedDataSerializable} in at most 84 bytes (17 bytes of Hazelcast header, 59 bytes of
 * fields, a store id of at most 16 ASCII characters), so an entry costs about 200 bytes per replica instead of the
 * blob's size. Immutable once deserialized.
 */
public final class JobInfoPointer implements JobInfoSerializable {

    static final int SHA_PREFIX_BYTES = 16;

    private long jobId;
    private long initializationTimestamp;
    private long payloadLength;
    private int payloadCrc32c;
    private byte[] sha256Prefix;
    private int codecId;
    private int formatVersion;
    private String storeId;

    /** For Hazelcast deserialization only. */
    public JobInfoPointer() {
    }

    public JobInfoPointer(long jobId, long initializationTimestamp, String storeId, EnvelopeHeader header) {
        this(jobId, initializationTimestamp, storeId, header.payloadLength(), header.payloadCrc32c(),
                Arrays.copyOf(header.payloadSha256(), SHA_PREFIX_BYTES), header.codecId(), header.formatVersion());
    }

    JobInfoPointer(long jobId, long initializationTimestamp, String storeId, long payloadLength, int payloadCrc32c,
                   byte[] sha256Prefix, int codecId, int formatVersion) {
        if (storeId == null || storeId.isEmpty() || storeId.length() > 16) {
            throw new IllegalArgumentException("store id must be 1 to 16 characters: " + storeId);
        }
        this.jobId = jobId;
        this.initializationTimestamp = initializationTimestamp;
        this.storeId = storeId;
        this.payloadLength = payloadLength;
        this.payloadCrc32c = payloadCrc32c;
        this.sha256Prefix = sha256Prefix.clone();
        this.codecId = codecId;
        this.formatVersion = formatVersion;
    }

    /**
     * A pointer from its fields, as {@link #writeData} writes them; for readers of a pointer kept inside another
     * value class (SeaTunnel's drop-in reference).
     *
     * @throws IllegalArgumentException the store id is not 1 to 16 characters or the SHA-256 prefix is not 16 bytes
     */
    public static JobInfoPointer ofFields(long jobId, long initializationTimestamp, String storeId, long payloadLength,
                                          int payloadCrc32c, byte[] sha256Prefix, int codecId, int formatVersion) {
        if (sha256Prefix == null || sha256Prefix.length != SHA_PREFIX_BYTES) {
            throw new IllegalArgumentException("the SHA-256 prefix must be " + SHA_PREFIX_BYTES + " bytes");
        }
        return new JobInfoPointer(jobId, initializationTimestamp, storeId, payloadLength, payloadCrc32c, sha256Prefix,
                codecId, formatVersion);
    }

    /** The first 16 bytes of the payload's SHA-256 (a copy). */
    public byte[] sha256Prefix() {
        return sha256Prefix.clone();
    }

    public long jobId() {
        return jobId;
    }

    /** When the coordinator initialized the job (SeaTunnel's {@code JobInfo.initializationTimestamp}). */
    public long initializationTimestamp() {
        return initializationTimestamp;
    }

    /** Id of the store holding the blob; see {@link io.jobinfo.store.spi.JobInfoStore#storeId()}. */
    public String storeId() {
        return storeId;
    }

    public long payloadLength() {
        return payloadLength;
    }

    public int payloadCrc32c() {
        return payloadCrc32c;
    }

    public int codecId() {
        return codecId;
    }

    public int formatVersion() {
        return formatVersion;
    }

    public String sha256PrefixHex() {
        return Hex.format(sha256Prefix);
    }

    /** Serialized size of a pointer besides its store id's bytes, as the map stores it. */
    static final int SERIALIZED_OVERHEAD = 8 + 9 + 8 + 8 + 8 + 4 + 16 + 2 + 1 + 4;

    /** Serialized size of a pointer to a store of {@code storeId}, as the map stores it. */
    public static long serializedBytes(String storeId) {
        return SERIALIZED_OVERHEAD + storeId.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    /** Whether {@code header} describes the blob this pointer was written for. */
    public boolean matches(EnvelopeHeader header) {
        return header.jobId() == jobId && header.payloadLength() == payloadLength
                && header.payloadCrc32c() == payloadCrc32c && header.codecId() == codecId
                && header.formatVersion() == formatVersion
                && Arrays.equals(Arrays.copyOf(header.payloadSha256(), SHA_PREFIX_BYTES), sha256Prefix);
    }

    /** Same blob (ignores the initialization timestamp). */
    public boolean sameBlobAs(JobInfoPointer other) {
        return other != null && jobId == other.jobId && payloadLength == other.payloadLength
                && payloadCrc32c == other.payloadCrc32c && codecId == other.codecId
                && formatVersion == other.formatVersion && storeId.equals(other.storeId)
                && Arrays.equals(sha256Prefix, other.sha256Prefix);
    }

    @Override
    public int getClassId() {
        return JobInfoSerialization.POINTER_CLASS_ID;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeLong(jobId);
        out.writeLong(initializationTimestamp);
        out.writeLong(payloadLength);
        out.writeInt(payloadCrc32c);
        out.write(sha256Prefix);
        out.writeShort(codecId);
        out.writeByte(formatVersion);
        out.writeString(storeId);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        jobId = in.readLong();
        initializationTimestamp = in.readLong();
        payloadLength = in.readLong();
        payloadCrc32c = in.readInt();
        sha256Prefix = new byte[SHA_PREFIX_BYTES];
        in.readFully(sha256Prefix);
        codecId = Short.toUnsignedInt(in.readShort());
        formatVersion = Byte.toUnsignedInt(in.readByte());
        storeId = readString(in, "store id of the job info pointer of job " + jobId);
        if (storeId == null || storeId.isEmpty() || storeId.length() > 16) {
            throw new IOException("invalid store id in job info pointer of job " + jobId);
        }
    }

    /**
     * {@code in.readString()}, whose failures name {@code what}. On Hazelcast's byte-array inputs a length beyond the
     * value's bytes fails before anything is allocated (an index exception), which this turns into an
     * {@link IOException}.
     */
    static String readString(ObjectDataInput in, String what) throws IOException {
        try {
            return in.readString();
        } catch (IOException | RuntimeException e) {
            throw new IOException("the " + what + " cannot be read: " + e, e);
        }
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof JobInfoPointer)) {
            return false;
        }
        JobInfoPointer p = (JobInfoPointer) o;
        return sameBlobAs(p) && initializationTimestamp == p.initializationTimestamp;
    }

    @Override
    public int hashCode() {
        return Objects.hash(jobId, payloadCrc32c, storeId);
    }

    @Override
    public String toString() {
        return "JobInfoPointer{jobId=" + jobId + ", store=" + storeId + ", length=" + payloadLength + ", crc32c="
                + Integer.toHexString(payloadCrc32c) + ", sha256=" + sha256PrefixHex() + "..., codec=" + codecId
                + ", version=" + formatVersion + ", initializedAt=" + initializationTimestamp + '}';
    }
}
