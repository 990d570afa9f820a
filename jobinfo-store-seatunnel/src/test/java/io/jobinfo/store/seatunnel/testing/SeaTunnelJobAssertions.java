package io.jobinfo.store.seatunnel.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.apache.seatunnel.api.common.JobContext;
import org.apache.seatunnel.engine.common.config.JobConfig;
import org.apache.seatunnel.engine.core.dag.logical.LogicalDag;
import org.apache.seatunnel.engine.core.job.JobImmutableInformation;

/**
 * Field-by-field comparison of SeaTunnel's {@link JobImmutableInformation} (which has no {@code equals}): job id,
 * name, save-point flag, create time, job config (name, env options, job context: every field), plugin
 * jar URLs, connector jar identifiers, the logical DAG's bytes, and that the logical DAG deserializes into a DAG with
 * the same vertices, edges and JSON. Calls only methods SeaTunnel 2.3.8 and 2.3.10 both have, with the same
 * signatures, so the compatibility module uses it on 2.3.10's classes.
 */
public final class SeaTunnelJobAssertions {

    private SeaTunnelJobAssertions() {
    }

    /** Asserts {@code actual} equals {@code expected} in every field; deserializes both logical DAGs with {@code ss}. */
    public static void assertSameJob(JobImmutableInformation actual, JobImmutableInformation expected,
                                     SerializationService ss) {
        assertSameJobFields(actual, expected);
        assertSameLogicalDag(actual.getLogicalDag(), expected.getLogicalDag(), ss);
    }

    /**
     * Every field of {@code actual} equals {@code expected}'s, the logical DAG compared by its bytes only (2.3.10's DAG
     * bytes hold no vertices, so its DAG is checked by the caller with the vertices).
     */
    public static void assertSameJobFields(JobImmutableInformation actual, JobImmutableInformation expected) {
        assertThat(actual).as("job").isNotNull();
        assertThat(actual.getJobId()).as("jobId").isEqualTo(expected.getJobId());
        assertThat(actual.getJobName()).as("jobName").isEqualTo(expected.getJobName());
        assertThat(actual.isStartWithSavePoint()).as("isStartWithSavePoint").isEqualTo(expected.isStartWithSavePoint());
        assertThat(actual.getCreateTime()).as("createTime").isEqualTo(expected.getCreateTime());
        assertSameJobConfig(actual.getJobConfig(), expected.getJobConfig());
        assertThat(actual.getPluginJarsUrls()).as("pluginJarsUrls").isEqualTo(expected.getPluginJarsUrls());
        assertThat(actual.getPluginJarIdentifiers()).as("connectorJarIdentifiers")
                .isEqualTo(expected.getPluginJarIdentifiers());
        assertThat(actual.getLogicalDag().toByteArray()).as("logicalDag bytes")
                .isEqualTo(expected.getLogicalDag().toByteArray());
    }

    /** Same bytes, and both deserialize into DAGs with the same vertices, edges and JSON description. */
    public static void assertSameLogicalDag(Data actual, Data expected, SerializationService ss) {
        assertThat(actual.toByteArray()).as("logicalDag bytes").isEqualTo(expected.toByteArray());
        LogicalDag a = ss.toObject(actual);
        LogicalDag e = ss.toObject(expected);
        assertThat(a).as("logicalDag").isInstanceOf(LogicalDag.class);
        // the JSON lists every vertex (id, name, parallelism) and edge; getLogicalVertexMap is not used because its
        // return type changed in 2.3.10 (Map -> LinkedHashMap), and these assertions serve both versions
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
        // JobContext has no equals and its fields differ between versions (2.3.8 keeps table schemas): every field
        for (Field f : JobContext.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            f.setAccessible(true);
            try {
                assertThat(f.get(a)).as("jobContext." + f.getName()).isEqualTo(f.get(e));
            } catch (IllegalAccessException ex) {
                throw new AssertionError("JobContext." + f.getName() + " not readable: " + ex, ex);
            }
        }
    }
}
