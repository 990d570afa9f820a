package io.jobinfo.store.lifecycle;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * A job's description kept inline in {@code engine_runningJobInfo}, the shape of SeaTunnel's {@code JobInfo}: the
 * initialization timestamp and the encoded job. This is what a cluster holds before migration; readers accept it
 * beside {@link JobInfoPointer} so that a live cluster can be migrated entry by entry.
 */
public final class InlineJobInfo implements JobInfoSerializable {

    /** Bytes read at a time when the input cannot tell how many it holds. */
    private static final int CHUNK = 64 * 1024;

    private long initializationTimestamp;
    private int codecId;
    private byte[] encodedJob;

    /** For Hazelcast deserialization only. */
    public InlineJobInfo() {
    }

    public InlineJobInfo(long initializationTimestamp, int codecId, byte[] encodedJob) {
        this.initializationTimestamp = initializationTimestamp;
        this.codecId = codecId;
        this.encodedJob = encodedJob.clone();
    }

    public long initializationTimestamp() {
        return initializationTimestamp;
    }

    public int codecId() {
        return codecId;
    }

    /** A copy of the encoded job (the codec payload). */
    public byte[] encodedJob() {
        return encodedJob.clone();
    }

    public int encodedLength() {
        return encodedJob.length;
    }

    @Override
    public int getClassId() {
        return JobInfoSerialization.INLINE_CLASS_ID;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeLong(initializationTimestamp);
        out.writeShort(codecId);
        out.writeByteArray(encodedJob);
    }

    /**
     * Reads what {@link #writeData} wrote ({@code writeByteArray}'s layout: an int length, then the bytes). The
     * length is checked against the bytes the value has left before the array is allocated: Hazelcast's
     * {@code readByteArray} allocates first, so a value of a few bytes claiming 2 GiB would end in an
     * {@link OutOfMemoryError} wherever the map is read.
     *
     * @throws IOException no job, a negative length, or a length the value does not hold (claimed and available
     *                     sizes named)
     */
    @Override
    public void readData(ObjectDataInput in) throws IOException {
        initializationTimestamp = in.readLong();
        codecId = Short.toUnsignedInt(in.readShort());
        int length = in.readInt();
        if (length == -1) {
            throw new IOException("inline job info without a job");
        }
        if (length < 0) {
            throw new IOException("inline job info: the encoded job claims a negative length " + length);
        }
        encodedJob = readBytes(in, length);
    }

    /**
     * {@code length} bytes of {@code in}, allocated at once only if the input says it holds them (Hazelcast's
     * byte-array inputs know exactly); otherwise in chunks as they arrive, so that memory follows the bytes present.
     */
    private static byte[] readBytes(ObjectDataInput in, int length) throws IOException {
        InputStream stream = in instanceof InputStream ? (InputStream) in : null;
        if (stream != null && length <= stream.available()) {
            byte[] bytes = new byte[length];
            in.readFully(bytes);
            return bytes;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(length, CHUNK));
        byte[] chunk = new byte[Math.min(length, CHUNK)];
        while (out.size() < length) {
            int want = Math.min(length - out.size(), chunk.length);
            int n;
            if (stream != null) {
                n = stream.read(chunk, 0, want); // Hazelcast's readFully(b, off, len) may return short of len
            } else {
                try {
                    in.readFully(chunk, 0, want);
                    n = want;
                } catch (EOFException e) {
                    n = -1;
                }
            }
            if (n < 0) {
                throw new IOException("inline job info: the encoded job claims " + length + " bytes but the value"
                        + " ends after " + out.size());
            }
            out.write(chunk, 0, n);
        }
        return out.toByteArray();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof InlineJobInfo)) {
            return false;
        }
        InlineJobInfo i = (InlineJobInfo) o;
        return initializationTimestamp == i.initializationTimestamp && codecId == i.codecId
                && java.util.Arrays.equals(encodedJob, i.encodedJob);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(initializationTimestamp) * 31 + java.util.Arrays.hashCode(encodedJob);
    }

    @Override
    public String toString() {
        return "InlineJobInfo{initializedAt=" + initializationTimestamp + ", codec=" + codecId + ", "
                + encodedJob.length + " bytes}";
    }
}
