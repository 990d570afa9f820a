package io.jobinfo.store.seatunnel;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.jobinfo.store.lifecycle.LockClaims;
import io.jobinfo.store.lifecycle.MapValue;
import io.jobinfo.store.lifecycle.MapValueReader;
import io.jobinfo.store.codec.CodecException;
import io.jobinfo.store.lifecycle.InlineJob;
import io.jobinfo.store.lifecycle.JobValueFormat;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.impl.HeapData;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import org.apache.seatunnel.engine.core.job.JobInfo;
import org.apache.seatunnel.engine.core.serializable.JobDataSerializerHook;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * {@link JobValueFormat} of SeaTunnel's own map value, {@code org.apache.seatunnel.engine.core.job.JobInfo}: the
 * initialization timestamp and the job's {@code JobImmutableInformation} as raw Hazelcast Data. Migration stores the
 * Data bytes verbatim under codec {@link SeaTunnelJobDataCodec#ID} (the pointer keeps the timestamp); rollback
 * rebuilds a {@code JobInfo} with the same timestamp and the same Data bytes. The job is never deserialized: the
 * {@code JobInfo} itself is created by SeaTunnel's {@code JobDataSerializerHook} factory (by factory and class id)
 * and its inner Data stays raw; {@link SeaTunnelJobDataCodec#inspect(long, byte[])} checks the bytes both ways.
 *
 * <p>The migrated value is what the drop-in itself writes, never a bare pointer (SeaTunnel reads every value of
 * {@code engine_runningJobInfo} as its {@code JobInfo}): a {@code JobInfo} with the same timestamp whose Data is a
 * drop-in reference ({@link ReferenceData}), which members with the plugin turn back into the job. A {@code JobInfo}
 * holding a reference is a pointer to this format ({@link #pointerIn}), never an inline job.
 */
public final class SeaTunnelJobInfoFormat implements JobValueFormat {

    /** The format's name: {@value}. */
    public static final String NAME = "seatunnel";

    /**
     * Serialized size of a {@code JobInfo} besides the job's Data bytes: Hazelcast data header (8), the
     * identified-data-serializable header (9), the timestamp (8) and the inner Data's length prefix (4).
     */
    static final int OVERHEAD = 8 + 9 + 8 + 4;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean recognises(Object value) {
        return value instanceof JobInfo && !holdsReference((JobInfo) value);
    }

    /**
     * SeaTunnel's {@code JobInfo}: created by its {@code JobDataSerializerHook} factory and class id; its job stays
     * raw Data inside (nothing of the job is deserialized).
     */
    @Override
    public boolean readsIdentified(int factoryId, int classId) {
        return factoryId == JobDataSerializerHook.FACTORY_ID && classId == JobDataSerializerHook.JOB_INFO;
    }

    /** A {@code JobInfo} with the pointer's timestamp and a drop-in reference as its Data. */
    @Override
    public Object pointerValue(JobInfoPointer pointer) {
        return new JobInfo(pointer.initializationTimestamp(), new HeapData(ReferenceData.of(pointer)));
    }

    /** The pointer of a {@code JobInfo} that holds a drop-in reference; null for anything else or a damaged one. */
    @Override
    public JobInfoPointer pointerIn(Object value) {
        if (!(value instanceof JobInfo) || !holdsReference((JobInfo) value)) {
            return null;
        }
        try {
            return ReferenceData.pointer(((JobInfo) value).getJobImmutableInformation().toByteArray());
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public long pointerValueBytes(String storeId) {
        return OVERHEAD + ReferenceData.HEADER_AND_FIELDS + storeId.getBytes(StandardCharsets.UTF_8).length;
    }

    private static boolean holdsReference(JobInfo value) {
        Data data = value.getJobImmutableInformation();
        return data != null && ReferenceData.isReference(data.toByteArray());
    }

    /**
     * @throws CodecException the JobInfo has no timestamp or job, or its job is not a SeaTunnel
     *                        JobImmutableInformation of job {@code jobId}
     */
    @Override
    public InlineJob read(long jobId, Object value) throws CodecException {
        SeaTunnelJobInfoParts parts = SeaTunnelJobInfos.split(jobId, (JobInfo) value);
        return new InlineJob(parts.initializationTimestamp(), SeaTunnelJobDataCodec.ID,
                parts.jobImmutableInformation());
    }

    @Override
    public boolean restores(int codecId) {
        return codecId == SeaTunnelJobDataCodec.ID;
    }

    /**
     * @throws CodecException the codec id is not {@link SeaTunnelJobDataCodec#ID} or the bytes are not a SeaTunnel
     *                        JobImmutableInformation of job {@code jobId}
     */
    @Override
    public Object inlineValue(long jobId, InlineJob job) throws CodecException {
        if (job.codecId() != SeaTunnelJobDataCodec.ID) {
            throw new CodecException(SeaTunnelJobDataCodec.NAME + ": SeaTunnel job " + jobId + ": codec id "
                    + job.codecId() + " is not SeaTunnel's job Data (" + SeaTunnelJobDataCodec.ID + ")");
        }
        return SeaTunnelJobInfos.join(jobId, job.initializationTimestamp(), job.payload());
    }

    @Override
    public long valueBytes(long payloadLength) {
        return OVERHEAD + payloadLength;
    }

    @Override
    public String toString() {
        return NAME;
    }

    /**
     * SeaTunnel's {@code engine_runningJobInfo}, whose every value each member reads as {@code JobInfo}: a delete
     * claims the id with a lock in {@link LockClaims#SEATUNNEL_CLAIMS}, the map the drop-in's moves and deletes lock too,
     * never with a marker in SeaTunnel's map. Told from this library's own map of the same name (a patched engine's):
     * it is SeaTunnel's when any member runs the drop-in ({@link #DROP_IN_MEMBERS} not empty, one small read);
     * otherwise the first readable value among the first {@value #SAMPLE} keys decides (a stock cluster's, or the
     * library's); an empty map of a cluster without the drop-in is taken for the library's.
     */
    @Override
    public String claimLocksMap(HazelcastInstance hazelcast, IMap<Long, ?> map, MapValueReader reader) {
        if (!RUNNING_JOB_INFO.equals(map.getName())) {
            return null;
        }
        if (!hazelcast.getMap(DROP_IN_MEMBERS).isEmpty()) {
            return LockClaims.SEATUNNEL_CLAIMS;
        }
        int looked = 0;
        for (Long jobId : map.keySet()) {
            MapValue value = reader.read(jobId);
            if (value.decoded()) {
                return recognises(value.value()) || pointerIn(value.value()) != null ? LockClaims.SEATUNNEL_CLAIMS
                        : null;
            }
            if (++looked >= SAMPLE) {
                break;
            }
        }
        return null;
    }

    /** Values {@link #claimLocksMap} looks at, at most, on a cluster without the drop-in. */
    static final int SAMPLE = 16;

    /** The drop-in's member registry (uuid to mode and store identity); see {@code DropInMembers}. */
    public static final String DROP_IN_MEMBERS = "jobinfo-store-dropin-members";

    /** SeaTunnel's map of running jobs (its {@code Constant.IMAP_RUNNING_JOB_INFO}). */
    public static final String RUNNING_JOB_INFO = "engine_runningJobInfo";
}
