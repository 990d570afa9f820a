package io.jobinfo.store.seatunnel.it;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.jobinfo.store.seatunnel.it.cluster.ClusterClient;
import io.jobinfo.store.seatunnel.it.cluster.ClusterSpec;
import io.jobinfo.store.seatunnel.it.cluster.FakeJobs;
import io.jobinfo.store.seatunnel.it.cluster.MapFigures;
import io.jobinfo.store.seatunnel.it.cluster.SeaTunnelClusterExtension;
import io.jobinfo.store.seatunnel.it.cluster.SeaTunnelProcessCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The drop-in on the stock SeaTunnel 2.3.8 engine, 3 member processes, local store: the plugin jar in every member's
 * classpath and a {@code jobinfo-storage} section in seatunnel.yaml, nothing else (no hazelcast.yaml line, no
 * SeaTunnel code changed). A fourth port is spare: members started there with a wrong configuration must refuse to
 * start. Figures go to {@code target/seatunnel-it/dropin-local.json}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DropInLocalStoreTest {

    static final int COLUMNS = 20;
    static final int[] TABLES = {1, 100, 1000};
    static final int SPARE = 3;
    static final Path STORE = SeaTunnelClusterExtension.TARGET.resolve("DropInLocalStoreTest-store").toAbsolutePath();

    static String storageYaml(Path namespace) {
        return """
                jobinfo-storage:
                  type: local
                  namespace: %s
                  cache:
                    max-bytes: 32MiB
                """.formatted(namespace);
    }

    static ClusterSpec spec() {
        return ClusterSpec.stock("st-dropin", 3).withSpareMembers(1)
                .withEngineYaml(storageYaml(STORE))
                .withExtraClasspath(List.of(SeaTunnelProcessCluster.pluginJar().toString()))
                .withJvmOptions(List.of("-Djobinfo.dropin.sweep-interval-seconds=2",
                        "-Djobinfo.dropin.gc-grace-seconds=3"));
    }

    @RegisterExtension
    static final SeaTunnelClusterExtension ST = new SeaTunnelClusterExtension(DropInLocalStoreTest::spec,
            Duration.ofSeconds(120), 1);

    static final Map<Integer, Long> JOBS = new LinkedHashMap<>();
    static final Map<String, Object> REPORT = new LinkedHashMap<>();

    @Test
    @Order(1)
    void theMapHoldsOnlyASmallReferencePerJobWhateverItsSize() throws IOException {
        ClusterClient client = ST.client();
        // a member answers the client before its start-up ends (the mover starts on STARTED)
        ClusterClient.await(() -> client.dropInMetrics().values().stream()
                        .allMatch(m -> m.getOrDefault("installed", 0L) == 1 && m.getOrDefault("active", 0L) == 1),
                Duration.ofSeconds(60), () -> "drop-in not active on every member: " + client.dropInMetrics());
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int tables : TABLES) {
            Path file = FakeJobs.write(ST.dir().resolve("jobs"), "fake-" + tables, tables, COLUMNS, true);
            MapFigures before = client.mapFigures(ClusterClient.RUNNING_JOB_INFO);
            long t0 = System.nanoTime();
            long jobId = client.submit(file, "dropin-" + tables + "-tables");
            long submitMillis = (System.nanoTime() - t0) / 1_000_000;
            JOBS.put(tables, jobId);
            client.awaitStatus(jobId, "RUNNING", Duration.ofSeconds(90));
            awaitReference(client, jobId);
            MapFigures job = client.mapFigures(ClusterClient.RUNNING_JOB_INFO).minus(before);
            long referenceBytes = client.storedJobBytes(jobId);
            Path blob = blobOf(jobId);
            long blobBytes = Files.size(blob);

            assertThat(job.ownedEntries()).isEqualTo(1);
            assertThat(job.backupEntries()).isEqualTo(1);
            assertThat(job.totalBytes()).as("owned + backup bytes of the %d-table job", tables).isLessThanOrEqualTo(500);
            assertThat(blobBytes).as("blob of the %d-table job", tables).isGreaterThan(tables * 1000L);

            Map<String, Object> row = new LinkedHashMap<>();
            row.put("tables", tables);
            row.put("columns", COLUMNS);
            row.put("jobId", jobId);
            row.put("referenceDataBytes", referenceBytes);
            row.put("ownedEntryBytes", job.ownedBytes());
            row.put("backupEntryBytes", job.backupBytes());
            row.put("ownedPlusBackupBytes", job.totalBytes());
            row.put("blobBytes", blobBytes);
            row.put("submitMillis", submitMillis);
            rows.add(row);
        }
        REPORT.put("jobs", rows);
        assertThat(client.dropInTotal("moved")).isGreaterThanOrEqualTo(TABLES.length);
    }

    @Test
    @Order(2)
    void restShowsEveryJobInFullOnEveryMember() {
        assertThat(JOBS).hasSize(TABLES.length);
        long readsBefore = ST.client().dropInTotal("reads");
        for (int member : ST.cluster().aliveMembers()) {
            RestAssertions.assertRestShowsEveryJob(ST.cluster().port(member), JOBS, "dropin-");
        }
        assertThat(ST.client().dropInTotal("reads")).as("jobs read through the store by REST")
                .isGreaterThan(readsBefore);
    }

    @Test
    @Order(3)
    void killMinusNineOfTheMasterRestoresEveryJobThroughTheStore() {
        assertThat(JOBS).hasSize(TABLES.length);
        ClusterClient client = ST.client();
        int oldMasterPort = client.masterPort();
        int oldMaster = ST.cluster().indexOfPort(oldMasterPort);
        Instant killed = Instant.now();
        ST.cluster().kill(oldMaster);
        client.awaitClusterSize(2, Duration.ofSeconds(60));
        int newMasterPort = client.masterPort();
        assertThat(newMasterPort).isNotEqualTo(oldMasterPort);
        for (long id : JOBS.values()) {
            client.awaitStatus(id, "RUNNING", Duration.ofSeconds(120));
        }
        long restoreMillis = Duration.between(killed, Instant.now()).toMillis();
        Map<String, Long> newMaster = client.dropInMetrics().get(newMasterPort);
        assertThat(newMaster.get("reads")).as("jobs the new master read from the store: %s", newMaster)
                .isGreaterThanOrEqualTo(TABLES.length);
        assertThat(newMaster.get("readFailures")).isZero();
        RestAssertions.assertRestShowsEveryJob(newMasterPort, JOBS, "dropin-");
        for (long id : JOBS.values()) {
            assertThat(client.storedJobBytes(id)).as("job %d still a reference", id).isLessThan(200);
        }
        Map<String, Object> failover = new LinkedHashMap<>();
        failover.put("killedMember", oldMaster);
        failover.put("jobs", JOBS.size());
        failover.put("killToAllRunningMillis", restoreMillis);
        failover.put("newMasterStoreReads", newMaster.get("reads"));
        REPORT.put("masterKill", failover);

        ST.cluster().restart(oldMaster);
        client.awaitClusterSize(3, Duration.ofSeconds(90));
    }

    @Test
    @Order(5)
    void aMemberWithThePluginButNoConfigurationRefusesToStart() throws Exception {
        ClusterSpec noSection = ST.cluster().spec().withEngineYaml("");
        ST.cluster().startMember(SPARE, noSection);
        Integer exit = ST.cluster().awaitExit(SPARE, Duration.ofSeconds(90));
        String log = ST.cluster().logTail(SPARE, 20_000);
        assertThat(exit).as("exit code of the unconfigured member; log:\n%s", log).isNotNull().isNotZero();
        assertThat(log).contains("has no jobinfo-storage section under seatunnel.engine");
        assertThat(ST.client().members()).hasSize(3);
        for (long id : JOBS.values()) {
            assertThat(ST.client().status(id)).isEqualTo("RUNNING");
        }
        REPORT.put("unconfiguredMemberExitCode", exit);
    }

    @Test
    @Order(4)
    void aStockMemberWithoutThePluginCannotJoin() throws Exception {
        ClusterSpec stock = ST.cluster().spec().withEngineYaml("").withExtraClasspath(List.of());
        ST.cluster().startMember(SPARE, stock);
        ClusterClient.await(() -> ST.cluster().logTail(SPARE, 200_000).contains("Node could not join cluster"),
                Duration.ofSeconds(90), () -> "the member without the plugin did not give up joining; log:\n"
                        + ST.cluster().logTail(SPARE, 5000));
        Integer exit = ST.cluster().awaitExit(SPARE, Duration.ofSeconds(60));
        String log = ST.cluster().logTail(SPARE, 200_000);
        assertThat(log).contains(JOIN_GUARD);
        // its join fails after the cluster first listed it; the others drop it once its connection is gone
        // (at most the heartbeat timeout when it dies without a graceful leave)
        ClusterClient.await(() -> ST.client().members().size() == 3, Duration.ofSeconds(30),
                () -> "members after the stock member's attempt: " + ST.client().members());
        for (long id : JOBS.values()) {
            assertThat(ST.client().status(id)).isEqualTo("RUNNING");
        }
        REPORT.put("stockMemberExitCode", exit);
        if (exit == null) {
            ST.cluster().kill(SPARE);
        }
    }

    static final String JOIN_GUARD = "io.jobinfo.store.seatunnel.dropin.JoinGuardInterceptor";

    @Test
    @Order(6)
    void anInvalidConfigurationStopsTheMemberListingEveryProblem() throws Exception {
        ClusterSpec invalid = ST.cluster().spec().withEngineYaml("""
                jobinfo-storage:
                  type: nfs
                  namespace: /tmp/../etc
                  colour: blue
                  cache:
                    max-bytes: lots
                """).withJvmOptions(List.of("-Djobinfo.dropin.move-threads=0"));
        ST.cluster().startMember(SPARE, invalid);
        Integer exit = ST.cluster().awaitExit(SPARE, Duration.ofSeconds(90));
        String log = ST.cluster().logTail(SPARE, 20_000);
        assertThat(exit).as("exit code; log:\n%s", log).isNotNull().isNotZero();
        assertThat(log).contains("Invalid jobinfo-storage configuration")
                .contains("jobinfo-storage.colour: unknown key")
                .contains("jobinfo-storage.cache.max-bytes")
                .contains("path traversal is not allowed")
                .contains("jobinfo.dropin.move-threads=0");
        assertThat(ST.client().members()).hasSize(3);
    }

    @Test
    @Order(7)
    void storeDownAtSubmitKeepsTheJobInlineUntilTheStoreIsBack() throws IOException {
        ClusterClient client = ST.client();
        Path aside = STORE.resolveSibling(STORE.getFileName() + "-aside");
        Files.move(STORE, aside);
        Files.writeString(STORE, "not a directory: the store is down");
        long jobId;
        long failuresBefore = client.dropInTotal("moveFailures");
        try {
            Path file = FakeJobs.write(ST.dir().resolve("jobs"), "fake-down", 100, COLUMNS, true);
            long t0 = System.nanoTime();
            jobId = client.submit(file, "dropin-down-100-tables");
            long submitMillis = (System.nanoTime() - t0) / 1_000_000;
            client.awaitStatus(jobId, "RUNNING", Duration.ofSeconds(90));
            ClusterClient.await(() -> client.dropInTotal("moveFailures") > failuresBefore, Duration.ofSeconds(30),
                    () -> "no failed move was counted while the store was down");
            assertThat(client.storedJobBytes(jobId)).as("job inline while the store is down")
                    .isGreaterThan(100_000);
            assertThat(client.dropInTotal("pendingMoves")).isGreaterThanOrEqualTo(1);
            REPORT.put("storeDownSubmitMillis", submitMillis);
        } finally {
            Files.delete(STORE);
            Files.move(aside, STORE);
        }
        awaitReference(client, jobId);
        assertThat(blobOf(jobId)).exists();
        JOBS.put(-100, jobId);
        client.cancel(jobId);
        client.awaitStatus(jobId, "CANCELED", Duration.ofSeconds(60));
        JOBS.remove(-100);
    }

    @Test
    @Order(8)
    void jobEndRemovesTheEntryThenTheBlobAndGcRemovesWhatACrashLeaves() throws IOException {
        ClusterClient client = ST.client();
        // a batch job that finishes by itself
        Path batch = FakeJobs.write(ST.dir().resolve("jobs"), "fake-batch", 10, COLUMNS, false);
        long batchId = client.submit(batch, "dropin-batch");
        client.awaitStatus(batchId, "FINISHED", Duration.ofSeconds(120));
        awaitGone(client, batchId);

        for (long id : JOBS.values()) {
            client.cancel(id);
        }
        for (long id : JOBS.values()) {
            client.awaitStatus(id, "CANCELED", Duration.ofSeconds(60));
            awaitGone(client, id);
        }
        // a blob with no entry, as a member crash between the removal and the delete leaves it (planted here: the
        // crash cannot be timed from outside)
        Path orphan = STORE.resolve("7fffffffffff0001.jobinfo");
        Files.writeString(orphan, "left behind");
        Files.setLastModifiedTime(orphan, FileTime.from(Instant.now().minusSeconds(3600)));
        ClusterClient.await(() -> !Files.exists(orphan), Duration.ofSeconds(90),
                () -> "gc did not remove the orphan blob " + orphan);
        MapFigures left = client.mapFigures(ClusterClient.RUNNING_JOB_INFO);
        assertThat(left.ownedEntries() + left.backupEntries()).isZero();
        try (Stream<Path> files = Files.list(STORE)) {
            assertThat(files.filter(p -> p.toString().endsWith(".jobinfo")).toList()).isEmpty();
        }
        REPORT.put("blobsDeleted", client.dropInTotal("blobsDeleted"));
        REPORT.put("gcDeleted", client.dropInTotal("gcDeleted"));
    }

    /** Entry gone from the map, then blob gone from the store. */
    static void awaitGone(ClusterClient client, long id) {
        ClusterClient.await(() -> !client.runningJobInfo().containsKey(id), Duration.ofSeconds(30),
                () -> "engine_runningJobInfo still holds job " + id);
        ClusterClient.await(() -> !Files.exists(blobOf(id)), Duration.ofSeconds(30),
                () -> "the blob of ended job " + id + " is still in the store");
    }

    static void awaitReference(ClusterClient client, long jobId) {
        ClusterClient.await(() -> {
            long bytes = client.storedJobBytes(jobId);
            return bytes > 0 && bytes < 200;
        }, Duration.ofSeconds(60), () -> "job " + jobId + " is still inline: " + client.storedJobBytes(jobId)
                + " bytes; drop-in counters " + client.dropInMetrics());
    }

    static Path blobOf(long jobId) {
        return STORE.resolve(String.format("%016x.jobinfo", jobId));
    }

    @AfterAll
    static void writeReport() throws IOException {
        REPORT.put("engine", "SeaTunnel 2.3.8 (stock) + jobinfo-store-seatunnel-plugin, 3 member processes, local store");
        Path out = SeaTunnelClusterExtension.TARGET.resolve("dropin-local.json");
        Files.createDirectories(out.getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), REPORT);
    }
}
