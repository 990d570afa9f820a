package io.jobinfo.store.seatunnel.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import java.lang.reflect.Field;
import java.util.Map;
import org.apache.seatunnel.api.common.JobContext;
import org.apache.seatunnel.engine.common.config.JobConfig;
import org.apache.seatunnel.engine.core.dag.logical.LogicalDag;
import org.apache.seatunnel.engine.core.job.JobImmutableInformation;

/**
 * Field-by-field comparison of SeaTunnel's {@link JobImmutableInformation} (which has no {@code equals}): job id,
 * name, save-point flag, create time, job config (name, env options, job context: id, mode, table schemas), plugin
 * jar URLs, connector jar identifiers, the logical DAG's bytes, and that the logical DAG deserializes into a DAG with
 * the same vertices, edges and JSON.
 */
public final class SeaTunnelJobAssertions {

    private SeaTunnelJobAssertions() {
    }

    /** Asserts {@code actual} equals {@code expected} in every field; deserializes both logical DAGs with {@code ss}. */
    public static void assertSameJob(JobImmutableInformation actual, JobImmutableInformation expected,
                                     SerializationService ss) {
        assertThat(actual).as("job").isNotNull();
        assertThat(actual.getJobId()).as("jobId").isEqualTo(expected.getJobId());
        assertThat(actual.getJobName()).as("jobName").isEqualTo(expected.getJobName());
        assertThat(actual.isStartWithSavePoint()).as("isStartWithSavePoint").isEqualTo(expected.isStartWithSavePoint());
        assertThat(actual.getCreateTime()).as("createTime").isEqualTo(expected.getCreateTime());
        assertSameJobConfig(actual.getJobConfig(), expected.getJobConfig());
        assertThat(actual.getPluginJarsUrls()).as("pluginJarsUrls").isEqualTo(expected.getPluginJarsUrls());
        assertThat(actual.getPluginJarIdentifiers()).as("connectorJarIdentifiers")
                .isEqualTo(expected.getPluginJarIdentifiers());
        assertSameLogicalDag(actual.getLogicalDag(), expected.getLogicalDag(), ss);
    }

    /** Same bytes, and both deserialize into DAGs with the same vertices, edges and JSON description. */
    public static void assertSameLogicalDag(Data actual, Data expected, SerializationService ss) {
        assertThat(actual.toByteArray()).as("logicalDag bytes").isEqualTo(expected.toByteArray());
        LogicalDag a = ss.toObject(actual);
        LogicalDag e = ss.toObject(expected);
        assertThat(a).as("logicalDag").isInstanceOf(LogicalDag.class);
        assertThat(a.getLogicalVertexMap().keySet()).as("logical vertices")
                .isEqualTo(e.getLogicalVertexMap().keySet());
        assertThat(a.getEdges()).as("logical edges").hasSameSizeAs(e.getEdges());
        assertThat(a.getLogicalDagAsJson().toString()).as("logicalDag JSON")
                .isEqualTo(e.getLogicalDagAsJson().toString());
        assertThat(a.getJobConfig().getName()).as("logicalDag jobConfig name").isEqualTo(e.getJobConfig().getName());
    }

    /** {@link JobConfig#equals} compares the job context by identity; this compares its content. */
    public static void assertSameJobConfig(JobConfig actual, JobConfig expected) {
        assertThat(actual.getName()).as("jobConfig.name").isEqualTo(expected.getName());
        assertThat(actual.getEnvOptions()).as("jobConfig.envOptions").isEqualTo(expected.getEnvOptions());
        JobContext a = actual.getJobContext();
        JobContext e = expected.getJobContext();
        assertThat(a).as("jobConfig.jobContext").isNotNull();
        assertThat(a.getJobId()).as("jobContext.jobId").isEqualTo(e.getJobId());
        assertThat(a.getJobMode()).as("jobContext.jobMode").isEqualTo(e.getJobMode());
        assertThat(tableSchemas(a)).as("jobContext table schemas").isEqualTo(tableSchemas(e));
    }

    private static Map<?, ?> tableSchemas(JobContext context) {
        try {
            Field f = JobContext.class.getDeclaredField("tableSchemaMap");
            f.setAccessible(true);
            return (Map<?, ?>) f.get(context);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("JobContext.tableSchemaMap not readable: " + e, e);
        }
    }
}
