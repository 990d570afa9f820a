package io.jobinfo.store.seatunnel.it;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.impl.HeapData;
import io.jobinfo.store.seatunnel.harness.junit.DropInChecks;
import io.jobinfo.store.lifecycle.NamespaceClaim;
import io.jobinfo.store.seatunnel.harness.ClusterClient;
import io.jobinfo.store.seatunnel.harness.ClusterSpec;
import io.jobinfo.store.seatunnel.harness.FakeJobs;
import io.jobinfo.store.seatunnel.harness.MapFigures;
import io.jobinfo.store.seatunnel.harness.SeaTunnelProcessCluster;
import io.jobinfo.store.seatunnel.it.cluster.MiniDfsProcess;
import io.jobinfo.store.seatunnel.harness.partition.PartitionHoldMeasurement;
import io.jobinfo.store.seatunnel.harness.junit.RestAssertions;
import io.jobinfo.store.seatunnel.harness.junit.SeaTunnelClusterExtension;
import io.jobinfo.store.seatunnel.it.cluster.StoreListProbe;
import io.jobinfo.store.seatunnel.harness.JobPayloadProbe;
import io.jobinfo.store.seatunnel.harness.junit.Guide;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The drop-in with the HDFS backend on the real 3-member SeaTunnel 2.3.8 cluster. The members' {@code jobinfo-storage}
 * section is the HDFS example of {@code docs/seatunnel.md} ({@code <!-- guide: seatunnel-yaml-hdfs -->}) with only
 * the NameNode's address replaced; they reach HDFS with SeaTunnel's own Hadoop 3.1.4 client (the uber jar on their
 * class path). HDFS is a MiniDFSCluster of the project's Hadoop with as many DataNodes as the example's replication,
 * in a JVM of its own ({@link MiniDfsProcess}; this test JVM has no Hadoop). The store is read only through the
 * members' drop-in ({@link StoreListProbe}, {@link JobPayloadProbe}).
 *
 * <p>Shows: the map holds only the reference (owned + backup at most 500 B per job, 1, 100 and 1000 tables), no store
 * call of any member ran on a partition thread (the drop-in's MBean), the partition-thread hold of a submit's map
 * operations ({@code target/seatunnel-it/partition-hold-hdfs.json/.md}), and cancel removing entry then blob. Figures
 * go to {@code target/seatunnel-it/dropin-hdfs.json}.
 *
 * <p>Long mode only ({@code -Djobinfo.it.long=true}): HDFS and the cluster cost more than the default build's time
 * budget allows.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@EnabledIfSystemProperty(named = "jobinfo.it.long", matches = "true",
        disabledReason = "the HDFS drop-in cluster runs with -Djobinfo.it.long=true")
class DropInHdfsStoreTest {

    static final int COLUMNS = 20;
    static final int[] TABLES = {1, 100, 1000};
    /** The guide's example NameNode address, replaced by the MiniDFSCluster's. */
    static final String GUIDE_NAMENODE = "hdfs://namenode.example.com:8020";
    static final Path DIR = SeaTunnelClusterExtension.TARGET.resolve("DropInHdfsStoreTest-hdfs").toAbsolutePath();
    static MiniDfsProcess hdfs;
    static String storageYaml;

    static ClusterSpec spec() {
        Guide.Block block = Guide.read().block("seatunnel-yaml-hdfs");
        String section = Guide.engineSection(block);
        assertThat(section).contains(GUIDE_NAMENODE);
        int replication = Integer.parseInt(section.replaceAll("(?s).*seatunnel\\.hadoop\\.dfs\\.replication:\\s*(\\d+).*",
                "$1"));
        hdfs = MiniDfsProcess.start(DIR, replication);
        storageYaml = section.replace(GUIDE_NAMENODE, hdfs.uri().toString());
        return ClusterSpec.stock("st-dropin-hdfs", 3).withEngineYaml(storageYaml)
                .withExtraClasspath(List.of(SeaTunnelProcessCluster.pluginJar().toString()))
                .withJvmOptions(List.of("-Djobinfo.dropin.sweep-interval-seconds=2",
                        "-Djobinfo.dropin.view-window-seconds=20"));
    }

    @RegisterExtension
    static final SeaTunnelClusterExtension ST = new SeaTunnelClusterExtension(DropInHdfsStoreTest::spec);

    static final Map<Integer, Long> JOBS = new LinkedHashMap<>();
    static final Map<String, Data> JOB_DATA = new LinkedHashMap<>();
    static final Map<String, Object> REPORT = new LinkedHashMap<>();

    @Test
    @Order(1)
    void jobsGoToHdfsAndTheMapKeepsAReference() {
        ClusterClient client = ST.client();
        client.awaitDropInActive(Duration.ofSeconds(60));
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int tables : TABLES) {
            Path file = FakeJobs.write(ST.dir().resolve("jobs"), "fake-" + tables, tables, COLUMNS, true);
            MapFigures before = client.mapFigures(ClusterClient.RUNNING_JOB_INFO);
            long t0 = System.nanoTime();
            long jobId = client.submit(file, "dropin-hdfs-" + tables + "-tables");
            long submitMillis = (System.nanoTime() - t0) / 1_000_000;
            JOBS.put(tables, jobId);
            client.awaitStatus(jobId, "RUNNING", Duration.ofSeconds(90));
            DropInChecks.awaitReference(client, jobId);
            MapFigures job = client.mapFigures(ClusterClient.RUNNING_JOB_INFO).minus(before);
            assertThat(job.ownedEntries()).isEqualTo(1);
            assertThat(job.backupEntries()).isEqualTo(1);
            assertThat(job.totalBytes()).as("owned + backup bytes of the %d-table job", tables).isLessThanOrEqualTo(500);
            byte[] payload = payload(jobId);
            JOB_DATA.put(tables + " tables x " + COLUMNS + " columns", new HeapData(payload));
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("tables", tables);
            row.put("jobId", jobId);
            row.put("ownedPlusBackupBytes", job.totalBytes());
            row.put("jobBytes", payload.length);
            row.put("submitMillis", submitMillis);
            rows.add(row);
        }
        Map<Long, Long> blobs = blobs();
        assertThat(blobs.keySet()).containsExactlyInAnyOrderElementsOf(JOBS.values());
        assertThat(blobs.get(JOBS.get(1000))).isGreaterThan(1_000_000);
        for (Map<String, Object> row : rows) {
            row.put("blobBytes", blobs.get((Long) row.get("jobId")));
        }
        REPORT.put("jobs", rows);
        assertThat(client.dropInTotal("moved")).isGreaterThanOrEqualTo(TABLES.length);
        assertThat(client.dropInTotal("moveFailures")).isZero();
    }

    @Test
    @Order(2)
    void restShowsEveryJobInFullThroughHdfs() {
        long readsBefore = ST.client().dropInTotal("reads");
        RestAssertions.assertRestShowsEveryJob(ST.cluster().port(0), JOBS, "dropin-hdfs-");
        assertThat(ST.client().dropInTotal("reads")).as("jobs read through the store by REST")
                .isGreaterThan(readsBefore);
    }

    /**
     * No store call on a partition thread, and the partition-thread hold of a submit's operations, on HDFS (figures
     * in {@code target/seatunnel-it/partition-hold-hdfs.*}).
     */
    @Test
    @Order(3)
    void noStoreCallRunsOnAPartitionThreadAndTheHoldOfASubmitIsMeasured() {
        ClusterClient client = ST.client();
        assertThat(JOB_DATA).hasSize(TABLES.length);
        int rounds = DropInLocalStoreTest.HOLD_ROUNDS;
        PartitionHoldMeasurement.Result result = PartitionHoldMeasurement.run(client, "hdfs",
                "HDFS backend, SeaTunnel's Hadoop 3.1.4 client in the members, MiniDFSCluster (Hadoop of the project, "
                        + "1 NameNode, DataNodes as the guide's replication) in a JVM of its own, no IMap persistence",
                JOB_DATA, rounds, this::blobExists, SeaTunnelClusterExtension.TARGET);
        PartitionHoldAssertions.assertMeasuredOnPartitionThreads(result, rounds);
        REPORT.put("partitionHold", result.rows());
        REPORT.put("storeThreads", PartitionHoldAssertions.assertNoStoreCallOnAPartitionThread(client));
    }

    @Test
    @Order(4)
    void cancelRemovesTheEntryThenTheBlob() {
        ClusterClient client = ST.client();
        for (long id : JOBS.values()) {
            client.cancel(id);
        }
        for (long id : JOBS.values()) {
            client.awaitStatus(id, "CANCELED", Duration.ofSeconds(60));
            ClusterClient.await(() -> !client.runningJobInfo().containsKey(id), Duration.ofSeconds(30),
                    () -> "engine_runningJobInfo still holds job " + id);
        }
        ClusterClient.await(() -> blobs().isEmpty(), Duration.ofSeconds(30),
                () -> "blobs left in HDFS: " + blobs());
        REPORT.put("blobsDeleted", client.dropInTotal("blobsDeleted"));
    }

    // ---------------------------------------------------------------------------------------------------------

    private static Map<Long, Long> listed = Map.of();
    private static long listedAtNanos;

    /** Whether the store still lists a blob of {@code jobId}; one listing serves the calls of half a second. */
    private boolean blobExists(long jobId) {
        if (System.nanoTime() - listedAtNanos > 500_000_000L) {
            listed = blobs();
            listedAtNanos = System.nanoTime();
        }
        return listed.containsKey(jobId);
    }

    /** Job id -> size of every complete blob, as the first member's drop-in lists the store. */
    static Map<Long, Long> blobs() {
        Map<Integer, HashMap<Long, Long>> all = ST.client().onEveryMember(new StoreListProbe());
        HashMap<Long, Long> blobs = all.values().iterator().next();
        blobs.remove(NamespaceClaim.JOB_ID); // the namespace's claim, no job's
        return blobs;
    }

    /** The job's JobImmutableInformation bytes from its blob, read and verified by a member's drop-in. */
    static byte[] payload(long jobId) {
        return ST.client().onEveryMember(new JobPayloadProbe(jobId)).values().iterator().next();
    }

    @AfterAll
    static void writeReport() throws IOException {
        try {
            REPORT.put("engine", "SeaTunnel 2.3.8 (stock) + jobinfo-store-seatunnel-plugin, 3 member processes, HDFS "
                    + "store (docs/seatunnel.md's example section)");
            REPORT.put("storageSection", storageYaml);
            Path out = SeaTunnelClusterExtension.TARGET.resolve("dropin-hdfs.json");
            Files.createDirectories(out.getParent());
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), REPORT);
        } finally {
            if (hdfs != null) {
                hdfs.close();
            }
        }
    }
}
