package io.jobinfo.store.cli.ops;

import io.jobinfo.store.lifecycle.NamespaceClaim;
import static io.jobinfo.store.cli.ops.OpsFixture.CODEC;
import static io.jobinfo.store.cli.ops.OpsFixture.args;
import static io.jobinfo.store.cli.ops.OpsFixture.cli;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hazelcast.map.IMap;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.lifecycle.InlineJobInfo;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.StoreNaming;
import io.jobinfo.store.spi.StoredBlob;
import io.jobinfo.store.testing.HazelcastTestCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code migrate} on a real two-member cluster holding 500 inline jobs of about 200 KiB each (100 MiB, twice with the
 * backup), the CLI connecting as a real Hazelcast client, blobs in a real local store.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class MigrateCommandTest {

    private static final int JOBS = 500;
    private static final long FIRST_ID = 10_001;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static HazelcastTestCluster cluster;
    private static Map<Long, byte[]> jobs;

    @TempDir
    Path dir;

    private String mapName;
    private IMap<Long, Object> map;
    private Path storeDir;
    private Path yaml;
    private List<String> conn;

    @BeforeAll
    static void startCluster() {
        cluster = new HazelcastTestCluster(2);
        jobs = OpsFixture.encodedJobs(FIRST_ID, JOBS, 200 * 1024);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
        jobs = null;
    }

    @BeforeEach
    void freshMapAndStore() throws Exception {
        mapName = "running-" + System.nanoTime();
        map = cluster.master().getMap(mapName);
        storeDir = dir.resolve("store");
        yaml = OpsFixture.storageYaml(dir, storeDir);
        conn = OpsFixture.connection(cluster, mapName, yaml);
    }

    @AfterEach
    void dropMap() {
        map.destroy();
    }

    @Test
    void dryRunChangesNothingThenMigrationRollbackAndMigrationAgainAreByteIdentical() throws Exception {
        Map<Long, InlineJobInfo> originals = OpsFixture.putInline(map, jobs);
        long inlineCost = cluster.entryMemoryCost(mapName);
        long payloadTotal = jobs.values().stream().mapToLong(b -> b.length).sum();

        OpsFixture.Run dry = cli(args(conn, "migrate", "--dry-run", "--json", "--progress", "none"));
        assertThat(dry.exit()).as(dry.err()).isZero();
        JsonNode dryReport = JSON.readTree(dry.out());
        assertThat(dryReport.get("dryRun").asBoolean()).isTrue();
        assertThat(dryReport.get("migrated").asInt()).isEqualTo(JOBS);
        assertThat(dryReport.get("payloadBytes").asLong()).isEqualTo(payloadTotal);
        assertThat(OpsFixture.countFiles(storeDir)).isZero();
        assertMapHolds(originals);

        OpsFixture.Run first = cli(args(conn, "migrate", "--json", "--progress", "lines"));
        assertThat(first.exit()).as(first.err()).isZero();
        JsonNode report = JSON.readTree(first.out());
        assertThat(report.get("migrated").asInt()).isEqualTo(JOBS);
        assertThat(report.get("skipped").asInt()).isZero();
        assertThat(report.get("failed").asInt()).isZero();
        assertThat(report.get("payloadBytes").asLong()).isEqualTo(payloadTotal);
        assertThat(first.err()).contains("migrate: 500 entries").contains("500/500 entries 100%").contains("/s, ETA");
        // the reported heap saving is what the members' own statistics measure
        long pointerCost = cluster.entryMemoryCost(mapName);
        long measuredFreed = inlineCost - pointerCost;
        assertThat(measuredFreed).isGreaterThan(2 * payloadTotal * 9 / 10);
        assertThat((double) report.get("clusterHeapFreedBytes").asLong())
                .isCloseTo(measuredFreed, org.assertj.core.data.Percentage.withPercentage(1));

        Map<Long, byte[]> firstBlobs = new HashMap<>();
        Map<Long, Object> firstPointers = new HashMap<>();
        try (JobInfoStore store = OpsFixture.openStore(yaml)) {
            for (long id : jobs.keySet()) {
                Object v = map.get(id);
                assertThat(v).as("job %d", id).isInstanceOf(JobInfoPointer.class);
                VerifiedBlob blob = store.read(id);
                assertThat(((JobInfoPointer) v).matches(blob.header())).isTrue();
                assertThat(blob.payload()).isEqualTo(jobs.get(id));
                firstBlobs.put(id, Files.readAllBytes(storeDir.resolve(StoreNaming.blobName(id))));
                firstPointers.put(id, v);
            }
        }

        OpsFixture.Run rollback = cli(args(conn, "migrate", "--rollback", "--json", "--progress", "none"));
        assertThat(rollback.exit()).as(rollback.err()).isZero();
        JsonNode rb = JSON.readTree(rollback.out());
        assertThat(rb.get("rolledBack").asInt()).isEqualTo(JOBS);
        assertThat(rb.get("clusterHeapFreedBytes").asLong()).isNegative();
        assertMapHolds(originals); // timestamp, codec and every byte as before the migration
        assertThat(OpsFixture.countBlobs(storeDir)).as("rollback deletes the blobs").isZero();
        assertThat((double) cluster.entryMemoryCost(mapName))
                .isCloseTo(inlineCost, org.assertj.core.data.Percentage.withPercentage(1));

        OpsFixture.Run again = cli(args(conn, "migrate", "--json", "--progress", "none"));
        assertThat(again.exit()).as(again.err()).isZero();
        assertThat(JSON.readTree(again.out()).get("migrated").asInt()).isEqualTo(JOBS);
        for (long id : jobs.keySet()) {
            assertThat(Files.readAllBytes(storeDir.resolve(StoreNaming.blobName(id)))).as("blob of job %d", id)
                    .isEqualTo(firstBlobs.get(id));
            assertThat(map.get(id)).isEqualTo(firstPointers.get(id));
        }

        // idempotent: a rerun finds nothing to do
        OpsFixture.Run rerun = cli(args(conn, "migrate", "--json", "--progress", "none"));
        assertThat(rerun.exit()).as(rerun.err()).isZero();
        JsonNode rr = JSON.readTree(rerun.out());
        assertThat(rr.get("migrated").asInt()).isZero();
        assertThat(rr.get("skippedByReason").get("ALREADY_POINTER").asInt()).isEqualTo(JOBS);
    }

    @Test
    void migratesWhileTheCoordinatorSubmitsChangesAndRemovesJobs() throws Exception {
        Map<Long, InlineJobInfo> originals = OpsFixture.putInline(map, jobs);
        Map<Long, byte[]> expected = new ConcurrentHashMap<>(jobs);
        Map<Long, Long> expectedTs = new ConcurrentHashMap<>();
        originals.forEach((id, v) -> expectedTs.put(id, v.initializationTimestamp()));
        Set<Long> lateInline = ConcurrentHashMap.newKeySet();
        Set<Long> removed = ConcurrentHashMap.newKeySet();
        Set<Long> submitted = ConcurrentHashMap.newKeySet();
        int[] changes = {0};
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> coordinatorFailure = new AtomicReference<>();

        try (JobInfoStore coordinatorStore = OpsFixture.openStore(yaml);
             RunningJobInfoRegistry<JobImmutableInformation> coordinator = RunningJobInfoRegistry
                     .builder(cluster.master(), coordinatorStore, CODEC).mapName(mapName).build()) {
            Thread load = new Thread(() -> {
                Random random = new Random(7);
                JobGenerator gen = new JobGenerator(99);
                List<Long> candidates = new ArrayList<>(jobs.keySet());
                long nextId = 50_001;
                try {
                    // start once the migration is under way
                    while (!stop.get() && OpsFixture.countBlobs(storeDir) == 0) {
                        Thread.sleep(5);
                    }
                    while (!stop.get()) {
                        int op = random.nextInt(4);
                        if (op == 0 && removed.size() < 120) {
                            long id = candidates.remove(random.nextInt(candidates.size()));
                            coordinator.remove(id);
                            expected.remove(id);
                            removed.add(id);
                        } else if (op == 1) {
                            JobImmutableInformation job = gen.generate(nextId, 20 * 1024);
                            coordinator.submit(nextId, 1L, job);
                            expected.put(nextId, CODEC.encode(job));
                            expectedTs.put(nextId, 1L);
                            submitted.add(nextId++);
                        } else if (op == 2) {
                            byte[] payload = CODEC.encode(gen.generate(nextId, 20 * 1024));
                            map.put(nextId, new InlineJobInfo(2L, CODEC.id(), payload));
                            expected.put(nextId, payload);
                            expectedTs.put(nextId, 2L);
                            lateInline.add(nextId++);
                        } else if (op == 3) {
                            // an old coordinator touching an inline entry: a compare-and-set of its own
                            long id = candidates.get(random.nextInt(candidates.size()));
                            InlineJobInfo before = originals.get(id);
                            InlineJobInfo after = new InlineJobInfo(before.initializationTimestamp() + 1,
                                    before.codecId(), before.encodedJob());
                            if (map.replace(id, before, after)) {
                                expectedTs.put(id, after.initializationTimestamp());
                                originals.put(id, after);
                                changes[0]++;
                            }
                        }
                        Thread.sleep(3);
                    }
                } catch (Throwable t) {
                    coordinatorFailure.set(t);
                }
            }, "coordinator-load");
            load.start();
            OpsFixture.Run run;
            try {
                run = cli(args(conn, "migrate", "--json", "--progress", "lines", "--parallelism", "4"));
            } finally {
                stop.set(true);
                load.join();
            }
            assertThat(coordinatorFailure.get()).isNull();
            assertThat(run.exit()).as(run.out() + run.err()).isZero();
            JsonNode report = JSON.readTree(run.out());
            assertThat(report.get("scanned").asInt()).isEqualTo(JOBS);
            assertThat(report.get("failed").asInt()).isZero();
            assertThat(report.get("migrated").asInt() + report.get("skipped").asInt()).isEqualTo(JOBS);
            report.get("skippedByReason").fieldNames().forEachRemaining(reason ->
                    assertThat(reason).isEqualTo("REMOVED"));
            assertThat(removed).as("the coordinator removed jobs during the migration").isNotEmpty();
            assertThat(submitted.size() + lateInline.size()).as("and submitted some").isPositive();

            // every entry is a pointer to a verified blob holding exactly the job, or a job put inline after the run
            // started; removed jobs left no blob behind
            assertThat(new HashSet<>(map.keySet())).isEqualTo(expected.keySet());
            Set<Long> pointerIds = new HashSet<>();
            for (long id : expected.keySet()) {
                Object v = map.get(id);
                if (v instanceof JobInfoPointer p) {
                    VerifiedBlob blob = coordinatorStore.read(id);
                    assertThat(p.matches(blob.header())).as("job %d", id).isTrue();
                    assertThat(blob.payload()).as("job %d", id).isEqualTo(expected.get(id));
                    assertThat(p.initializationTimestamp()).as("job %d", id).isEqualTo(expectedTs.get(id));
                    pointerIds.add(id);
                } else {
                    assertThat(lateInline).as("job %d is still inline", id).contains(id);
                    assertThat(((InlineJobInfo) v).encodedJob()).isEqualTo(expected.get(id));
                }
            }
            Set<Long> blobIds = new HashSet<>();
            for (StoredBlob b : coordinatorStore.list()) {
                if (!b.incomplete() && !NamespaceClaim.isClaim(b.jobId())) {
                    blobIds.add(b.jobId());
                }
            }
            assertThat(blobIds).as("no orphans: blobs are exactly the pointers' ones").isEqualTo(pointerIds);
            for (long id : removed) {
                assertThat(Files.exists(storeDir.resolve(StoreNaming.blobName(id)))).as("job %d", id).isFalse();
            }
        }

        // verify names the jobs put inline during the run; a second migration picks them up
        OpsFixture.Run verify = cli(args(conn, "verify", "--json", "--progress", "none"));
        JsonNode v = JSON.readTree(verify.out());
        assertThat(verify.exit()).isEqualTo(lateInline.isEmpty() ? 0 : 1);
        assertThat(v.get("inline").size()).isEqualTo(lateInline.size());
        assertThat(v.get("broken").size()).isZero();
        assertThat(v.get("orphans").size()).isZero();
        OpsFixture.Run second = cli(args(conn, "migrate", "--json", "--progress", "none"));
        assertThat(second.exit()).as(second.err()).isZero();
        assertThat(JSON.readTree(second.out()).get("migrated").asInt()).isEqualTo(lateInline.size());
        OpsFixture.Run clean = cli(args(conn, "verify", "--json", "--progress", "none"));
        assertThat(clean.exit()).as(clean.out()).isZero();
        assertThat(JSON.readTree(clean.out()).get("validPointers").asInt()).isEqualTo(expected.size());
    }

    @Test
    void aMigratorKilledWithSigkillHalfWayLeavesEveryEntryInlineOrValidAndARerunFinishes() throws Exception {
        Map<Long, InlineJobInfo> originals = OpsFixture.putInline(map, jobs);
        Path log = dir.resolve("child.log");
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java"),
                "-Xmx512m", "-XX:+UseSerialGC",
                "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
                "-Dhazelcast.logging.type=slf4j",
                "-cp", System.getProperty("java.class.path"),
                "io.jobinfo.store.cli.JobInfoStoreCli"));
        command.addAll(List.of(args(conn, "migrate", "--parallelism", "1", "--progress", "lines")));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (OpsFixture.countBlobs(storeDir) < JOBS * 3 / 10) {
                if (!child.isAlive()) {
                    fail("the migrator exited (" + child.exitValue() + ") before it was killed:\n"
                            + Files.readString(log));
                }
                if (System.nanoTime() > deadline) {
                    fail("the migrator made no progress in 120 s:\n" + Files.readString(log));
                }
                Thread.sleep(10);
            }
            child.destroyForcibly(); // SIGKILL: no shutdown hook, no finally block runs
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(child.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);
        } finally {
            child.destroyForcibly();
        }

        int pointers = 0;
        try (JobInfoStore store = OpsFixture.openStore(yaml)) {
            for (long id : jobs.keySet()) {
                Object v = map.get(id);
                if (v instanceof JobInfoPointer p) {
                    VerifiedBlob blob = store.read(id);
                    assertThat(p.matches(blob.header())).as("job %d", id).isTrue();
                    assertThat(blob.payload()).as("job %d", id).isEqualTo(jobs.get(id));
                    pointers++;
                } else {
                    assertThat(v).as("job %d", id).isEqualTo(originals.get(id));
                }
            }
        }
        // one blob may be written without its pointer yet (killed between write and compare-and-set): the rerun
        // finds identical bytes in the store and reuses them
        assertThat(pointers).as("killed half-way").isBetween(JOBS * 3 / 10 - 1, JOBS - 1);
        assertThat(OpsFixture.countBlobs(storeDir)).isBetween((long) pointers, (long) pointers + 1);

        OpsFixture.Run rerun = cli(args(conn, "migrate", "--json", "--progress", "none"));
        assertThat(rerun.exit()).as(rerun.err()).isZero();
        JsonNode report = JSON.readTree(rerun.out());
        assertThat(report.get("migrated").asInt()).isEqualTo(JOBS - pointers);
        assertThat(report.get("skippedByReason").get("ALREADY_POINTER").asInt()).isEqualTo(pointers);
        assertThat(report.get("failed").asInt()).isZero();

        // a write cut by the kill may have left a temporary file: gc removes it, then verify is clean
        OpsFixture.Run gc = cli(args(conn, "gc", "--delete", "--grace", "0s", "--force", "--json",
                "--progress", "none"));
        assertThat(gc.exit()).as(gc.err()).isZero();
        assertThat(JSON.readTree(gc.out()).get("orphans").size()).isZero();
        OpsFixture.Run verify = cli(args(conn, "verify", "--json", "--progress", "none"));
        assertThat(verify.exit()).as(verify.out()).isZero();
        assertThat(JSON.readTree(verify.out()).get("validPointers").asInt()).isEqualTo(JOBS);
        for (long id : jobs.keySet()) {
            assertThat(map.get(id)).isInstanceOf(JobInfoPointer.class);
        }
    }

    private void assertMapHolds(Map<Long, InlineJobInfo> expected) {
        assertThat(map.size()).isEqualTo(expected.size());
        for (Map.Entry<Long, InlineJobInfo> e : expected.entrySet()) {
            assertThat(map.get(e.getKey())).as("job %d", e.getKey()).isEqualTo(e.getValue());
        }
    }
}
