package io.jobinfo.store.seatunnel.testing;

import com.hazelcast.internal.serialization.Data;
import java.nio.file.Path;
import org.apache.seatunnel.engine.core.dag.logical.LogicalDag;
import org.apache.seatunnel.engine.core.job.JobImmutableInformation;

/**
 * A real SeaTunnel job built by {@link SeaTunnelJobs}: the job configuration file it came from, the
 * {@code JobImmutableInformation} SeaTunnel's classes built from it, its logical DAG, and its serialized form (what
 * the client sends and what {@code engine_runningJobInfo} holds inside a {@code JobInfo}).
 *
 * @param jobId        the job id
 * @param tables       FakeSource tables in the job
 * @param columns      columns per table
 * @param configFile   the job configuration the job was parsed from
 * @param job          the job as the client builds it
 * @param logicalDag   the generated logical DAG (serialized inside {@code job})
 * @param data         {@code job} serialized by SeaTunnel's serialization (Hazelcast Data)
 */
public record RealSeaTunnelJob(long jobId, int tables, int columns, Path configFile, JobImmutableInformation job,
                               LogicalDag logicalDag, Data data) {

    /** The serialized job's bytes (a copy). */
    public byte[] bytes() {
        return data.toByteArray().clone();
    }

    /** Size of the serialized job in bytes. */
    public int size() {
        return data.totalSize();
    }

    @Override
    public String toString() {
        return "RealSeaTunnelJob{jobId=" + jobId + ", " + tables + " tables x " + columns + " columns, " + size()
                + " bytes}";
    }
}
