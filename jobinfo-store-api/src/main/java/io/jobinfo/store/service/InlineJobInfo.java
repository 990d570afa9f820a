package io.jobinfo.store.service;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import java.io.IOException;

/**
 * A job's description kept inline in {@code engine_runningJobInfo}, the shape of SeaTunnel's {@code JobInfo}: the
 * initialization timestamp and the encoded job. This is what a cluster holds before migration; readers accept it
 * beside {@link JobInfoPointer} so that a live cluster can be migrated entry by entry.
 */
public final class InlineJobInfo implements IdentifiedDataSerializable {

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
    public int getFactoryId() {
        return JobInfoSerialization.FACTORY_ID;
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

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        initializationTimestamp = in.readLong();
        codecId = Short.toUnsignedInt(in.readShort());
        encodedJob = in.readByteArray();
        if (encodedJob == null) {
            throw new IOException("inline job info without a job");
        }
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
