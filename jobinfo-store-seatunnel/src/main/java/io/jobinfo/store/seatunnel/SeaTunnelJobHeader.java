package io.jobinfo.store.seatunnel;

import io.jobinfo.store.values.ValueObject;
import java.nio.ByteOrder;

/**
 * What the first bytes of a SeaTunnel {@code JobImmutableInformation}, serialized by Hazelcast, say about the job:
 * read at fixed offsets as primitives (no object is deserialized). Produced by
 * {@link SeaTunnelJobDataCodec#inspect(byte[])}, which checks every value it reads.
 */
public final class SeaTunnelJobHeader extends ValueObject {

    private final long jobId;
    private final String jobName;
    private final boolean startWithSavePoint;
    private final long createTime;
    private final int logicalDagLength;
    private final int logicalVertexCount;
    private final ByteOrder byteOrder;
    private final int totalLength;

    SeaTunnelJobHeader(long jobId, String jobName, boolean startWithSavePoint, long createTime, int logicalDagLength,
                       int logicalVertexCount, ByteOrder byteOrder, int totalLength) {
        this.jobId = jobId;
        this.jobName = jobName;
        this.startWithSavePoint = startWithSavePoint;
        this.createTime = createTime;
        this.logicalDagLength = logicalDagLength;
        this.logicalVertexCount = logicalVertexCount;
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

    /**
     * Length in bytes of the logical DAG's own serialized form (Hazelcast Data) inside a job of SeaTunnel 2.3.8's
     * layout; -1 for 2.3.10's layout, where it follows the vertices and is not read.
     */
    public int logicalDagLength() {
        return logicalDagLength;
    }

    /**
     * Whether the job has SeaTunnel 2.3.10's layout: {@code logicalVertexDataList} and {@code logicalVertexJarsList}
     * between the create time and the logical DAG.
     */
    public boolean verticesBeforeDag() {
        return logicalVertexCount >= 0;
    }

    /** Number of entries of {@code logicalVertexDataList} (2.3.10's layout); -1 for 2.3.8's layout. */
    public int logicalVertexCount() {
        return logicalVertexCount;
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
    protected Object[] components() {
        return new Object[] {"jobId", jobId, "jobName", jobName, "startWithSavePoint", startWithSavePoint,
                "createTime", createTime, "logicalDagLength", logicalDagLength, "logicalVertexCount",
                logicalVertexCount, "byteOrder", byteOrder, "totalLength", totalLength};
    }
}
