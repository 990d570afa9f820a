package io.jobinfo.store.benchmarks;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.demo.embedded.InJvmCluster;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.demo.model.JobImmutableInformationSerializer;
import io.jobinfo.store.lifecycle.InlineJobInfo;
import io.jobinfo.store.lifecycle.JobInfoSerialization;
import io.jobinfo.store.ops.MigrationReport;
import io.jobinfo.store.ops.Migrator;
import io.jobinfo.store.spi.JobInfoStore;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Issue 26 item 5: throughput of the operator's {@code migrate} and {@code migrate --rollback} (the {@link Migrator}
 * the CLI runs) on the local store, with {@code --jobs} inline jobs of {@code --blob-size}. Every round starts a fresh
 * cluster of {@code --members} members, fills the map with inline values through a member, and then, through a
 * Hazelcast client as the CLI connects, runs side by side: the dry run, the migration, and the rollback, each over
 * the whole map, with the Migrator's defaults (parallelism included). Throughput is encoded payload bytes moved
 * divided by the run's wall time (keys listed to report built), in MB/s (10^6 bytes).
 */
final class MigrateBenchmark {

    static final String MAP = "bench_migrate_runningJobInfo";
    /** Metric keys: {@code migrate.<phase>.mbps} and {@code .seconds}; phases dryRun, migrate, rollback. */
    static final String[] PHASES = {"dryRun", "migrate", "rollback"};

    private final BenchOptions o;
    private final Metrics m;
    private final Backend backend;
    private final Map<Long, byte[]> payloads = new LinkedHashMap<>();
    private final long payloadBytes;

    MigrateBenchmark(BenchOptions o, Metrics m, Backend localBackend) {
        this.o = o;
        this.m = m;
        this.backend = localBackend;
        KryoJobInfoCodec<JobImmutableInformation> codec = JobImmutableInformationSerializer.codec();
        JobGenerator generator = new JobGenerator(4242);
        long total = 0;
        for (int i = 0; i < o.jobs; i++) {
            long id = 770_000_000_000_000L + i * 7919L;
            byte[] encoded = codec.encode(generator.generate(id, o.blobBytes));
            payloads.put(id, encoded);
            total += encoded.length;
        }
        this.payloadBytes = total;
        m.add("migrate.jobs", "jobs", o.jobs);
        m.add("migrate.payloadBytes", "bytes", total);
    }

    void run() throws Exception {
        int codecId = JobImmutableInformationSerializer.codec().id();
        for (int r = 1; r <= o.rounds; r++) {
            ScenarioBenchmark.log("round %d/%d: migrate / rollback of %d jobs, local store", r, o.rounds, o.jobs);
            String ns = "migrate-r" + r;
            try (InJvmCluster cluster = new InJvmCluster(o.members, BenchmarkMain.CLUSTER_PORT, "jobinfo-bench-mig");
                 JobInfoStore store = backend.open(ns)) {
                IMap<Long, InlineJobInfo> fill = cluster.master().getMap(MAP);
                Map<Long, InlineJobInfo> batch = new LinkedHashMap<>();
                long now = System.currentTimeMillis();
                for (Map.Entry<Long, byte[]> e : payloads.entrySet()) {
                    batch.put(e.getKey(), new InlineJobInfo(now, codecId, e.getValue()));
                    if (batch.size() == 100) {
                        fill.putAll(batch);
                        batch.clear();
                    }
                }
                fill.putAll(batch);
                HazelcastInstance client = client(cluster);
                try {
                    IMap<Long, Object> map = client.getMap(MAP);
                    Migrator.Builder builder = Migrator.builder(map, store);
                    if (o.migrateParallelism > 0) {
                        builder.parallelism(o.migrateParallelism);
                    }
                    Migrator migrator = builder.build();
                    for (String phase : PHASES) {
                        System.gc();
                        long cpu0 = processCpuNanos();
                        MigrationReport report = switch (phase) {
                            case "dryRun" -> migrator.migrate(true);
                            case "migrate" -> migrator.migrate(false);
                            default -> migrator.rollback(false);
                        };
                        record(phase, report, processCpuNanos() - cpu0);
                    }
                } finally {
                    client.shutdown();
                }
            } finally {
                backend.clear(ns);
            }
        }
    }

    /** CPU time of this whole JVM (client, members, store I/O calls), or -1 where the JVM does not tell. */
    static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory
                .getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean
                ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() : -1;
    }

    private void record(String phase, MigrationReport report, long cpuNanos) {
        if (report.converted() != o.jobs || !report.failed().isEmpty()) {
            throw new IllegalStateException(phase + ": converted " + report.converted() + " of " + o.jobs
                    + ", failed " + report.failed());
        }
        if (report.payloadBytes() != payloadBytes) {
            throw new IllegalStateException(phase + ": moved " + report.payloadBytes() + " bytes, expected "
                    + payloadBytes);
        }
        double seconds = report.duration().toNanos() / 1e9;
        double mbps = payloadBytes / 1e6 / seconds;
        double cpuMsPerJob = cpuNanos / 1e6 / o.jobs;
        ScenarioBenchmark.log("  %-8s %6.2f s  %8.1f MB/s  cpu %.2f ms/job", phase, seconds, mbps, cpuMsPerJob);
        if (cpuNanos >= 0) {
            m.add("migrate." + phase + ".cpuMsPerJob", "ms", cpuMsPerJob);
        }
        m.add("migrate." + phase + ".seconds", "s", seconds);
        m.add("migrate." + phase + ".mbps", "MB/s", mbps);
    }

    private static HazelcastInstance client(InJvmCluster cluster) {
        HazelcastInstance member = cluster.master();
        ClientConfig config = new ClientConfig();
        config.setClusterName(member.getConfig().getClusterName());
        config.setProperty("hazelcast.logging.type", "slf4j");
        config.setProperty("hazelcast.phone.home.enabled", "false");
        for (HazelcastInstance h : cluster.live()) {
            InetSocketAddress a = (InetSocketAddress) h.getLocalEndpoint().getSocketAddress();
            config.getNetworkConfig().addAddress("127.0.0.1:" + a.getPort());
        }
        return HazelcastClient.newHazelcastClient(JobInfoSerialization.configure(config));
    }

    /** Standalone runner for the {@code migrate} command (no report): prints the figures. */
    static Metrics runAlone(BenchOptions o, Path work) throws Exception {
        Metrics m = new Metrics();
        try (Backend local = Backend.local(work)) {
            new MigrateBenchmark(o, m, local).run();
        }
        return m;
    }
}
