package io.jobinfo.store.seatunnel;

import java.nio.ByteOrder;

/**
 * What the first bytes of a SeaTunnel {@code JobImmutableInformation}, serialized by Hazelcast, say about the job:
 * read at fixed offsets as primitives (no object is deserialized). Produced by
 * {@link SeaTunnelJobDataCodec#inspect(byte[])}, which checks every value it reads.
 */
public final class SeaTunnelJobHeader {

    private final long jobId;
    private final String jobName;
    private final boolean startWithSavePoint;
    private final long createTime;
    private final int logicalDagLength;
    private final ByteOrder byteOrder;
    private final int totalLength;

    SeaTunnelJobHeader(long jobId, String jobName, boolean startWithSavePoint, long createTime, int logicalDagLength,
                       ByteOrder byteOrder, int totalLength) {
        this.jobId = jobId;
        this.jobName = jobName;
        this.startWithSavePoint = startWithSavePoint;
        this.createTime = createTime;
        this.logicalDagLength = logicalDagLength;
        this.byteOrder = byteOrder;
        this.totalLength = totalLength;
    }

    /** {@code JobImmutableInformation.getJobId()}. */
    public long jobId() {
        return jobId;
    }

    /** {@code JobImmutableInformation.getJobName()}; may be null, as SeaTunnel allows. */
    public String jobName() {
        return jobName;
    }

    /** {@code JobImmutableInformation.isStartWithSavePoint()}. */
    public boolean startWithSavePoint() {
        return startWithSavePoint;
    }

    /** {@code JobImmutableInformation.getCreateTime()}, epoch milliseconds. */
    public long createTime() {
        return createTime;
    }

    /** Length in bytes of the logical DAG's own serialized form (Hazelcast Data) inside the job; -1 if null. */
    public int logicalDagLength() {
        return logicalDagLength;
    }

    /** The byte order of the serialization service that wrote the job (big-endian unless configured). */
    public ByteOrder byteOrder() {
        return byteOrder;
    }

    /** Length of the whole serialized job, Hazelcast's 8-byte Data header included. */
    public int totalLength() {
        return totalLength;
    }

    @Override
    public String toString() {
        return "SeaTunnelJobHeader{jobId=" + jobId + ", jobName=" + jobName + ", startWithSavePoint="
                + startWithSavePoint + ", createTime=" + createTime + ", logicalDagLength=" + logicalDagLength
                + ", byteOrder=" + byteOrder + ", totalLength=" + totalLength + '}';
    }
}
