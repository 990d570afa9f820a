package io.jobinfo.store.seatunnel;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.impl.HeapData;

/**
 * The two parts of SeaTunnel's {@code JobInfo}, as {@link SeaTunnelJobInfos#split} found them: the initialization
 * timestamp and the job's {@code JobImmutableInformation} exactly as Hazelcast serialized it (the bytes
 * {@link SeaTunnelJobDataCodec} stores), with what its leading fields say.
 */
public final class SeaTunnelJobInfoParts {

    private final long initializationTimestamp;
    private final byte[] jobImmutableInformation;
    private final SeaTunnelJobHeader header;

    SeaTunnelJobInfoParts(long initializationTimestamp, byte[] jobImmutableInformation, SeaTunnelJobHeader header) {
        this.initializationTimestamp = initializationTimestamp;
        this.jobImmutableInformation = jobImmutableInformation;
        this.header = header;
    }

    /** {@code JobInfo.getInitializationTimestamp()}. */
    public long initializationTimestamp() {
        return initializationTimestamp;
    }

    /** The job's serialized bytes; the array is shared, not copied: do not modify it. */
    public byte[] jobImmutableInformation() {
        return jobImmutableInformation;
    }

    /** The job's bytes as Hazelcast Data (a {@link HeapData} over the same array). */
    public Data jobImmutableInformationData() {
        return new HeapData(jobImmutableInformation);
    }

    /** The job id the bytes hold (checked against the map key by {@code split}). */
    public long jobId() {
        return header.jobId();
    }

    /** What the job's leading fields say. */
    public SeaTunnelJobHeader header() {
        return header;
    }

    @Override
    public String toString() {
        return "SeaTunnelJobInfoParts{initializationTimestamp=" + initializationTimestamp + ", " + header + '}';
    }
}
