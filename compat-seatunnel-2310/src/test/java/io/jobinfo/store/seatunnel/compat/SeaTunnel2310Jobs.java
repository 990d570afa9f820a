package io.jobinfo.store.seatunnel.compat;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import java.io.Serializable;
import java.net.URL;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.seatunnel.api.common.JobContext;
import org.apache.seatunnel.api.sink.SeaTunnelSink;
import org.apache.seatunnel.api.sink.SinkWriter;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.api.table.catalog.PhysicalColumn;
import org.apache.seatunnel.api.table.catalog.TableIdentifier;
import org.apache.seatunnel.api.table.catalog.TableSchema;
import org.apache.seatunnel.api.table.type.BasicType;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.common.constants.JobMode;
import org.apache.seatunnel.engine.common.config.JobConfig;
import org.apache.seatunnel.engine.common.utils.IdGenerator;
import org.apache.seatunnel.engine.core.dag.actions.Action;
import org.apache.seatunnel.engine.core.dag.actions.SinkAction;
import org.apache.seatunnel.engine.core.dag.actions.SourceAction;
import org.apache.seatunnel.engine.core.dag.logical.LogicalDag;
import org.apache.seatunnel.engine.core.dag.logical.LogicalDagGenerator;
import org.apache.seatunnel.engine.core.job.ConnectorJarIdentifier;
import org.apache.seatunnel.engine.core.job.ConnectorJarType;
import org.apache.seatunnel.engine.core.job.JobImmutableInformation;

/**
 * A job of SeaTunnel 2.3.10's shape built with 2.3.10's own classes: a source action and a sink action over
 * {@code tables} catalog tables, the logical DAG generated from them by 2.3.10's {@link LogicalDagGenerator}, and
 * the job built with 2.3.10's constructor, which serializes every logical vertex into {@code logicalVertexDataList}
 * and keeps each vertex's jars in {@code logicalVertexJarsList}.
 *
 * <p>Not parsed from a job configuration: 2.3.10's parser needs 2.3.10 connectors, which Maven Central does not serve,
 * and 2.3.8's FakeSource fails on 2.3.10's API ({@code NoClassDefFoundError:
 * org/apache/seatunnel/api/table/catalog/schema/TableSchemaOptions}). The source and sink are this module's own
 * minimal implementations of 2.3.10's {@code SeaTunnelSource}/{@code SeaTunnelSink} that are never run.
 */
final class SeaTunnel2310Jobs {

    static final SerializationService SS = new DefaultSerializationServiceBuilder()
            .setClassLoader(SeaTunnel2310Jobs.class.getClassLoader()).build();

    private SeaTunnel2310Jobs() {
    }

    record Built(JobImmutableInformation job, LogicalDag dag, Data data) {
    }

    static Built build(long jobId, String name, int tables, int columns) throws Exception {
        JobConfig jobConfig = new JobConfig();
        jobConfig.setName(name);
        jobConfig.setJobContext(new JobContext(jobId).setJobMode(JobMode.STREAMING));
        Map<String, Object> env = new HashMap<>();
        env.put("job.mode", "STREAMING");
        env.put("job.name", name);
        env.put("parallelism", 1);
        env.put("checkpoint.interval", 10000);
        jobConfig.setEnvOptions(env);

        List<CatalogTable> catalogTables = new ArrayList<>();
        for (int t = 0; t < tables; t++) {
            TableSchema.Builder schema = TableSchema.builder();
            for (int c = 0; c < columns; c++) {
                schema.column(PhysicalColumn.of("c_" + c, c % 2 == 0 ? BasicType.STRING_TYPE : BasicType.INT_TYPE,
                        (Long) null, true, null, null));
            }
            catalogTables.add(CatalogTable.of(TableIdentifier.of("jobinfo", "db", "table_" + t), schema.build(),
                    new HashMap<>(), new ArrayList<>(), "table " + t));
        }

        URL jar = Paths.get("/tmp/seatunnel/connector-jar-storage/" + jobId + "/connector_plugin_jars/test.jar")
                .toUri().toURL();
        ConnectorJarIdentifier jarId = ConnectorJarIdentifier.of(new byte[] {1, 2, 3},
                ConnectorJarType.CONNECTOR_PLUGIN_JAR, "test.jar", jar.getPath());
        IdGenerator ids = new IdGenerator();
        Set<URL> jars = new HashSet<>(Collections.singleton(jar));
        Set<ConnectorJarIdentifier> jarIds = new HashSet<>(Collections.singleton(jarId));
        SourceAction<SeaTunnelRow, SourceSplit, Serializable> source = new SourceAction<>(ids.getNextId(),
                "Source[0]-TestSource", new TestSource(catalogTables), new HashSet<>(jars), new HashSet<>(jarIds));
        List<Action> upstream = new ArrayList<>();
        upstream.add(source);
        SinkAction<SeaTunnelRow, Serializable, Serializable, Serializable> sink = new SinkAction<>(ids.getNextId(),
                "Sink[0]-TestSink", upstream, new TestSink(), new HashSet<>(jars), new HashSet<>(jarIds));
        List<Action> actions = new ArrayList<>();
        actions.add(sink);
        LogicalDag dag = new LogicalDagGenerator(actions, jobConfig, ids).generate();

        List<URL> pluginJars = new ArrayList<>(jars);
        List<ConnectorJarIdentifier> connectorJars = new ArrayList<>(jarIds);
        JobImmutableInformation job = new JobImmutableInformation(jobId, name, false, SS, dag, pluginJars,
                connectorJars);
        return new Built(job, dag, SS.toData(job));
    }

    /** A 2.3.10 source that only describes its tables; never run. */
    static final class TestSource implements SeaTunnelSource<SeaTunnelRow, SourceSplit, Serializable> {
        private static final long serialVersionUID = 1L;
        private final List<CatalogTable> tables;

        TestSource(List<CatalogTable> tables) {
            this.tables = tables;
        }

        @Override
        public String getPluginName() {
            return "JobInfoTestSource";
        }

        @Override
        public Boundedness getBoundedness() {
            return Boundedness.UNBOUNDED;
        }

        @Override
        public List<CatalogTable> getProducedCatalogTables() {
            return tables;
        }

        @Override
        public SourceReader<SeaTunnelRow, SourceSplit> createReader(SourceReader.Context context) {
            throw new UnsupportedOperationException("never run");
        }

        @Override
        public SourceSplitEnumerator<SourceSplit, Serializable> createEnumerator(
                SourceSplitEnumerator.Context<SourceSplit> context) {
            throw new UnsupportedOperationException("never run");
        }

        @Override
        public SourceSplitEnumerator<SourceSplit, Serializable> restoreEnumerator(
                SourceSplitEnumerator.Context<SourceSplit> context, Serializable state) {
            throw new UnsupportedOperationException("never run");
        }
    }

    /** A 2.3.10 sink; never run. */
    static final class TestSink implements SeaTunnelSink<SeaTunnelRow, Serializable, Serializable, Serializable> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getPluginName() {
            return "JobInfoTestSink";
        }

        @Override
        public SinkWriter<SeaTunnelRow, Serializable, Serializable> createWriter(SinkWriter.Context context) {
            throw new UnsupportedOperationException("never run");
        }
    }
}
