package io.jobinfo.store.seatunnel.harness;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.jobinfo.store.seatunnel.dropin.DropInService;
import org.apache.seatunnel.engine.core.job.JobImmutableInformation;
import org.apache.seatunnel.engine.core.job.JobInfo;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;

/**
 * Runs inside a member and tells, for each job id, what {@code engine_runningJobInfo} holds and what a reader gets
 * back: {@code absent}; {@code inline <sha256>} (SHA-256 of the inline {@code JobImmutableInformation} Data bytes);
 * {@code reference <sha256>} (SHA-256 of the verified blob payload, once the reference also resolved, through the
 * member's own serialization service exactly as a new master's restore does, into a {@code JobImmutableInformation}
 * of that job id); or {@code broken <error>} (a reference whose blob is missing, fails verification, or does not
 * resolve).
 */
public final class JobBytesProbe extends MemberProbe<HashMap<Long, String>> {

    private static final long serialVersionUID = 1L;
    /** The drop-in's reference type id ({@code JobInfoReferenceSerializer.TYPE_ID}). */
    static final int REFERENCE_TYPE = 0x4A495331;

    private final ArrayList<Long> jobIds;

    public JobBytesProbe(List<Long> jobIds) {
        this.jobIds = new ArrayList<>(jobIds);
    }

    @Override
    public HashMap<Long, String> call() {
        SerializationService serialization = ((SerializationServiceSupport) instance()).getSerializationService();
        DropInService dropIn = DropInService.forInstance(instance());
        HashMap<Long, String> out = new HashMap<>();
        for (long id : jobIds) {
            JobInfo info = instance().<Long, JobInfo>getMap(ClusterClient.RUNNING_JOB_INFO).get(id);
            if (info == null) {
                out.put(id, "absent");
                continue;
            }
            Data data = info.getJobImmutableInformation();
            if (data.getType() != REFERENCE_TYPE) {
                out.put(id, "inline " + sha256(data.toByteArray()));
                continue;
            }
            try {
                byte[] payload = dropIn.store().read(id).payload();
                Object job = serialization.toObject(data);
                if (!(job instanceof JobImmutableInformation) || ((JobImmutableInformation) job).getJobId() != id) {
                    out.put(id, "broken the reference resolved to " + job);
                } else {
                    out.put(id, "reference " + sha256(payload));
                }
            } catch (Exception e) {
                out.put(id, "broken " + e);
            }
        }
        return out;
    }

    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
