package io.jobinfo.store.seatunnel.it;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.jobinfo.store.seatunnel.harness.junit.DropInChecks;
import io.jobinfo.store.seatunnel.harness.ClusterClient;
import io.jobinfo.store.seatunnel.harness.ClusterSpec;
import io.jobinfo.store.seatunnel.harness.FakeJobs;
import io.jobinfo.store.seatunnel.harness.MapFigures;
import io.jobinfo.store.seatunnel.harness.junit.RestAssertions;
import io.jobinfo.store.seatunnel.harness.junit.SeaTunnelClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stock SeaTunnel 2.3.8 engine, unchanged, on 3 member processes: what {@code engine_runningJobInfo} costs per job,
 * that a {@code kill -9} of the master brings every job back on the new master, and that the REST endpoints decode
 * the whole job from the map. The figures go to {@code target/seatunnel-it/stock-baseline.json}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StockEngineBaselineTest {

    static final int COLUMNS = 20;
    static final int[] TABLES = {1, 100, 1000};

    @RegisterExtension
    static final SeaTunnelClusterExtension ST = new SeaTunnelClusterExtension(
            () -> ClusterSpec.stock("st-stock", 3).withSpareMembers(1), Duration.ofSeconds(120), 1);
    static final int SPARE = 3;

    /** tables -> job id, in submit order */
    static final Map<Integer, Long> JOBS = new LinkedHashMap<>();
    static final Map<String, Object> REPORT = new LinkedHashMap<>();

    @Test
    @Order(1)
    void everyJobRunsAndTheMapHoldsItTwiceOwnedAndBackup() {
        ClusterClient client = ST.client();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int tables : TABLES) {
            Path file = FakeJobs.write(ST.dir().resolve("jobs"), "fake-" + tables, tables, COLUMNS, true);
            MapFigures before = client.mapFigures(ClusterClient.RUNNING_JOB_INFO);
            long t0 = System.nanoTime();
            long jobId = client.submit(file, "stock-" + tables + "-tables");
            long submitMillis = (System.nanoTime() - t0) / 1_000_000;
            JOBS.put(tables, jobId);
            client.awaitStatus(jobId, "RUNNING", Duration.ofSeconds(90));
            // right after the cluster formed, a partition's backup replica may still be migrating to its member
            // (fresh-clone CI: 0 backup entries 2 s into the run): the backup is counted once it is there
            ClusterClient.await(() -> client.mapFigures(ClusterClient.RUNNING_JOB_INFO).minus(before)
                    .backupEntries() >= 1, Duration.ofSeconds(30), () -> "no backup entry of job " + jobId);
            MapFigures job = client.mapFigures(ClusterClient.RUNNING_JOB_INFO).minus(before);
            long jobBytes = client.storedJobBytes(jobId);

            assertThat(job.ownedEntries()).as("owned entries added by job %d", jobId).isEqualTo(1);
            assertThat(job.backupEntries()).as("backup entries added by job %d", jobId).isEqualTo(1);
            assertThat(job.ownedBytes()).as("owned bytes of the %d-table job", tables).isGreaterThanOrEqualTo(jobBytes);
            assertThat(job.backupBytes()).as("backup bytes of the %d-table job", tables).isGreaterThanOrEqualTo(jobBytes);

            Map<String, Object> row = new LinkedHashMap<>();
            row.put("tables", tables);
            row.put("columns", COLUMNS);
            row.put("jobId", jobId);
            row.put("jobImmutableInformationBytes", jobBytes);
            row.put("ownedEntryBytes", job.ownedBytes());
            row.put("backupEntryBytes", job.backupBytes());
            row.put("ownedPlusBackupBytes", job.totalBytes());
            row.put("submitMillis", submitMillis);
            rows.add(row);
        }
        REPORT.put("jobs", rows);
        // the largest job: about 1.8 MB of JobImmutableInformation, held twice
        long largest = client.storedJobBytes(JOBS.get(1000));
        assertThat(largest).as("serialized size of the 1000-table job").isGreaterThan(1_000_000);
        for (long id : JOBS.values()) {
            assertThat(client.status(id)).as("job %d", id).isEqualTo("RUNNING");
        }
    }

    @Test
    @Order(2)
    void restEndpointsReturnEveryRunningJobInFull() {
        assertThat(JOBS).hasSize(TABLES.length);
        for (int member : ST.cluster().aliveMembers()) {
            assertRestShowsEveryJob(ST.cluster().port(member));
        }
    }

    @Test
    @Order(3)
    void killMinusNineOfTheMasterBringsEveryJobBackOnTheNewMaster() {
        assertThat(JOBS).hasSize(TABLES.length);
        ClusterClient client = ST.client();
        int oldMasterPort = client.masterPort();
        int oldMaster = ST.cluster().indexOfPort(oldMasterPort);
        assertThat(oldMaster).isGreaterThanOrEqualTo(0);

        Instant killed = Instant.now();
        ST.cluster().kill(oldMaster);
        try {
            client.awaitClusterSize(2, Duration.ofSeconds(60));
            int newMasterPort = client.masterPort();
            assertThat(newMasterPort).isNotEqualTo(oldMasterPort);
            List<Long> lostByTheEngine = new ArrayList<>();
            for (Map.Entry<Integer, Long> job : new LinkedHashMap<>(JOBS).entrySet()) {
                long id = job.getValue();
                try {
                    client.awaitStatus(id, "RUNNING", Duration.ofSeconds(120));
                } catch (AssertionError notRunning) {
                    // SeaTunnel 2.3.8 itself, no plugin anywhere: a master killed while it wrote a checkpoint can
                    // leave one without data, and the next master's restore of that job fails in its
                    // CheckpointCoordinator (ProtoStuffSerializer NullPointerException): the job is gone. Counted
                    // and bounded here (this is the stock engine's baseline); anything else fails the test.
                    String log = ST.cluster().logTail(ST.cluster().indexOfPort(newMasterPort), 400_000);
                    if (!log.contains("Job id " + id + " init failed") || !log.contains("CheckpointCoordinator")) {
                        throw notRunning;
                    }
                    lostByTheEngine.add(id);
                    JOBS.remove(job.getKey());
                }
            }
            REPORT.put("jobsLostByTheStockEngineAtTheMasterKill", lostByTheEngine);
            assertThat(lostByTheEngine).as("jobs the stock engine lost to its own checkpoint restore (at most 1 of %d)",
                    TABLES.length).hasSizeLessThanOrEqualTo(1);
            long restoreMillis = Duration.between(killed, Instant.now()).toMillis();
            assertRestShowsEveryJob(newMasterPort);
            // still one entry per job, nothing lost with the dead member
            assertThat(client.runningJobInfo().keySet()).containsAll(JOBS.values());

            Map<String, Object> failover = new LinkedHashMap<>();
            failover.put("killedMember", oldMaster);
            failover.put("jobs", JOBS.size());
            failover.put("killToAllRunningMillis", restoreMillis);
            REPORT.put("masterKill", failover);
        } finally {
            // the next tests need three members whatever happened here
            ST.cluster().restart(oldMaster);
            client.awaitClusterSize(3, Duration.ofSeconds(90));
        }
    }

    @Test
    @Order(4)
    void cancelEndsEveryJobAndRemovesItsEntry() {
        ClusterClient client = ST.client();
        for (long id : JOBS.values()) {
            client.cancelRunning(id);
        }
        for (long id : JOBS.values()) {
            // after the kill of the master in test 3: SeaTunnel may end a job FAILED here (see the method's comment)
            client.awaitCanceledAfterMemberLoss(id, Duration.ofSeconds(60)).recordIfFailed(REPORT);
            ClusterClient.await(() -> !client.runningJobInfo().containsKey(id), Duration.ofSeconds(30),
                    () -> "engine_runningJobInfo still holds job " + id + " after its cancel");
        }
        MapFigures left = client.mapFigures(ClusterClient.RUNNING_JOB_INFO);
        assertThat(left.ownedEntries() + left.backupEntries()).as("entries left after every cancel").isZero();
    }

    /**
     * A rolling adoption's first step: one member with the drop-in joins the stock cluster. While stock members are
     * in the cluster it moves nothing (a stock master could not read a reference): a job this member owns stays
     * inline, and the member counts the move it held back.
     */
    @Test
    @Order(5)
    void aDropInMemberInAStockClusterMovesNothing() {
        ClusterClient client = ST.client();
        // a namespace of this run's own: the drop-in claims it for this cluster (a name drawn per run), and an earlier
        // run's claim left in target/ would make the member refuse to start
        Path store = ST.dir().resolve("dropin-store-" + ST.cluster().spec().clusterName()).toAbsolutePath();
        ClusterSpec dropIn = ST.cluster().spec()
                .withEngineYaml(DropInChecks.storageYaml(store))
                .withExtraClasspath(List.of(io.jobinfo.store.seatunnel.harness.SeaTunnelProcessCluster.pluginJar()
                        .toString()))
                .withJvmOptions(List.of("-Djobinfo.dropin.sweep-interval-seconds=2"));
        ST.cluster().startMember(SPARE, dropIn);
        try {
            client.awaitClusterSize(4, Duration.ofSeconds(90));
            int port = ST.cluster().port(SPARE);
            ClusterClient.await(() -> client.dropInMetrics().get(port).getOrDefault("active", 0L) == 1,
                    Duration.ofSeconds(60), () -> "drop-in not active on the new member: " + client.dropInMetrics());
            // partitions migrate to the new member after it joined: wait until it owns most of its fair share (a
            // fresh-clone CI once went on when it owned a few, and none of the 20 jobs below landed on it)
            java.util.function.IntSupplier ownedByNew = () -> (int) client.seaTunnelClient().getHazelcastInstance()
                    .getPartitionService().getPartitions().stream().filter(p -> p.getOwner() != null
                            && p.getOwner().getAddress().getPort() == port).count();
            int partitions = client.seaTunnelClient().getHazelcastInstance().getPartitionService().getPartitions()
                    .size();
            int share = partitions * 4 / 5 / client.members().size(); // 80 % of a fair share
            ClusterClient.await(() -> ownedByNew.getAsInt() >= share, Duration.ofSeconds(90),
                    () -> "the new member owns " + ownedByNew.getAsInt() + " of " + partitions + " partitions, fewer"
                            + " than " + share);
            // a job whose entry the drop-in member owns (partition owner), found by submitting small jobs
            Path file = FakeJobs.write(ST.dir().resolve("jobs"), "fake-mixed", 1, 2, true);
            List<Long> submitted = new ArrayList<>();
            long owned = -1;
            for (int i = 0; i < 30 && owned < 0; i++) {
                long id = client.submit(file, "mixed-" + i);
                submitted.add(id);
                client.awaitStatus(id, "RUNNING", Duration.ofSeconds(60));
                int ownerPort = client.seaTunnelClient().getHazelcastInstance().getPartitionService().getPartition(id)
                        .getOwner().getAddress().getPort();
                if (ownerPort == port) {
                    owned = id;
                }
            }
            assertThat(owned).as("a job owned by the drop-in member among %s", submitted).isPositive();
            ClusterClient.await(() -> client.dropInMetrics().get(port).get("blockedByMemberWithoutPlugin") > 0,
                    Duration.ofSeconds(60), () -> "the drop-in member never held a move back: " + client.dropInMetrics());
            for (long id : submitted) {
                assertThat(client.storedJobBytes(id)).as("job %d inline", id).isGreaterThan(5_000);
                assertThat(client.status(id)).isEqualTo("RUNNING");
            }
            assertThat(client.dropInMetrics().get(port).get("moved")).isZero();
            REPORT.put("mixedClusterHeldBackMoves", client.dropInMetrics().get(port).get("blockedByMemberWithoutPlugin"));
            for (long id : submitted) {
                client.cancel(id);
            }
            for (long id : submitted) {
                client.awaitStatus(id, "CANCELED", Duration.ofSeconds(60));
            }
        } finally {
            ST.cluster().kill(SPARE);
        }
    }

    static void assertRestShowsEveryJob(int port) {
        RestAssertions.assertRestShowsEveryJob(port, JOBS, "stock-");
    }

    @AfterAll
    static void writeReport() throws IOException {
        REPORT.put("engine", "SeaTunnel 2.3.8 (stock), 3 member processes, backup-count 1");
        REPORT.put("map", ClusterClient.RUNNING_JOB_INFO);
        REPORT.put("measuredWith", "LocalMapStats of every member (owned + backup entry memory cost), "
                + "delta before/after each submit");
        Path out = SeaTunnelClusterExtension.TARGET.resolve("stock-baseline.json");
        Files.createDirectories(out.getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), REPORT);
    }
}
