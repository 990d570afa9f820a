package io.jobinfo.store.seatunnel.testing;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.lang3.tuple.ImmutablePair;
import org.apache.seatunnel.api.common.JobContext;
import org.apache.seatunnel.common.config.Common;
import org.apache.seatunnel.common.config.DeployMode;
import org.apache.seatunnel.engine.common.config.JobConfig;
import org.apache.seatunnel.engine.core.dag.actions.Action;
import org.apache.seatunnel.engine.core.dag.logical.LogicalDag;
import org.apache.seatunnel.engine.core.job.AbstractJobEnvironment;
import org.apache.seatunnel.connectors.seatunnel.console.sink.ConsoleSinkFactory;
import org.apache.seatunnel.connectors.seatunnel.fake.source.FakeSourceFactory;
import org.apache.seatunnel.engine.core.job.ConnectorJarIdentifier;
import org.apache.seatunnel.engine.core.job.ConnectorJarType;
import org.apache.seatunnel.engine.core.job.JobImmutableInformation;
import org.apache.seatunnel.engine.core.parse.MultipleTableJobConfigParser;

/**
 * Builds real SeaTunnel 2.3.8 jobs with SeaTunnel's own classes, the way its client does: writes a job configuration
 * (a streaming FakeSource -> Console job over {@code tables} tables through FakeSource's {@code tables_configs}),
 * parses it with {@link MultipleTableJobConfigParser}, generates the {@link LogicalDag} with SeaTunnel's
 * {@code LogicalDagGenerator}, serializes it and builds the {@link JobImmutableInformation} as
 * {@code ClientJobExecutionEnvironment.execute()} does (no connector jar upload: plugins are found on the
 * classpath), then serializes that.
 *
 * <p>Serialization uses a Hazelcast serialization service built from the classpath, so it has SeaTunnel's
 * {@code DataSerializerHook}s (META-INF/services), like every member and client.
 *
 * <p>Needs on the test classpath: {@code org.apache.seatunnel:seatunnel-engine-core}, {@code connector-fake} and
 * {@code connector-console} (2.3.8) and a {@code com.hazelcast:hazelcast} (never SeaTunnel's
 * {@code seatunnel-hazelcast-shade} next to another Hazelcast). Failures (a configuration SeaTunnel rejects, a missing
 * connector) surface as SeaTunnel's own exceptions.
 */
public final class SeaTunnelJobs {

    /** Where configurations are written unless told otherwise: {@code target/seatunnel-jobs} of the running module. */
    public static final Path DEFAULT_DIR = Paths.get("target", "seatunnel-jobs");

    private static final SerializationService SERIALIZATION = new DefaultSerializationServiceBuilder()
            .setClassLoader(SeaTunnelJobs.class.getClassLoader()).build();
    private static final Map<String, RealSeaTunnelJob> CACHE = new ConcurrentHashMap<>();

    private SeaTunnelJobs() {
    }

    /** A serialization service with SeaTunnel's DataSerializerHooks, shared by the builder and the tests. */
    public static SerializationService serializationService() {
        return SERIALIZATION;
    }

    /**
     * A FakeSource -> Console streaming job of {@code tables} x {@code columns}, built once per JVM for each
     * (jobId, tables, columns, uploadedJars) and then shared. Do not modify the returned job.
     *
     * @param uploadedJars as with {@code connector-jar-storage.enable: true}: the job lists the FakeSource and
     *                     Console connector jars as uploaded to the engine (identifiers and URLs of their storage
     *                     paths); otherwise both lists are empty, as with the stock configuration and connectors on
     *                     the classpath
     */
    public static RealSeaTunnelJob fakeToConsole(long jobId, int tables, int columns, boolean uploadedJars) {
        String key = jobId + "/" + tables + "/" + columns + "/" + uploadedJars;
        return CACHE.computeIfAbsent(key, k -> build(jobId, tables, columns, uploadedJars));
    }

    /** Builds a new job (not cached), its configuration written under {@link #DEFAULT_DIR}. */
    public static RealSeaTunnelJob build(long jobId, int tables, int columns, boolean uploadedJars) {
        Path file = writeFakeToConsoleConfig(DEFAULT_DIR, "fake-to-console-" + jobId + "-" + tables + "x" + columns,
                tables, columns);
        return build(jobId, file, tables, columns, uploadedJars);
    }

    /** Parses {@code configFile} and builds its job, as SeaTunnel's client does. */
    public static RealSeaTunnelJob build(long jobId, Path configFile, int tables, int columns, boolean uploadedJars) {
        Common.setDeployMode(DeployMode.CLIENT);
        JobConfig jobConfig = new JobConfig();
        jobConfig.setJobContext(new JobContext(jobId));
        FileJobEnvironment env = new FileJobEnvironment(jobConfig, configFile);
        LogicalDag dag = env.getLogicalDag();
        if (uploadedJars) {
            env.addUploadedConnectorJars(jobId);
        }
        JobImmutableInformation job = env.jobImmutableInformation(jobId, SERIALIZATION.toData(dag));
        Data data = SERIALIZATION.toData(job);
        return new RealSeaTunnelJob(jobId, tables, columns, configFile, job, dag, data);
    }

    /**
     * Writes a streaming FakeSource -> Console job configuration (HOCON) with {@code tables} tables of
     * {@code columns} columns each and returns its path ({@code dir/name.conf}).
     */
    public static Path writeFakeToConsoleConfig(Path dir, String name, int tables, int columns) {
        if (tables < 1 || columns < 1) {
            throw new IllegalArgumentException("tables and columns must be at least 1: " + tables + " x " + columns);
        }
        String[] types = {"string", "int", "bigint", "double", "boolean"};
        StringBuilder sb = new StringBuilder(256 + tables * (64 + columns * 24));
        sb.append("env {\n  parallelism = 1\n  job.mode = \"STREAMING\"\n  job.name = \"").append(name)
                .append("\"\n  checkpoint.interval = 10000\n}\n\n");
        sb.append("source {\n  FakeSource {\n    tables_configs = [\n");
        for (int t = 0; t < tables; t++) {
            sb.append("      {\n        row.num = 10\n        schema {\n          table = \"jobinfo.table_")
                    .append(t).append("\"\n          fields {\n");
            for (int c = 0; c < columns; c++) {
                sb.append("            c_").append(c).append(" = ").append(types[c % types.length]).append('\n');
            }
            sb.append("          }\n        }\n      }").append(t + 1 < tables ? "," : "").append('\n');
        }
        sb.append("    ]\n  }\n}\n\n");
        sb.append("sink {\n  Console {\n    log.print.data = false\n  }\n}\n");
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve(name + ".conf");
            Files.write(file, sb.toString().getBytes(StandardCharsets.UTF_8));
            return file.toAbsolutePath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the job configuration under " + dir, e);
        }
    }

    /** The client's job environment without a cluster: parses a file, keeps the jars found, no upload. */
    private static final class FileJobEnvironment extends AbstractJobEnvironment {
        private final Path file;

        FileJobEnvironment(JobConfig jobConfig, Path file) {
            super(jobConfig, false);
            this.file = file;
        }

        @Override
        protected MultipleTableJobConfigParser getJobConfigParser() {
            return new MultipleTableJobConfigParser(file.toString(), null, idGenerator, jobConfig, commonPluginJars,
                    isStartWithSavePoint);
        }

        @Override
        public LogicalDag getLogicalDag() {
            ImmutablePair<List<Action>, Set<URL>> parsed = getJobConfigParser().parse(null);
            actions.addAll(parsed.getLeft());
            jarUrls.addAll(commonPluginJars);
            jarUrls.addAll(parsed.getRight());
            for (Action action : actions) {
                addCommonPluginJarsToAction(action, new HashSet<>(commonPluginJars), Collections.emptySet());
            }
            return getLogicalDagGenerator().generate();
        }

        /**
         * What the client records after uploading the connector jars (ConnectorPackageClient): one identifier per
         * jar, with the engine's storage path, and the URLs of those paths.
         */
        void addUploadedConnectorJars(long jobId) {
            for (Class<?> factory : new Class<?>[] {FakeSourceFactory.class, ConsoleSinkFactory.class}) {
                try {
                    Path jar = Paths.get(factory.getProtectionDomain().getCodeSource().getLocation().toURI());
                    String fileName = jar.getFileName().toString();
                    String storagePath = "/tmp/seatunnel/connector-jar-storage/" + jobId + "/connector_plugin_jars/"
                            + fileName;
                    byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(jar));
                    connectorJarIdentifiers.add(ConnectorJarIdentifier.of(digest,
                            ConnectorJarType.CONNECTOR_PLUGIN_JAR, fileName, storagePath));
                    jarUrls.add(Paths.get(storagePath).toUri().toURL());
                } catch (Exception e) {
                    throw new IllegalStateException("cannot describe the jar of " + factory.getName(), e);
                }
            }
        }

        JobImmutableInformation jobImmutableInformation(long jobId, Data logicalDag) {
            return new JobImmutableInformation(jobId, jobConfig.getName(), isStartWithSavePoint, logicalDag,
                    jobConfig, new ArrayList<>(jarUrls), new ArrayList<>(connectorJarIdentifiers));
        }
    }
}
