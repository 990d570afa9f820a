package io.jobinfo.store.seatunnel;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.impl.HeapData;
import io.jobinfo.store.codec.AbstractJobInfoCodec;
import io.jobinfo.store.codec.CodecException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.apache.seatunnel.engine.core.serializable.JobDataSerializerHook;

/**
 * SeaTunnel's own job, stored exactly as SeaTunnel serializes it: the bytes of the Hazelcast {@link Data} that
 * holds a {@code org.apache.seatunnel.engine.core.job.JobImmutableInformation} (what a {@code JobInfo} in
 * {@code engine_runningJobInfo} carries), byte for byte. Codec id {@value #ID}.
 *
 * <p>Decoding returns a {@link HeapData} over the stored bytes and deserializes nothing: the engine turns it into a
 * {@code JobImmutableInformation} with its own serialization service, as it does with the map's value today. Both
 * directions first check the bytes with {@link #inspect(byte[])}: Hazelcast's Data header (partition hash 0, type
 * id of {@code DataSerializable}), the identified-serializable header (SeaTunnel's job factory id,
 * {@code JobDataSerializerHook.FACTORY_ID}, and class id {@code JOB_IMMUTABLE_INFORMATION}), then the job's leading
 * fields, read as primitives at their offsets, up to and including the length and header of its logical DAG
 * (SeaTunnel 2.3.8) or of its first logical vertex (2.3.10, which writes the vertices before the DAG). Hazelcast's
 * layout is the same in 5.1 through 5.7.
 *
 * <p>Thread-safe and stateless.
 */
public final class SeaTunnelJobDataCodec extends AbstractJobInfoCodec<Data> {

    /** The codec id recorded in every envelope this codec writes. */
    public static final int ID = 2;

    /** Name used in messages. */
    public static final String NAME = "seatunnel-job-data-v1";

    /** Hazelcast's type id of {@code DataSerializable} ({@code SerializationConstants.CONSTANT_TYPE_DATA_SERIALIZABLE}). */
    static final int TYPE_DATA_SERIALIZABLE = -2;
    /** Hazelcast's type id of a serialized null. */
    private static final int TYPE_NULL = 0;
    /** Size of Hazelcast's Data header: partition hash and type id, both big-endian. */
    static final int DATA_HEADER = 8;
    /** Identified-serializable header: one flag byte, factory id, class id. */
    private static final int IDS_HEADER = 9;
    private static final int FLAG_IDENTIFIED = 1;
    /** Set by Hazelcast Enterprise for versioned objects; two version bytes follow the class id. */
    private static final int FLAG_VERSIONED = 1 << 1;
    /** The smallest serialized job: both headers and the job id. */
    static final int MIN_LENGTH = DATA_HEADER + IDS_HEADER + 8;

    public SeaTunnelJobDataCodec() {
        super(ID, NAME, Data.class);
    }

    /**
     * Returns the job's bytes ({@link Data#toByteArray()}; for a {@link HeapData} its own array, not a copy).
     *
     * @throws IllegalArgumentException the Data is null or does not hold a SeaTunnel JobImmutableInformation; the
     *                                  message says what is wrong
     */
    @Override
    public byte[] encode(Data job) {
        byte[] bytes = bytesOf(job);
        try {
            inspect(bytes);
        } catch (CodecException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return bytes;
    }

    /**
     * Checks {@code payload} ({@link #inspect(byte[])}) and returns a {@link HeapData} over it (not copied: the caller
     * must not change the array afterwards).
     *
     * @throws CodecException the bytes are not a SeaTunnel JobImmutableInformation; the message names the job id
     *                        when it could be read, and what is wrong
     */
    @Override
    public Data decode(byte[] payload) throws CodecException {
        check(payload, null);
        return new HeapData(payload);
    }

    /**
     * Like {@link #decode(byte[])}, and also checks that the bytes belong to {@code expectedJobId}.
     *
     * @throws CodecException the bytes are not a SeaTunnel JobImmutableInformation of job {@code expectedJobId}
     */
    public Data decode(long expectedJobId, byte[] payload) throws CodecException {
        check(payload, expectedJobId);
        return new HeapData(payload);
    }

    /**
     * Reads and checks the leading fields of a serialized JobImmutableInformation without deserializing any object.
     *
     * @throws CodecException naming what is wrong (and the job id, once it has been read)
     */
    public static SeaTunnelJobHeader inspect(byte[] bytes) throws CodecException {
        return check(bytes, null);
    }

    /**
     * Like {@link #inspect(byte[])}, and also checks that the bytes belong to {@code expectedJobId}.
     *
     * @throws CodecException the bytes are not a SeaTunnel JobImmutableInformation of job {@code expectedJobId}
     */
    public static SeaTunnelJobHeader inspect(long expectedJobId, byte[] bytes) throws CodecException {
        return check(bytes, expectedJobId);
    }

    static byte[] bytesOf(Data job) {
        if (job == null) {
            throw new IllegalArgumentException(NAME + ": the job's Data is null");
        }
        byte[] bytes = job.toByteArray();
        if (bytes == null) {
            throw new IllegalArgumentException(NAME + ": the job's Data holds no bytes");
        }
        return bytes;
    }

    private static SeaTunnelJobHeader check(byte[] bytes, Long expectedJobId) throws CodecException {
        Reader r = new Reader(bytes, expectedJobId);
        if (bytes == null) {
            throw r.fail("no bytes");
        }
        if (bytes.length < MIN_LENGTH) {
            throw r.fail(bytes.length + " bytes are too short for a serialized JobImmutableInformation (at least "
                    + MIN_LENGTH + ": Hazelcast's 8-byte Data header, the 9-byte identified-serializable header and"
                    + " the 8-byte job id)");
        }
        int partitionHash = Reader.intAt(bytes, 0, ByteOrder.BIG_ENDIAN);
        if (partitionHash != 0) {
            throw r.fail("partition hash " + partitionHash + " at offset 0, expected 0 (JobImmutableInformation is"
                    + " not partition-aware, so SeaTunnel's serialization writes 0): not a job serialized by SeaTunnel");
        }
        int type = Reader.intAt(bytes, 4, ByteOrder.BIG_ENDIAN);
        if (type != TYPE_DATA_SERIALIZABLE) {
            throw r.fail("Hazelcast type id " + type + (type == TYPE_NULL ? " (a serialized null)" : "")
                    + " at offset 4, expected " + TYPE_DATA_SERIALIZABLE
                    + " (DataSerializable): these bytes are not a serialized JobImmutableInformation");
        }
        r.pos = DATA_HEADER;
        ByteOrder order = r.identifiedHeader(JobDataSerializerHook.JOB_IMMUTABLE_INFORMATION,
                "JobImmutableInformation", null);
        long jobId = r.readLong("job id");
        if (expectedJobId != null && jobId != expectedJobId) {
            throw r.fail("the bytes hold job " + jobId + ", not job " + expectedJobId);
        }
        r.jobId = jobId;
        String jobName = r.readString("job name");
        int savePoint = r.readByte("isStartWithSavePoint");
        if (savePoint != 0 && savePoint != 1) {
            throw r.fail("isStartWithSavePoint byte " + savePoint + " at offset " + (r.pos - 1) + " is neither 0 nor 1");
        }
        long createTime = r.readLong("create time");
        r.need(8, "logical DAG or logical vertex count");
        // 2.3.8: the logical DAG's Data (length, then its partition hash, always 0) follows the create time.
        // 2.3.10: the count of logical vertices, then each vertex's Data (its length is never 0), then the DAG.
        boolean verticesFirst = Reader.intAt(bytes, r.pos + 4, ByteOrder.BIG_ENDIAN) != 0;
        if (verticesFirst) {
            int countAt = r.pos;
            int vertices = r.readInt("logical vertex count");
            if (vertices < 0 || vertices > (bytes.length - r.pos) / 8) {
                throw r.fail("logical vertex count " + vertices + " at offset " + countAt + " does not fit the "
                        + (bytes.length - r.pos) + " remaining bytes");
            }
            if (vertices > 0) {
                int vertexLength = r.embeddedData("first logical vertex", JobDataSerializerHook.LOGICAL_VERTEX,
                        "LogicalVertex");
                r.pos += vertexLength;
            }
            // each vertex's jar set, the logical DAG, job config, plugin jar URLs, connector jar identifiers follow
            if (bytes.length - r.pos < 4 + 4 + DATA_HEADER + 12) {
                throw r.fail("truncated: " + (bytes.length - r.pos) + " bytes after "
                        + (vertices > 0 ? "the first logical vertex" : "the logical vertex count") + ", too few for"
                        + " the logical DAG, job config, plugin jar URLs and connector jar identifiers");
            }
            return SeaTunnelJobHeader.of(jobId, jobName, savePoint == 1, createTime, -1, vertices, order,
                    bytes.length);
        }
        int dagLength = r.embeddedData("logical DAG", JobDataSerializerHook.LOGICAL_DAG, "LogicalDag");
        r.pos += dagLength;
        // jobConfig, pluginJarsUrls, connectorJarIdentifiers follow, each at least a 4-byte type id
        if (bytes.length - r.pos < 12) {
            throw r.fail("truncated: " + (bytes.length - r.pos) + " bytes after the logical DAG, too few for the job"
                    + " config, plugin jar URLs and connector jar identifiers that follow it");
        }
        return SeaTunnelJobHeader.of(jobId, jobName, savePoint == 1, createTime, dagLength, -1, order,
                bytes.length);
    }

    /** Bounds-checked reads of primitives; every failure names the job. */
    private static final class Reader {
        final byte[] bytes;
        final Long expectedJobId;
        Long jobId;
        int pos;
        ByteOrder order = ByteOrder.BIG_ENDIAN;

        Reader(byte[] bytes, Long expectedJobId) {
            this.bytes = bytes;
            this.expectedJobId = expectedJobId;
        }

        CodecException fail(String what) {
            Long id = jobId != null ? jobId : expectedJobId;
            return new CodecException(NAME + ": SeaTunnel job " + (id != null ? String.valueOf(id) : "(id unknown)")
                    + ": " + what);
        }

        /**
         * Reads flag byte, factory id and class id (and the version bytes if flagged), finds the byte order from the
         * factory id, and checks both ids.
         */
        ByteOrder identifiedHeader(int expectedClassId, String className, String where) throws CodecException {
            String prefix = where == null ? "" : where + ": ";
            int flags = readByte("identified-serializable flags");
            if ((flags & FLAG_IDENTIFIED) == 0) {
                throw fail(prefix + "the DataSerializable names a class instead of factory and class ids (flags 0x"
                        + Integer.toHexString(flags) + "); a SeaTunnel " + className
                        + " is always IdentifiedDataSerializable, and a class named by stored bytes is never loaded");
            }
            if ((flags & ~(FLAG_IDENTIFIED | FLAG_VERSIONED)) != 0) {
                throw fail(prefix + "unknown DataSerializable flags 0x" + Integer.toHexString(flags));
            }
            int factoryAt = pos;
            int expectedFactory = JobDataSerializerHook.FACTORY_ID;
            int big = intAt(bytes, factoryAt, ByteOrder.BIG_ENDIAN);
            int little = intAt(bytes, factoryAt, ByteOrder.LITTLE_ENDIAN);
            if (big == expectedFactory) {
                order = ByteOrder.BIG_ENDIAN;
            } else if (little == expectedFactory) {
                order = ByteOrder.LITTLE_ENDIAN;
            } else {
                throw fail(prefix + "factory id " + big + " at offset " + factoryAt + " is not SeaTunnel's job factory "
                        + expectedFactory + " (JobDataSerializerHook.FACTORY_ID, system property"
                        + " hazelcast.serialization.ds.seatunnel.engine.job): not a SeaTunnel " + className);
            }
            pos += 4;
            int classAt = pos;
            int classId = readInt("class id");
            if (classId != expectedClassId) {
                String known = classId == JobDataSerializerHook.JOB_INFO
                        ? " (a JobInfo: take its JobImmutableInformation with SeaTunnelJobInfos.split first)" : "";
                throw fail(prefix + "class id " + classId + " at offset " + classAt + " of SeaTunnel's job factory is"
                        + " not " + className + " (" + expectedClassId + ")" + known);
            }
            if ((flags & FLAG_VERSIONED) != 0) {
                need(2, "version bytes");
                pos += 2;
            }
            return order;
        }

        /**
         * Reads the length of a Data embedded with {@code IOUtil.writeData} and checks its headers: DataSerializable,
         * SeaTunnel's job factory, {@code classId}. Leaves {@link #pos} at the embedded Data's first byte.
         *
         * @return the embedded Data's length
         */
        int embeddedData(String what, int classId, String className) throws CodecException {
            int lengthAt = pos;
            int length = readInt(what + " length");
            if (length < DATA_HEADER + IDS_HEADER) {
                throw fail(what + " length " + length + " at offset " + lengthAt
                        + (length == -1 ? " (null)" : "") + ", expected a serialized " + className);
            }
            if (length > bytes.length - pos) {
                throw fail("truncated: the " + what + " declares " + length + " bytes at offset " + lengthAt
                        + " but " + (bytes.length - pos) + " remain");
            }
            int start = pos;
            int type = intAt(bytes, start + 4, ByteOrder.BIG_ENDIAN);
            if (type != TYPE_DATA_SERIALIZABLE) {
                throw fail("the " + what + " at offset " + start + " has Hazelcast type id " + type + ", expected "
                        + TYPE_DATA_SERIALIZABLE + " (DataSerializable)");
            }
            Reader inner = new Reader(bytes, null);
            inner.jobId = jobId;
            inner.pos = start + DATA_HEADER;
            inner.identifiedHeader(classId, className, "the " + what + " at offset " + start);
            pos = start;
            return length;
        }

        void need(int n, String what) throws CodecException {
            if (bytes.length - pos < n) {
                throw fail("truncated: " + what + " at offset " + pos + " needs " + n + " bytes, " + (bytes.length - pos)
                        + " remain of " + bytes.length);
            }
        }

        int readByte(String what) throws CodecException {
            need(1, what);
            return bytes[pos++] & 0xFF;
        }

        int readInt(String what) throws CodecException {
            need(4, what);
            int v = intAt(bytes, pos, order);
            pos += 4;
            return v;
        }

        long readLong(String what) throws CodecException {
            need(8, what);
            long hi = intAt(bytes, pos, order) & 0xFFFFFFFFL;
            long lo = intAt(bytes, pos + 4, order) & 0xFFFFFFFFL;
            pos += 8;
            return order == ByteOrder.BIG_ENDIAN ? (hi << 32) | lo : (lo << 32) | hi;
        }

        String readString(String what) throws CodecException {
            int at = pos;
            int length = readInt(what + " length");
            if (length == -1) {
                return null;
            }
            if (length < 0 || length > bytes.length - pos) {
                throw fail(what + " length " + length + " at offset " + at + " does not fit the "
                        + (bytes.length - pos) + " remaining bytes");
            }
            String s = new String(bytes, pos, length, StandardCharsets.UTF_8);
            pos += length;
            return s;
        }

        static int intAt(byte[] b, int i, ByteOrder order) {
            int b0 = b[i] & 0xFF;
            int b1 = b[i + 1] & 0xFF;
            int b2 = b[i + 2] & 0xFF;
            int b3 = b[i + 3] & 0xFF;
            return order == ByteOrder.BIG_ENDIAN
                    ? (b0 << 24) | (b1 << 16) | (b2 << 8) | b3
                    : (b3 << 24) | (b2 << 16) | (b1 << 8) | b0;
        }
    }
}
