package io.jobinfo.store.seatunnel.it;

import com.hazelcast.internal.serialization.impl.HeapData;
import io.jobinfo.store.seatunnel.harness.ClusterClient;
import io.jobinfo.store.seatunnel.harness.ClusterSpec;
import io.jobinfo.store.seatunnel.harness.FakeJobs;
import io.jobinfo.store.seatunnel.harness.ImapPersistence;
import io.jobinfo.store.seatunnel.harness.JobBytesProbe;
import io.jobinfo.store.seatunnel.harness.JobSize;
import io.jobinfo.store.seatunnel.harness.RecordedSubmit;
import io.jobinfo.store.seatunnel.harness.SeaTunnelProcessCluster;
import io.jobinfo.store.seatunnel.harness.junit.DropInChecks;
import io.jobinfo.store.seatunnel.harness.junit.TestDirectories;
import io.jobinfo.store.seatunnel.harness.junit.SeaTunnelClusterExtension;
import io.jobinfo.store.seatunnel.it.cluster.ImapRecordProbe;
import org.apache.seatunnel.engine.core.job.JobInfo;
import org.apache.seatunnel.engine.serializer.protobuf.ProtoStuffSerializer;
import com.hazelcast.internal.serialization.Data;
import io.jobinfo.store.seatunnel.harness.partition.PartitionHoldMeasurement;
import io.jobinfo.store.spi.StoreNaming;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SeaTunnel's IMap persistence with the drop-in's map-store factory ({@code DropInMapStoreFactory}, named in
 * hazelcast.yaml in place of SeaTunnel's {@code FileMapStoreFactory}, same properties): the persistence log of
 * {@code engine_runningJobInfo} never holds a job in full, and a full-cluster restart still restores every job.
 * 2 member processes, local store; jobs of the two extreme real sizes ({@link JobSize#SMALL} 1 x 2 and
 * {@link JobSize#LARGE} 1000 x 20 tables x columns).
 *
 * <p>With {@code -Djobinfo.it.imap.factory=seatunnel} the same test runs with SeaTunnel's own factory (the
 * configuration of {@code DropInLocalStoreTest}), to show what the factory changes: there the log grows by every
 * job's full bytes and the first assertion fails. Figures go to {@code target/seatunnel-it/imap-persistence.json}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DropInImapPersistenceTest {

    static final Path STORE = SeaTunnelClusterExtension.TARGET.resolve("DropInImapPersistenceTest-store")
            .toAbsolutePath();
    static final Path IMAP = SeaTunnelClusterExtension.TARGET.resolve("DropInImapPersistenceTest-imap")
            .toAbsolutePath();
    static final boolean SEATUNNEL_FACTORY = "seatunnel".equals(System.getProperty("jobinfo.it.imap.factory"));
    static final JobSize[] JOBS = {JobSize.SMALL, JobSize.LARGE, JobSize.SMALL, JobSize.LARGE};
    static final Map<String, Object> REPORT = new LinkedHashMap<>();
    /** The job bytes of test 1 by size, for the partition-hold measurement. */
    static final Map<String, Data> JOB_DATA = new LinkedHashMap<>();

    static ClusterSpec spec() {
        TestDirectories.deleteTree(STORE);
        TestDirectories.deleteTree(IMAP);
        ClusterSpec stock = ClusterSpec.stock("st-imapref", 2);
        return stock.withEngineYaml(DropInChecks.storageYaml(STORE))
                .withHazelcastYaml(ImapPersistence.hazelcastYaml(IMAP, stock.clusterName(),
                        SEATUNNEL_FACTORY ? ImapPersistence.SEATUNNEL_FACTORY : ImapPersistence.DROP_IN_FACTORY))
                .withExtraClasspath(List.of(SeaTunnelProcessCluster.pluginJar().toString()))
                .withJvmOptions(List.of("-Djobinfo.dropin.sweep-interval-seconds=2"));
    }

    @RegisterExtension
    static final SeaTunnelClusterExtension ST = new SeaTunnelClusterExtension(DropInImapPersistenceTest::spec,
            Duration.ofSeconds(120));

    @AfterAll
    static void writeReport() throws IOException {
        Files.createDirectories(SeaTunnelClusterExtension.TARGET);
        Files.writeString(SeaTunnelClusterExtension.TARGET.resolve("imap-persistence.json"),
                new com.fasterxml.jackson.databind.ObjectMapper().writerWithDefaultPrettyPrinter()
                        .writeValueAsString(REPORT));
    }

    /**
     * Jobs of mixed sizes submitted on the running cluster grow the log of {@code engine_runningJobInfo} by at most
     * 1% of the bytes SeaTunnel's own map store logs for the same jobs (each job's {@code JobInfo} inline, as
     * SeaTunnel's ProtoStuff serializer writes it: a lower bound of stock's record), every job's persisted record is
     * the reference, no store call ran on a partition thread, and after every member is killed at once and started
     * again with the same configuration every job is RUNNING with the very bytes its client sent. A job submitted
     * while the store is down is persisted in full (SeaTunnel's own record), and comes back RUNNING too.
     */
    @Test
    @Order(1)
    void theLogHoldsReferencesOnlyAndAFullRestartRestoresEveryJobWithItsBytes() throws Exception {
        ClusterClient client = ST.client();
        client.awaitDropInActive(Duration.ofSeconds(60));
        // the map store reads the members' drop-in modes once a second, off the partition threads: let it see both
        Thread.sleep(3000);
        String cluster = ST.cluster().spec().clusterName();
        long walBefore = ImapPersistence.walBytes(IMAP, cluster, ClusterClient.RUNNING_JOB_INFO);

        Map<Long, String> expected = new LinkedHashMap<>();
        Map<Long, JobSize> sizes = new LinkedHashMap<>();
        long stockBytes = 0;
        ProtoStuffSerializer protoStuff = new ProtoStuffSerializer();
        int n = 0;
        for (JobSize size : JOBS) {
            Path file = FakeJobs.write(ST.dir().resolve("jobs"), "fake-imap-" + size.id() + "-" + n, size.tables(),
                    size.columns(), true);
            RecordedSubmit job = client.recorded(file, "dropin-imap-" + size.id() + "-" + n++, client.newJobId());
            byte[] bytes = job.jobBytes();
            job.submit();
            expected.put(job.jobId(), "reference " + JobBytesProbe.sha256(bytes));
            sizes.put(job.jobId(), size);
            int record = protoStuff.serialize(new JobInfo(System.currentTimeMillis(), new HeapData(bytes))).length;
            stockBytes += record;
            JOB_DATA.putIfAbsent(size.id(), new HeapData(bytes));
            REPORT.put("stockRecordBytes-" + size.id(), record);
        }
        for (long id : expected.keySet()) {
            client.awaitStatus(id, "RUNNING", Duration.ofSeconds(90));
            DropInChecks.awaitReference(client, id); // the mover's replace, and its record, are done too
        }
        long walGrowth = ImapPersistence.walBytes(IMAP, cluster, ClusterClient.RUNNING_JOB_INFO) - walBefore;
        Map<String, Object> wal = new LinkedHashMap<>();
        wal.put("factory", SEATUNNEL_FACTORY ? ImapPersistence.SEATUNNEL_FACTORY : ImapPersistence.DROP_IN_FACTORY);
        wal.put("jobs", sizes.values().stream().map(JobSize::id).toList());
        wal.put("stockRecordBytes", stockBytes);
        wal.put("walGrowthBytes", walGrowth);
        wal.put("walBytesPerJob", walGrowth / expected.size());
        wal.put("stockBytesPerJob", stockBytes / expected.size());
        REPORT.put("wal", wal);
        assertThat(walGrowth).as("bytes the log of %s grew by for %d jobs (SeaTunnel's own records of them: %d)",
                ClusterClient.RUNNING_JOB_INFO, expected.size(), stockBytes).isLessThanOrEqualTo(stockBytes / 100);

        Path mapDir = ImapPersistence.mapDir(IMAP, cluster, ClusterClient.RUNNING_JOB_INFO);
        Map<Long, long[]> records = client.onEveryMember(new ImapRecordProbe(mapDir.toString())).values().iterator()
                .next();
        for (long id : expected.keySet()) {
            assertThat(records.get(id)).as("persisted record of job %d", id).isNotNull();
            assertThat(records.get(id)[0]).as("type of the persisted job data of job %d", id)
                    .isEqualTo(DropInLocalStoreTest.REFERENCE_TYPE_ID);
        }
        Map<Integer, Object> threads = PartitionHoldAssertions.assertNoStoreCallOnAPartitionThread(client);
        REPORT.put("storeThreads", threads);

        // the store down at a submit: the blob cannot be written, so the job is persisted in full (SeaTunnel's own
        // record), never not at all; the mover moves it once the store is back, and either way it survives the restart
        Path aside = STORE.resolveSibling(STORE.getFileName() + "-aside");
        Files.move(STORE, aside);
        Files.writeString(STORE, "not a directory: the store is down");
        long down;
        String downBytes;
        try {
            Path file = FakeJobs.write(ST.dir().resolve("jobs"), "fake-imap-down", 1, 2, true);
            RecordedSubmit job = client.recorded(file, "dropin-imap-down", client.newJobId());
            downBytes = JobBytesProbe.sha256(job.jobBytes());
            job.submit();
            down = job.jobId();
            long[] record = client.onEveryMember(new ImapRecordProbe(mapDir.toString())).values().iterator().next()
                    .get(down);
            assertThat(record).as("persisted record of job %d, submitted while the store is down", down).isNotNull();
            assertThat(record[0]).as("type of the persisted job data of job %d: SeaTunnel's own", down)
                    .isNotEqualTo(DropInLocalStoreTest.REFERENCE_TYPE_ID);
            REPORT.put("storeDownRecordBytes", record[2]);
        } finally {
            Files.delete(STORE);
            Files.move(aside, STORE);
        }

        long t0 = System.nanoTime();
        ST.cluster().killEveryMember();
        ClusterClient restarted = ST.restartEveryMember(Duration.ofSeconds(120));
        for (long id : expected.keySet()) {
            restarted.awaitStatus(id, "RUNNING", Duration.ofSeconds(120));
        }
        restarted.awaitStatus(down, "RUNNING", Duration.ofSeconds(120));
        REPORT.put("killToEveryJobRunningMillis", (System.nanoTime() - t0) / 1_000_000);
        assertThat(restarted.jobBytes(new ArrayList<>(expected.keySet())))
                .as("what the restarted cluster resolves each job to").isEqualTo(expected);
        // inline if the kill came before the mover's retry, a reference after it: the client's bytes either way
        assertThat(restarted.jobBytes(List.of(down)).get(down)).as("job %d after the restart", down)
                .isIn("inline " + downBytes, "reference " + downBytes);
        expected.put(down, "");

        for (long id : expected.keySet()) {
            restarted.cancelRunning(id);
        }
        for (long id : expected.keySet()) {
            restarted.awaitCanceledAfterMemberLoss(id, Duration.ofSeconds(60)).recordIfFailed(REPORT);
        }
    }

    /**
     * The partition-thread hold of SeaTunnel's put of a new job with this factory, which waits there for the job's blob
     * (and then logs the reference) in place of SeaTunnel's log write of the whole job: {@link PartitionHoldMeasurement}
     * ({@code -Djobinfo.it.hold.rounds}, 100 by default), figures to
     * {@code target/seatunnel-it/partition-hold-local-imap-dropin-factory.{json,md}} ({@code -seatunnel-factory} with
     * SeaTunnel's factory); no timed assertion. Long mode only.
     */
    @Test
    @Order(2)
    @EnabledIfSystemProperty(named = "jobinfo.it.long", matches = "true",
            disabledReason = "a measurement of 100 rounds per job size: runs with -Djobinfo.it.long=true")
    void theHoldOfAPutWithTheFactoryIsMeasured() {
        assertThat(JOB_DATA).hasSize(2);
        int rounds = Integer.getInteger("jobinfo.it.hold.rounds", 100);
        PartitionHoldMeasurement.Result result = PartitionHoldMeasurement.run(ST.client(),
                SEATUNNEL_FACTORY ? "local-imap-seatunnel-factory" : "local-imap-dropin-factory",
                "local store (" + STORE + "), SeaTunnel IMap persistence (imap-storage-file, file:///) through "
                        + (SEATUNNEL_FACTORY ? ImapPersistence.SEATUNNEL_FACTORY : ImapPersistence.DROP_IN_FACTORY),
                JOB_DATA, rounds,
                id -> java.nio.file.Files.exists(STORE.resolve(StoreNaming.blobName(id))),
                SeaTunnelClusterExtension.TARGET);
        PartitionHoldAssertions.assertMeasuredOnPartitionThreads(result, rounds);
        REPORT.put("partitionHold", result.rows());
        REPORT.put("storeThreadsAfterHold", PartitionHoldAssertions.assertNoStoreCallOnAPartitionThread(ST.client()));
    }
}
