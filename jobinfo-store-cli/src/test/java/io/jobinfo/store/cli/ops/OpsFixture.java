package io.jobinfo.store.cli.ops;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.jobinfo.store.cli.JobInfoStoreCli;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.demo.model.JobImmutableInformationSerializer;
import io.jobinfo.store.lifecycle.InlineJobInfo;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.testing.HazelcastTestCluster;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import picocli.CommandLine;

/** A real embedded cluster, a real local store, and the CLI run in-process with captured output. */
final class OpsFixture {

    static final KryoJobInfoCodec<JobImmutableInformation> CODEC = JobImmutableInformationSerializer.codec();

    private OpsFixture() {
    }

    /** Result of one CLI run. */
    record Run(int exit, String out, String err) {
    }

    static Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = JobInfoStoreCli.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    /** Connection options for the CLI: every member's address, the cluster's name, a short connect timeout. */
    static List<String> connection(HazelcastTestCluster cluster, String map, Path storageYaml) {
        List<String> args = new ArrayList<>();
        for (HazelcastInstance m : cluster.members()) {
            var a = m.getCluster().getLocalMember().getAddress();
            args.add("--address");
            args.add(a.getHost() + ":" + a.getPort());
        }
        args.addAll(List.of("--cluster-name", cluster.clusterName(), "--map", map, "--storage-config",
                storageYaml.toString(), "--connect-timeout", "5s"));
        return args;
    }

    static String[] args(List<String> connection, String... command) {
        List<String> all = new ArrayList<>(List.of(command));
        all.addAll(connection);
        return all.toArray(String[]::new);
    }

    /** Writes a jobinfo-storage YAML for a local store in {@code dir}; returns the file. */
    static Path storageYaml(Path configDir, Path storeDir) throws Exception {
        Path yaml = configDir.resolve("jobinfo-" + System.nanoTime() + ".yaml");
        Files.writeString(yaml, "jobinfo-storage:\n  type: local\n  namespace: " + storeDir.toAbsolutePath()
                + "\n  plugin-config:\n    local.fsync: true\n");
        return yaml;
    }

    static JobInfoStore openStore(Path storageYaml) throws Exception {
        return JobInfoStores.open(JobInfoStorageConfig.fromYaml(storageYaml));
    }

    /** Encoded jobs of about {@code bytes} each, ids {@code firstId..firstId+count-1}. */
    static Map<Long, byte[]> encodedJobs(long firstId, int count, int bytes) {
        JobGenerator gen = new JobGenerator(firstId);
        Map<Long, byte[]> jobs = new HashMap<>();
        for (long id = firstId; id < firstId + count; id++) {
            jobs.put(id, CODEC.encode(gen.generate(id, bytes)));
        }
        return jobs;
    }

    /** Puts each job inline, the way a coordinator without this library does; returns the values put. */
    static Map<Long, InlineJobInfo> putInline(IMap<Long, Object> map, Map<Long, byte[]> jobs) {
        Map<Long, InlineJobInfo> values = new HashMap<>();
        Map<Long, Object> batch = new HashMap<>();
        for (Map.Entry<Long, byte[]> e : jobs.entrySet()) {
            InlineJobInfo v = new InlineJobInfo(1_700_000_000_000L + e.getKey(), CODEC.id(), e.getValue());
            values.put(e.getKey(), v);
            batch.put(e.getKey(), v);
            if (batch.size() == 50) {
                map.putAll(batch);
                batch.clear();
            }
        }
        map.putAll(batch);
        return values;
    }

    /** Job blobs in {@code storeDir} (not the namespace claim a registry writes). */
    static long countBlobs(Path storeDir) throws Exception {
        if (!Files.isDirectory(storeDir)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(storeDir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".jobinfo")
                    && !p.getFileName().toString().equals(io.jobinfo.store.lifecycle.NamespaceClaim.BLOB_NAME))
                    .count();
        }
    }

    static long countFiles(Path storeDir) throws Exception {
        if (!Files.isDirectory(storeDir)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(storeDir)) {
            return files.count();
        }
    }
}
