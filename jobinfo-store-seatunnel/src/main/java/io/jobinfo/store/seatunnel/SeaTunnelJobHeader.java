package io.jobinfo.store.seatunnel;

import com.google.auto.value.AutoValue;
import io.jobinfo.store.values.Nullable;
import java.nio.ByteOrder;

/**
 * What the first bytes of a SeaTunnel {@code JobImmutableInformation}, serialized by Hazelcast, say about the job:
 * read at fixed offsets as primitives (no object is deserialized). Produced by
 * {@link SeaTunnelJobDataCodec#inspect(byte[])}, which checks every value it reads.
 */
@AutoValue
public abstract class SeaTunnelJobHeader {

    SeaTunnelJobHeader() {
    }

    static SeaTunnelJobHeader of(long jobId, @Nullable String jobName, boolean startWithSavePoint, long createTime,
            int logicalDagLength, int logicalVertexCount, ByteOrder byteOrder, int totalLength) {
        return new AutoValue_SeaTunnelJobHeader(jobId, jobName, startWithSavePoint, createTime, logicalDagLength,
                logicalVertexCount, byteOrder, totalLength);
    }

    /** {@code JobImmutableInformation.getJobId()}. */
    public abstract long jobId();

    /** {@code JobImmutableInformation.getJobName()}; may be null, as SeaTunnel allows. */
    @Nullable
    public abstract String jobName();

    /** {@code JobImmutableInformation.isStartWithSavePoint()}. */
    public abstract boolean startWithSavePoint();

    /** {@code JobImmutableInformation.getCreateTime()}, epoch milliseconds. */
    public abstract long createTime();

    /**
     * Length in bytes of the logical DAG's own serialized form (Hazelcast Data) inside a job of SeaTunnel 2.3.8's
     * layout; -1 for 2.3.10's layout, where it follows the vertices and is not read.
     */
    public abstract int logicalDagLength();

    /**
     * Whether the job has SeaTunnel 2.3.10's layout: {@code logicalVertexDataList} and {@code logicalVertexJarsList}
     * between the create time and the logical DAG.
     */
    public boolean verticesBeforeDag() {
        return logicalVertexCount() >= 0;
    }

    /** Number of entries of {@code logicalVertexDataList} (2.3.10's layout); -1 for 2.3.8's layout. */
    public abstract int logicalVertexCount();

    /** The byte order of the serialization service that wrote the job (big-endian unless configured). */
    public abstract ByteOrder byteOrder();

    /** Length of the whole serialized job, Hazelcast's 8-byte Data header included. */
    public abstract int totalLength();

}
