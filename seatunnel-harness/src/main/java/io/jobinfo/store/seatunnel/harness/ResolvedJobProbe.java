package io.jobinfo.store.seatunnel.harness;

import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import org.apache.seatunnel.engine.core.job.JobImmutableInformation;
import org.apache.seatunnel.engine.core.job.JobInfo;

/**
 * Runs inside a member and tells which instance of a job that member gets when SeaTunnel deserializes the job's
 * {@code engine_runningJobInfo} value there (what {@code JobMaster.init} and the REST endpoints do):
 * {@code savepoint=<flag> createTime=<millis>} of the {@code JobImmutableInformation} it resolved to, {@code absent}
 * when the map holds no value, or {@code error <exception>}. Two instances under one reused job id differ in these
 * fields (a restore from a savepoint has the flag set and a later creation time).
 */
public final class ResolvedJobProbe extends MemberProbe<String> {

    private static final long serialVersionUID = 1L;

    private final long jobId;

    public ResolvedJobProbe(long jobId) {
        this.jobId = jobId;
    }

    /** What the probe answers for {@code job}. */
    public static String describe(JobImmutableInformation job) {
        return "savepoint=" + job.isStartWithSavePoint() + " createTime=" + job.getCreateTime();
    }

    @Override
    public String call() {
        SerializationService serialization = ((SerializationServiceSupport) instance()).getSerializationService();
        JobInfo info = instance().<Long, JobInfo>getMap(ClusterClient.RUNNING_JOB_INFO).get(jobId);
        if (info == null) {
            return "absent";
        }
        try {
            Object job = serialization.toObject(info.getJobImmutableInformation());
            return job instanceof JobImmutableInformation ? describe((JobImmutableInformation) job)
                    : "error resolved to " + job;
        } catch (RuntimeException e) {
            return "error " + e;
        }
    }
}
