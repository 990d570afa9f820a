package io.jobinfo.store.seatunnel.harness;

import org.apache.seatunnel.engine.client.SeaTunnelHazelcastClient;
import org.apache.seatunnel.engine.client.job.ClientJobExecutionEnvironment;
import org.apache.seatunnel.engine.client.job.JobClient;
import org.apache.seatunnel.engine.common.config.JobConfig;
import org.apache.seatunnel.engine.common.config.SeaTunnelConfig;
import org.apache.seatunnel.engine.core.job.JobImmutableInformation;

import java.nio.file.Path;
import java.util.ArrayList;

/**
 * A submit whose job bytes are known before it is sent: SeaTunnel's client parses the job file and builds the
 * logical DAG ({@link ClientJobExecutionEnvironment#getLogicalDag()}) and this class builds the
 * {@link JobImmutableInformation} from it the way {@code execute()} does, so the test holds the very object whose
 * Hazelcast {@code Data} the client sends ({@link #jobBytes()}, what the master puts into
 * {@code engine_runningJobInfo}). {@link #submit()} sends it with SeaTunnel's own {@code JobClient} and returns when
 * the master acknowledged it.
 */
public final class RecordedSubmit extends ClientJobExecutionEnvironment {

    private final SeaTunnelHazelcastClient client;
    private JobImmutableInformation info;

    RecordedSubmit(SeaTunnelHazelcastClient client, Path jobFile, String jobName, long jobId,
                   boolean startWithSavePoint) {
        super(config(jobName), jobFile.toString(), null, client, new SeaTunnelConfig(), startWithSavePoint, jobId);
        this.client = client;
    }

    private static JobConfig config(String name) {
        JobConfig c = new JobConfig();
        c.setName(name);
        return c;
    }

    /** Builds the job (parses the file, uploads nothing the engine lacks); idempotent. */
    public synchronized JobImmutableInformation build() {
        if (info == null) {
            info = new JobImmutableInformation(Long.parseLong(jobConfig.getJobContext().getJobId()),
                    jobConfig.getName(), isStartWithSavePoint, client.getSerializationService().toData(getLogicalDag()),
                    jobConfig, new ArrayList<>(jarUrls), new ArrayList<>(connectorJarIdentifiers));
        }
        return info;
    }

    public long jobId() {
        return build().getJobId();
    }

    /** The bytes of the job's {@code Data} as the client sends them. */
    public byte[] jobBytes() {
        return client.getSerializationService().toData(build()).toByteArray();
    }

    /**
     * Sends the job to the master and returns once the master acknowledged it.
     *
     * @throws RuntimeException whatever SeaTunnel's client throws when the submit fails
     */
    public void submit() {
        new JobClient(client).createJobProxy(build());
    }
}
