package io.jobinfo.store.seatunnel.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.internal.serialization.Data;
import io.jobinfo.store.codec.CodecException;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.seatunnel.SeaTunnelJobDataCodec;
import io.jobinfo.store.seatunnel.SeaTunnelJobHeader;
import io.jobinfo.store.seatunnel.SeaTunnelJobInfoParts;
import io.jobinfo.store.seatunnel.SeaTunnelJobInfos;
import io.jobinfo.store.seatunnel.testing.SeaTunnelJobAssertions;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStores;
import java.nio.file.Path;
import java.util.List;
import org.apache.seatunnel.engine.core.dag.logical.LogicalDag;
import org.apache.seatunnel.engine.core.dag.logical.LogicalVertex;
import org.apache.seatunnel.engine.core.job.JobImmutableInformation;
import org.apache.seatunnel.engine.core.job.JobInfo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SeaTunnel 2.3.10's {@code JobImmutableInformation} (with {@code logicalVertexDataList} and
 * {@code logicalVertexJarsList}) through {@link SeaTunnelJobDataCodec} and a real store, byte for byte, and back
 * into an equal object, on seatunnel-engine-core 2.3.10's own classes.
 */
class SeaTunnel2310RoundTripTest {

    private static final long JOB_ID = 910_000_000_000_100L;

    @TempDir
    static Path root;
    static SeaTunnel2310Jobs.Built built;
    private final SeaTunnelJobDataCodec codec = new SeaTunnelJobDataCodec();

    @BeforeAll
    static void buildJob() throws Exception {
        built = SeaTunnel2310Jobs.build(JOB_ID, "jobinfo-2310-100x10", 100, 10);
    }

    @Test
    void theJobHasTheNewFields() {
        JobImmutableInformation job = built.job();
        assertThat(job.getLogicalVertexDataList()).hasSize(built.dag().getLogicalVertexMap().size()).isNotEmpty();
        assertThat(job.getLogicalVertexJarsList()).hasSameSizeAs(job.getLogicalVertexDataList());
    }

    @Test
    void inspectRecognisesThe2310Layout() throws Exception {
        SeaTunnelJobHeader header = SeaTunnelJobDataCodec.inspect(JOB_ID, built.data().toByteArray());
        assertThat(header.verticesBeforeDag()).isTrue();
        assertThat(header.logicalVertexCount()).isEqualTo(built.job().getLogicalVertexDataList().size());
        assertThat(header.jobName()).isEqualTo(built.job().getJobName());
        assertThat(header.createTime()).isEqualTo(built.job().getCreateTime());
        assertThat(header.logicalDagLength()).isEqualTo(-1);
        assertThat(header.totalLength()).isEqualTo(built.data().totalSize());
    }

    @Test
    void theJobIsStoredAndReadBackByteForByteAndDeserializesIntoAnEqualJob() throws Exception {
        byte[] original = built.data().toByteArray().clone();
        try (JobInfoStore store = JobInfoStores.open(JobInfoStorageConfig.builder("local")
                .namespace(root + "/jobs").build())) {
            store.create(JOB_ID, BlobSource.ofBytes(BlobEnvelope.wrap(JOB_ID, codec.id(),
                    codec.encode(built.data()))));
            VerifiedBlob blob = store.read(JOB_ID);
            assertThat(blob.payload()).isEqualTo(original);
            Data decoded = codec.decode(JOB_ID, blob.payload());
            assertThat(decoded.toByteArray()).isEqualTo(original);

            JobImmutableInformation back = SeaTunnel2310Jobs.SS.toObject(decoded);
            assertSameJob2310(back, built.job());
        }
    }

    @Test
    void itsJobInfoSplitsAndJoinsBackIntoAnEqualJobInfo() throws Exception {
        JobInfo original = new JobInfo(1_764_000_000_000L, built.data());
        Data inMap = SeaTunnel2310Jobs.SS.toData(original);
        SeaTunnelJobInfoParts parts = SeaTunnelJobInfos.split(JOB_ID, SeaTunnel2310Jobs.SS.toObject(inMap));
        JobInfo joined = SeaTunnelJobInfos.join(JOB_ID, parts.initializationTimestamp(),
                parts.jobImmutableInformation().clone());
        assertThat(joined).isEqualTo(original);
        assertThat(SeaTunnel2310Jobs.SS.toData(joined).toByteArray()).isEqualTo(inMap.toByteArray());
        assertSameJob2310(SeaTunnel2310Jobs.SS.toObject(joined.getJobImmutableInformation()), built.job());
    }

    @Test
    void damaged2310BytesAreRefusedNamingTheJob() throws Exception {
        byte[] bytes = built.data().toByteArray().clone();
        int countAt = 25 + 4 + built.job().getJobName().getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 1 + 8;
        int firstVertexAt = countAt + 4;
        int firstVertexLength = java.nio.ByteBuffer.wrap(bytes).getInt(firstVertexAt);
        assertThat(firstVertexLength).isEqualTo(built.job().getLogicalVertexDataList().get(0).totalSize());

        byte[] truncated = java.util.Arrays.copyOf(bytes, firstVertexAt + 4 + firstVertexLength / 2);
        assertThatThrownBy(() -> codec.decode(JOB_ID, truncated)).isInstanceOf(CodecException.class)
                .hasMessageContaining("SeaTunnel job " + JOB_ID)
                .hasMessageContaining("truncated: the first logical vertex declares " + firstVertexLength + " bytes");

        byte[] badCount = bytes.clone();
        java.nio.ByteBuffer.wrap(badCount).putInt(countAt, Integer.MAX_VALUE);
        assertThatThrownBy(() -> codec.decode(JOB_ID, badCount)).isInstanceOf(CodecException.class)
                .hasMessageContaining("logical vertex count " + Integer.MAX_VALUE + " at offset " + countAt);

        byte[] notAVertex = bytes.clone();
        // class id of the first vertex's identified header: Data header (8) + flags (1) + factory id (4)
        java.nio.ByteBuffer.wrap(notAVertex).putInt(firstVertexAt + 4 + 8 + 1 + 4, 0);
        assertThatThrownBy(() -> codec.decode(JOB_ID, notAVertex)).isInstanceOf(CodecException.class)
                .hasMessageContaining("the first logical vertex at offset " + (firstVertexAt + 4))
                .hasMessageContaining("is not LogicalVertex (1)");
    }

    private static void assertSameJob2310(JobImmutableInformation actual, JobImmutableInformation expected) {
        // the fields 2.3.8 has too, with the shared assertions (they call only methods both versions have)
        SeaTunnelJobAssertions.assertSameJobFields(actual, expected);
        // and the two 2.3.10 added
        List<Data> vertices = actual.getLogicalVertexDataList();
        assertThat(vertices).hasSameSizeAs(expected.getLogicalVertexDataList());
        for (int i = 0; i < vertices.size(); i++) {
            assertThat(vertices.get(i).toByteArray()).as("logicalVertexDataList[%d]", i)
                    .isEqualTo(expected.getLogicalVertexDataList().get(i).toByteArray());
        }
        assertThat(actual.getLogicalVertexJarsList()).as("logicalVertexJarsList")
                .isEqualTo(expected.getLogicalVertexJarsList());
        // 2.3.10's DAG bytes carry no vertices: put the deserialized vertices back and compare with the original DAG
        LogicalDag dag = SeaTunnel2310Jobs.SS.toObject(actual.getLogicalDag());
        assertThat(dag.getLogicalVertexMap()).as("vertices inside the DAG's own bytes").isEmpty();
        for (Data vertexData : vertices) {
            LogicalVertex vertex = SeaTunnel2310Jobs.SS.toObject(vertexData);
            dag.getLogicalVertexMap().put(vertex.getVertexId(), vertex);
        }
        assertThat(dag.getLogicalDagAsJson().toString()).as("logical DAG with its vertices")
                .isEqualTo(built.dag().getLogicalDagAsJson().toString());
        assertThat(dag.getEdges()).hasSameSizeAs(built.dag().getEdges());
    }
}
