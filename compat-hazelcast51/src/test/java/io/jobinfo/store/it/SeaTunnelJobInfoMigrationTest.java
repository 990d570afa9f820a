package io.jobinfo.store.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.BuildInfoProvider;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.HeapData;
import com.hazelcast.map.IMap;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformationSerializer;
import io.jobinfo.store.seatunnel.SeaTunnelJobDataCodec;
import io.jobinfo.store.seatunnel.SeaTunnelJobInfoFormat;
import io.jobinfo.store.seatunnel.testing.RealSeaTunnelJob;
import io.jobinfo.store.seatunnel.testing.SeaTunnelJobs;
import io.jobinfo.store.lifecycle.InlineJobInfo;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStores;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.seatunnel.engine.core.job.JobInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, item 2: the command line tool migrates a map of REAL SeaTunnel {@code JobInfo} values on a cluster
 * running SeaTunnel's Hazelcast (5.1, with seatunnel-engine-core 2.3.8 on the members' classpath), live, verifies it,
 * inspects a job, rolls it back to values equal to the originals (same initialization timestamp, same Data bytes,
 * same serialized value), migrates it again and finds no orphan.
 *
 * <p>The members are separate JVMs started from this module's test classpath (Hazelcast 5.1). The values are written
 * by SeaTunnel's own classes ({@code JobImmutableInformation} built and serialized by {@link SeaTunnelJobs}, wrapped
 * in SeaTunnel's {@code JobInfo}) through a Hazelcast 5.1 client in this JVM. The CLI runs as a process from its
 * built {@code jobinfo-store-cli.jar} + {@code lib/} (its Hazelcast 5.3 client, SeaTunnel's core on its classpath) with
 * the default {@code --value-format auto}. A reader and a writer in this JVM work on the map during the first
 * migration: the reader checks every value it sees is the original JobInfo or a pointer with its timestamp; the writer
 * adds and removes other jobs.
 */
class SeaTunnelJobInfoMigrationTest {

    private static final String MAP = "engine_runningJobInfo";
    private static final int PORT_BASE = 5785;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Finds the pointer inside a migrated SeaTunnel JobInfo (the drop-in's reference). */
    private static final SeaTunnelJobInfoFormat SEATUNNEL = new SeaTunnelJobInfoFormat();

    @TempDir
    Path tmp;

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void migratesVerifiesRollsBackAndMigratesAgainRealSeaTunnelJobInfos() throws Exception {
        assertThat(BuildInfoProvider.getBuildInfo().getVersion()).startsWith("5.1");
        Path storeDir = Files.createDirectories(tmp.resolve("store"));
        JobInfoStorageConfig storage = localStorage(storeDir);
        Path storageYaml = storageYaml(storeDir);

        try (ProcessCluster cluster = new ProcessCluster("st51", PORT_BASE, 3, storage);
             JobInfoStore store = JobInfoStores.open(storage)) {
            cluster.start(2);
            HazelcastInstance client = cluster.newClient(30);
            SerializationService ss = ((SerializationServiceSupport) client).getSerializationService();
            IMap<Long, Object> map = client.getMap(MAP);

            // real SeaTunnel jobs: 1 x 2 (about 10 KB), 10 x 10 (about 23 KB) and 100 x 10 (about 119 KB)
            int[][] shapes = {{1, 2}, {10, 10}, {100, 10}};
            Map<Long, RealSeaTunnelJob> jobs = new LinkedHashMap<>();
            Map<Long, byte[]> originalValueBytes = new LinkedHashMap<>();
            Map<Long, Long> timestamps = new LinkedHashMap<>();
            for (int i = 0; i < 9; i++) {
                long jobId = 7_000_000L + i;
                int[] shape = shapes[i % shapes.length];
                RealSeaTunnelJob job = SeaTunnelJobs.build(jobId, shape[0], shape[1], false);
                long ts = 1_700_000_000_000L + i * 1013L;
                JobInfo value = new JobInfo(ts, new HeapData(job.bytes()));
                map.put(jobId, value);
                jobs.put(jobId, job);
                timestamps.put(jobId, ts);
                originalValueBytes.put(jobId, ss.toData(value).toByteArray());
            }
            // two of this library's InlineJobInfo values beside them (auto recognises both per value)
            // (real demo-model jobs: verify decodes every payload, so random bytes would be broken jobs)
            JobGenerator generator = new JobGenerator(42);
            for (long jobId = 1; jobId <= 2; jobId++) {
                byte[] payload = JobImmutableInformationSerializer.codec()
                        .encode(generator.generate(jobId, 20_000 + (int) jobId));
                InlineJobInfo inline = new InlineJobInfo(1_600_000_000_000L + jobId, 1, payload);
                map.put(jobId, inline);
                originalValueBytes.put(jobId, ss.toData(inline).toByteArray());
            }
            int entries = originalValueBytes.size();
            // what the members hold is SeaTunnel's JobInfo, read back by a 5.1 client with SeaTunnel's own factory
            assertThat(map.get(7_000_000L)).isInstanceOf(JobInfo.class);

            // a live reader and writer during the first migration
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<String> readerProblem = new AtomicReference<>();
            AtomicLong reads = new AtomicLong();
            AtomicLong writes = new AtomicLong();
            Thread reader = new Thread(() -> {
                List<Long> keys = new ArrayList<>(jobs.keySet());
                Random r = new Random(1);
                while (!stop.get() && readerProblem.get() == null) {
                    long k = keys.get(r.nextInt(keys.size()));
                    Object v = map.get(k);
                    reads.incrementAndGet();
                    if (SEATUNNEL.pointerIn(v) != null) {
                        JobInfoPointer p = SEATUNNEL.pointerIn(v);
                        if (p.initializationTimestamp() != timestamps.get(k) || p.codecId() != 2
                                || !((JobInfo) v).getInitializationTimestamp().equals(timestamps.get(k))) {
                            readerProblem.set("job " + k + ": reference " + p + " lost the timestamp or codec");
                        }
                    } else if (v instanceof JobInfo) {
                        if (!Arrays.equals(ss.toData(v).toByteArray(), originalValueBytes.get(k))) {
                            readerProblem.set("job " + k + ": a JobInfo other than the original");
                        }
                    } else if (v instanceof JobInfoPointer) {
                        JobInfoPointer p = (JobInfoPointer) v;
                        if (p.initializationTimestamp() != timestamps.get(k) || p.codecId() != 2) {
                            readerProblem.set("job " + k + ": pointer " + p + " lost the timestamp or codec");
                        }
                    } else {
                        readerProblem.set("job " + k + ": " + v);
                    }
                }
            }, "live-reader");
            // each churn job holds its own id: the SeaTunnel format refuses a JobInfo whose bytes name another job
            RealSeaTunnelJob[] churnJobs = new RealSeaTunnelJob[20];
            for (int i = 0; i < churnJobs.length; i++) {
                churnJobs[i] = SeaTunnelJobs.build(7_900_000L + i, 1, 2, false);
            }
            Thread writer = new Thread(() -> {
                long n = 0;
                while (!stop.get()) {
                    long k = 7_900_000L + (n % 20);
                    if (n % 2 == 0) {
                        map.put(k, new JobInfo(System.currentTimeMillis(), new HeapData(churnJobs[(int) (n % 20)].bytes())));
                    } else {
                        endJob(map, store, 7_900_000L + ((n - 1) % 20));
                    }
                    n++;
                    writes.incrementAndGet();
                }
            }, "live-writer");
            reader.start();
            writer.start();
            Cli migrate;
            try {
                migrate = cli(cluster, storageYaml, "migrate", "--json", "--parallelism", "2");
            } finally {
                stop.set(true);
                reader.join(30_000);
                writer.join(30_000);
            }
            for (long k = 7_900_000L; k < 7_900_020L; k++) {
                endJob(map, store, k); // the writer's jobs ended; only the original entries stay
            }
            assertThat(readerProblem.get()).isNull();
            assertThat(reads.get()).isPositive();
            assertThat(writes.get()).isPositive();
            assertThat(migrate.exit).as(migrate.toString()).isZero();
            assertThat(migrate.json.get("failed").asInt()).isZero();
            assertThat(migrate.json.get("migrated").asInt()).as(migrate.toString()).isGreaterThanOrEqualTo(entries);
            for (Map.Entry<Long, RealSeaTunnelJob> e : jobs.entrySet()) {
                // SeaTunnel reads every value as its JobInfo: the migrated one is a JobInfo holding the drop-in's
                // reference (type id JIS1), never a bare pointer
                Object v = map.get(e.getKey());
                assertThat(v).isInstanceOf(JobInfo.class);
                assertThat(((JobInfo) v).getJobImmutableInformation().getType())
                        .isEqualTo(io.jobinfo.store.seatunnel.dropin.JobInfoReferenceSerializer.TYPE_ID);
                JobInfoPointer p = SEATUNNEL.pointerIn(v);
                assertThat(p).isNotNull();
                assertThat(p.initializationTimestamp()).isEqualTo(timestamps.get(e.getKey()));
                assertThat(p.codecId()).isEqualTo(SeaTunnelJobDataCodec.ID);
                assertThat(p.payloadLength()).isEqualTo(e.getValue().size());
            }
            assertThat(map.get(1L)).isInstanceOf(JobInfoPointer.class);
            assertThat(((JobInfoPointer) map.get(1L)).codecId()).isEqualTo(1);

            Cli verify = cli(cluster, storageYaml, "verify", "--json");
            assertThat(verify.exit).as(verify.toString()).isZero();
            assertThat(verify.json.get("broken")).isEmpty();
            assertThat(verify.json.get("inline")).isEmpty();

            long inspected = 7_000_002L; // 100 tables x 10 columns
            Cli inspect = cli(cluster, storageYaml, "inspect", Long.toString(inspected), "--json");
            assertThat(inspect.exit).as(inspect.toString()).isZero();
            JsonNode job = inspect.json.get("job");
            assertThat(job.get("codecId").asInt()).isEqualTo(2);
            assertThat(job.get("jobId").asLong()).isEqualTo(inspected);
            assertThat(job.get("jobName").asText()).isEqualTo(jobs.get(inspected).job().getJobName());
            assertThat(job.get("encodedBytes").asInt()).isEqualTo(jobs.get(inspected).size());
            assertThat(inspect.json.get("verified").asBoolean()).isTrue();

            Cli rollback = cli(cluster, storageYaml, "migrate", "--rollback", "--json");
            assertThat(rollback.exit).as(rollback.toString()).isZero();
            assertThat(rollback.json.get("rolledBack").asInt()).isEqualTo(entries);
            for (Map.Entry<Long, byte[]> e : originalValueBytes.entrySet()) {
                Object v = map.get(e.getKey());
                byte[] now = ss.toData(v).toByteArray();
                assertThat(now).as("job %d rolled back to the original value bytes", e.getKey())
                        .isEqualTo(e.getValue());
                if (jobs.containsKey(e.getKey())) {
                    JobInfo back = (JobInfo) v;
                    assertThat(back.getInitializationTimestamp()).isEqualTo(timestamps.get(e.getKey()));
                    Data data = back.getJobImmutableInformation();
                    assertThat(data.toByteArray()).isEqualTo(jobs.get(e.getKey()).bytes());
                    assertThat(back).isEqualTo(new JobInfo(timestamps.get(e.getKey()),
                            new HeapData(jobs.get(e.getKey()).bytes())));
                } else {
                    assertThat(v).isInstanceOf(InlineJobInfo.class);
                }
            }
            assertThat(io.jobinfo.store.lifecycle.NamespaceClaim.jobsOnly(store.list())).as("blobs left after the"
                    + " rollback (the members' registries claimed the namespace: that blob stays)").isEmpty();

            Cli again = cli(cluster, storageYaml, "migrate", "--json");
            assertThat(again.exit).as(again.toString()).isZero();
            assertThat(again.json.get("migrated").asInt()).isEqualTo(entries);
            assertThat(map.values()).allMatch(v -> v instanceof JobInfoPointer || SEATUNNEL.pointerIn(v) != null);

            Cli gc = cli(cluster, storageYaml, "gc", "--json");
            assertThat(gc.exit).as(gc.toString()).isZero();
            assertThat(gc.json.get("orphans")).isEmpty();
        }
    }

    /**
     * Issue 23 (operator tools on SeaTunnel's map): {@code gc --delete} on {@code engine_runningJobInfo} claims the ids
     * of orphan blobs with locks in the drop-in's claims map and never puts anything into SeaTunnel's map, whose every
     * value a member reads as {@code JobInfo} (before: a {@code DeleteMarker} went under each orphan's id for the
     * time of its delete, which a stock member cannot read and a drop-in member would take for a job). An id whose
     * lock is held (a drop-in move between its blob write and its reference) keeps its blob.
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void gcOnSeaTunnelsMapClaimsWithLocksAndWritesNothingIntoIt() throws Exception {
        Path storeDir = Files.createDirectories(tmp.resolve("store"));
        JobInfoStorageConfig storage = localStorage(storeDir);
        Path storageYaml = storageYaml(storeDir);
        try (ProcessCluster cluster = new ProcessCluster("st51gc", GC_PORT_BASE, 2, storage);
             JobInfoStore store = JobInfoStores.open(storage)) {
            cluster.start(2);
            HazelcastInstance client = cluster.newClient(30);
            IMap<Long, Object> map = client.getMap(MAP);
            // one running job as the drop-in leaves it: its blob, and SeaTunnel's JobInfo holding the reference
            long running = 7_100_000L;
            RealSeaTunnelJob job = SeaTunnelJobs.build(running, 1, 2, false);
            long ts = 1_700_000_000_000L;
            byte[] envelope = io.jobinfo.store.envelope.BlobEnvelope.wrap(running, SeaTunnelJobDataCodec.ID, ts,
                    job.bytes());
            store.create(running, io.jobinfo.store.envelope.BlobSource.ofBytes(envelope));
            JobInfoPointer pointer = new JobInfoPointer(running, ts, store.storeId(),
                    io.jobinfo.store.envelope.BlobEnvelope.headerFor(running, SeaTunnelJobDataCodec.ID, ts,
                            job.bytes()));
            map.put(running, SEATUNNEL.pointerValue(pointer));
            // orphans: blobs of jobs that ended without their delete (a crash between the entry's removal and it)
            List<Long> orphans = new ArrayList<>();
            for (long id = 7_200_000L; id < 7_200_005L; id++) {
                store.create(id, io.jobinfo.store.envelope.BlobSource.ofBytes(
                        io.jobinfo.store.envelope.BlobEnvelope.wrap(id, SeaTunnelJobDataCodec.ID, ts, job.bytes())));
                orphans.add(id);
            }
            long busy = orphans.get(2); // a move of this id holds its claim lock during the whole gc
            IMap<Long, Boolean> locks = client.getMap(io.jobinfo.store.lifecycle.LockClaims.SEATUNNEL_CLAIMS);
            locks.lock(busy);
            List<String> writes = java.util.Collections.synchronizedList(new ArrayList<>());
            map.addEntryListener((com.hazelcast.map.listener.EntryAddedListener<Long, Object>) e ->
                    writes.add("added " + e.getKey()), false);
            map.addEntryListener((com.hazelcast.map.listener.EntryUpdatedListener<Long, Object>) e ->
                    writes.add("updated " + e.getKey()), false);
            try {
                Cli gc = cli(cluster, GC_PORT_BASE, storageYaml, "gc", "--delete", "--force", "--grace", "0s",
                        "--json");
                assertThat(gc.exit).as(gc.toString()).isZero();
                List<Long> deleted = new ArrayList<>();
                gc.json.get("deleted").forEach(n -> deleted.add(n.get("jobId").asLong()));
                List<Long> expected = new ArrayList<>(orphans);
                expected.remove(busy);
                assertThat(deleted).as(gc.toString()).containsExactlyInAnyOrderElementsOf(expected);
                assertThat(gc.json.get("savedByRecheck").asInt()).as("the busy id's blob is kept").isEqualTo(1);
            } finally {
                locks.unlock(busy);
            }
            Thread.sleep(500); // entry events are asynchronous
            assertThat(writes).as("values written into SeaTunnel's map by gc").isEmpty();
            assertThat(map.keySet()).containsExactly(running);
            assertThat(SEATUNNEL.pointerIn(map.get(running))).isEqualTo(pointer);
            assertThat(store.read(running).payload()).isEqualTo(job.bytes());
            assertThat(store.read(busy).header().jobId()).isEqualTo(busy);
        }
    }

    private static final int GC_PORT_BASE = 5775;

    /**
     * Issue 23 (operator tools on SeaTunnel's map): {@code rebuild-pointers --all-partitions --apply} on
     * {@code engine_runningJobInfo} holding SeaTunnel's {@code JobInfo} values refuses (exit 2, one line naming the map
     * and what to do) and writes nothing. Before, it put a bare {@code JobInfoPointer} under the id of a blob without
     * an entry: a value no stock member reads (each reads every value of the map as its {@code JobInfo}).
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void rebuildPointersRefusesOnSeaTunnelsMapAndWritesNothingIntoIt() throws Exception {
        Path storeDir = Files.createDirectories(tmp.resolve("store"));
        JobInfoStorageConfig storage = localStorage(storeDir);
        try (ProcessCluster cluster = new ProcessCluster("st51rebuild", REBUILD_PORT_BASE, 2, storage);
             JobInfoStore store = JobInfoStores.open(storage)) {
            long running = 7_300_000L; // a stock job inline, as SeaTunnel puts it
            JobInfo stock = new JobInfo(1_700_000_000_000L,
                    new HeapData(SeaTunnelJobs.build(running, 1, 2, false).bytes()));
            cluster.start(2);
            IMap<Long, Object> map = cluster.newClient(30).getMap(MAP);
            map.put(running, stock);
            Path storageYaml = storageYaml(storeDir);
            long ts = stock.getInitializationTimestamp();
            long lost = 7_300_001L; // a blob whose entry is gone (a lost partition, or a job ended before its delete)
            RealSeaTunnelJob lostJob = SeaTunnelJobs.build(lost, 1, 2, false);
            store.create(lost, io.jobinfo.store.envelope.BlobSource.ofBytes(
                    io.jobinfo.store.envelope.BlobEnvelope.wrap(lost, SeaTunnelJobDataCodec.ID, ts, lostJob.bytes())));
            List<String> writes = java.util.Collections.synchronizedList(new ArrayList<>());
            map.addEntryListener((com.hazelcast.map.listener.EntryAddedListener<Long, Object>) e ->
                    writes.add("added " + e.getKey()), false);
            map.addEntryListener((com.hazelcast.map.listener.EntryUpdatedListener<Long, Object>) e ->
                    writes.add("updated " + e.getKey()), false);

            Cli rebuild = cli(cluster, REBUILD_PORT_BASE, storageYaml, false, "rebuild-pointers", "--all-partitions",
                    "--apply", "--modified-before", java.time.Instant.now().plusSeconds(3600).toString());
            Thread.sleep(500); // entry events are asynchronous
            assertThat(map.values()).as("values of SeaTunnel's map after %s", rebuild)
                    .allMatch(v -> v instanceof JobInfo);
            assertThat(writes).as("values written into SeaTunnel's map by %s", rebuild).isEmpty();
            assertThat(rebuild.exit).as(rebuild.toString()).isEqualTo(2);
            List<String> lines = new ArrayList<>();
            for (String line : rebuild.stderr.split("\n")) {
                if (line.startsWith("jobinfo-store rebuild-pointers:")) {
                    lines.add(line);
                }
            }
            assertThat(lines).as(rebuild.toString()).hasSize(1);
            assertThat(lines.get(0)).contains(MAP, "nothing was changed", "--acknowledge-incidents");
            assertThat(map.keySet()).containsExactly(running);
            assertThat(store.read(lost).payload()).isEqualTo(lostJob.bytes());
        }
    }

    private static final int REBUILD_PORT_BASE = 5755;

    private static JobInfoStorageConfig localStorage(Path storeDir) {
        return JobInfoStorageConfig.builder("local").namespace(storeDir.toString()).build();
    }

    /** The CLI's {@code --storage-config} for the local store at {@code storeDir}. */
    private Path storageYaml(Path storeDir) throws java.io.IOException {
        Path yaml = tmp.resolve("jobinfo-storage.yaml");
        Files.write(yaml, ("jobinfo-storage:\n  type: local\n  namespace: " + storeDir.toAbsolutePath()
                + "\n").getBytes(StandardCharsets.UTF_8));
        return yaml;
    }

    /** What the engine does when a job ends: remove the entry, and the blob if the entry was a pointer. */
    private static void endJob(IMap<Long, Object> map, JobInfoStore store, long jobId) {
        Object old = map.remove(jobId);
        if (old instanceof JobInfoPointer || SEATUNNEL.pointerIn(old) != null) {
            try {
                store.delete(jobId);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** One CLI run as a process of its own (Hazelcast 5.7 classpath), its exit code and JSON report. */
    private Cli cli(ProcessCluster cluster, Path storageYaml, String... args) throws Exception {
        return cli(cluster, PORT_BASE, storageYaml, args);
    }

    private Cli cli(ProcessCluster cluster, int portBase, Path storageYaml, String... args) throws Exception {
        return cli(cluster, portBase, storageYaml, true, args);
    }

    /** @param report whether the run must print its JSON report (a refusal prints one line on stderr instead) */
    private Cli cli(ProcessCluster cluster, int portBase, Path storageYaml, boolean report, String... args)
            throws Exception {
        String jar = System.getProperty("compat.cli.jar");
        assertThat(jar).as("system property compat.cli.jar").isNotNull();
        assertThat(new File(jar)).as("the CLI jar (built by the reactor before this module)").isFile();
        List<String> command = new ArrayList<>(Arrays.asList(ChildJvms.javaBinary(), "-Xmx512m",
                "-XX:TieredStopAtLevel=1", "-jar", jar));
        command.addAll(Arrays.asList(args));
        command.addAll(Arrays.asList("--cluster-name", cluster.clusterName(), "--address", "127.0.0.1:" + portBase,
                "--address", "127.0.0.1:" + (portBase + 1), "--map", MAP, "--storage-config",
                storageYaml.toString(), "--connect-timeout", "60s"));
        File out = tmp.resolve("cli-" + System.nanoTime() + ".out").toFile();
        File err = tmp.resolve("cli-" + System.nanoTime() + ".err").toFile();
        Process p = new ProcessBuilder(command).redirectOutput(out).redirectError(err).start();
        if (!p.waitFor(4, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("CLI " + String.join(" ", args) + " did not finish in 4 minutes");
        }
        String stdout = new String(Files.readAllBytes(out.toPath()), StandardCharsets.UTF_8);
        String stderr = new String(Files.readAllBytes(err.toPath()), StandardCharsets.UTF_8);
        JsonNode json = null;
        for (String line : stdout.split("\n")) {
            if (line.startsWith("{")) {
                json = JSON.readTree(line);
            }
        }
        Cli cli = new Cli(String.join(" ", args), p.exitValue(), json, stdout, stderr);
        if (report) {
            assertThat(json).as(cli.toString()).isNotNull();
        }
        return cli;
    }

    private static final class Cli {
        final String command;
        final int exit;
        final JsonNode json;
        final String stdout;
        final String stderr;

        Cli(String command, int exit, JsonNode json, String stdout, String stderr) {
            this.command = command;
            this.exit = exit;
            this.json = json;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        @Override
        public String toString() {
            return "CLI " + command + " exited " + exit + "\nstdout: " + stdout + "\nstderr: "
                    + (stderr.length() > 4000 ? stderr.substring(0, 4000) + "..." : stderr);
        }
    }
}
