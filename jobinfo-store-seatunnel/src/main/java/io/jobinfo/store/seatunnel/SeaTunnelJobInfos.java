package io.jobinfo.store.seatunnel;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.impl.HeapData;
import io.jobinfo.store.codec.CodecException;
import org.apache.seatunnel.engine.core.job.JobInfo;

/**
 * Converts SeaTunnel's map value, {@code org.apache.seatunnel.engine.core.job.JobInfo} (initialization timestamp and
 * the job's {@code JobImmutableInformation} as Hazelcast {@link Data}), to and from its two parts, checking the job's
 * bytes with {@link SeaTunnelJobDataCodec#inspect(byte[])} both ways. Nothing is deserialized.
 */
public final class SeaTunnelJobInfos {

    private SeaTunnelJobInfos() {
    }

    /**
     * The parts of a {@code JobInfo}: its timestamp and the job's serialized bytes (not copied).
     *
     * @param expectedJobId the map key the value was found under
     * @throws CodecException the value has no timestamp or no job, or the job's bytes are not a SeaTunnel
     *                        JobImmutableInformation of job {@code expectedJobId}; the message names the job
     */
    public static SeaTunnelJobInfoParts split(long expectedJobId, JobInfo jobInfo) throws CodecException {
        if (jobInfo == null) {
            throw new CodecException(SeaTunnelJobDataCodec.NAME + ": SeaTunnel job " + expectedJobId
                    + ": the JobInfo is null");
        }
        Long timestamp = jobInfo.getInitializationTimestamp();
        if (timestamp == null) {
            throw new CodecException(SeaTunnelJobDataCodec.NAME + ": SeaTunnel job " + expectedJobId
                    + ": the JobInfo has no initialization timestamp");
        }
        Data data = jobInfo.getJobImmutableInformation();
        if (data == null || data.toByteArray() == null) {
            throw new CodecException(SeaTunnelJobDataCodec.NAME + ": SeaTunnel job " + expectedJobId
                    + ": the JobInfo holds no JobImmutableInformation");
        }
        byte[] bytes = data.toByteArray();
        SeaTunnelJobHeader header = SeaTunnelJobDataCodec.inspect(expectedJobId, bytes);
        return new SeaTunnelJobInfoParts(timestamp, bytes, header);
    }

    /**
     * A {@code JobInfo} of SeaTunnel's own class from its parts; its Data is a {@link HeapData} over
     * {@code jobImmutableInformation} (not copied).
     *
     * @throws CodecException the bytes are not a SeaTunnel JobImmutableInformation of job {@code expectedJobId}
     */
    public static JobInfo join(long expectedJobId, long initializationTimestamp, byte[] jobImmutableInformation)
            throws CodecException {
        SeaTunnelJobDataCodec.inspect(expectedJobId, jobImmutableInformation);
        return new JobInfo(initializationTimestamp, new HeapData(jobImmutableInformation));
    }

    /** {@link #join(long, long, byte[])} from the parts {@link #split(long, JobInfo)} returned. */
    public static JobInfo join(SeaTunnelJobInfoParts parts) throws CodecException {
        return join(parts.jobId(), parts.initializationTimestamp(), parts.jobImmutableInformation());
    }
}
