package io.jobinfo.store.seatunnel.it;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.impl.HeapData;
import io.jobinfo.store.seatunnel.harness.junit.DropInChecks;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.lifecycle.NamespaceClaim;
import io.jobinfo.store.s3.testing.S3FaultProxy;
import io.jobinfo.store.s3.testing.S3Fixture;
import io.jobinfo.store.seatunnel.harness.ClusterClient;
import io.jobinfo.store.seatunnel.harness.ClusterSpec;
import io.jobinfo.store.seatunnel.harness.FakeJobs;
import io.jobinfo.store.seatunnel.harness.MapFigures;
import io.jobinfo.store.seatunnel.harness.SeaTunnelProcessCluster;
import io.jobinfo.store.seatunnel.it.cluster.DropInJmxProbe;
import io.jobinfo.store.seatunnel.harness.partition.PartitionHoldMeasurement;
import io.jobinfo.store.seatunnel.it.cluster.PrometheusText;
import io.jobinfo.store.seatunnel.harness.junit.RestClient;
import io.jobinfo.store.seatunnel.harness.junit.RestAssertions;
import io.jobinfo.store.seatunnel.harness.junit.SeaTunnelClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The drop-in with the native S3 backend on the real 3-member SeaTunnel 2.3.8 cluster; the S3 server is S3Proxy in
 * the test JVM ({@link S3Fixture}, or the endpoint given by {@code -Djobinfo.s3.endpoint}), reached by the member
 * processes over loopback. Figures go to {@code target/seatunnel-it/dropin-s3.json}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DropInS3StoreTest {

    static final int COLUMNS = 20;
    static final String PREFIX = "seatunnel/jobinfo";
    static S3Fixture s3;
    static String bucket;

    /** Between the members and the S3 server: forwards unchanged until a test adds latency (a slow store). */
    static S3FaultProxy proxy;

    static ClusterSpec spec() {
        s3 = S3Fixture.shared();
        bucket = s3.createBucket("st-dropin");
        try {
            proxy = new S3FaultProxy(s3.endpoint());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot start the S3 fault proxy", e);
        }
        String yaml = storageYaml(PREFIX, bucket, proxy.endpoint(), s3);
        return ClusterSpec.stock("st-dropin-s3", 3).withEngineYaml(yaml)
                .withExtraClasspath(List.of(SeaTunnelProcessCluster.pluginJar().toString()))
                .withJvmOptions(List.of("-Djobinfo.dropin.sweep-interval-seconds=2",
                        "-Djobinfo.dropin.view-window-seconds=20"));
    }

    /**
     * The {@code jobinfo-storage} section of an S3 store on {@code s3}'s server, reached at {@code endpoint} (the
     * server's own, or a proxy in front of it).
     */
    static String storageYaml(String prefix, String bucket, Object endpoint, S3Fixture s3) {
        return """
                jobinfo-storage:
                  type: s3
                  namespace: %s
                  plugin-config:
                    s3.bucket: %s
                    s3.endpoint: %s
                    s3.region: %s
                    s3.path-style-access: %s
                    s3.access-key: %s
                    s3.secret-key: %s
                """.formatted(prefix, bucket, endpoint, s3.region(), s3.pathStyleAccess(), s3.accessKey(),
                s3.secretKey());
    }

    @RegisterExtension
    static final SeaTunnelClusterExtension ST = new SeaTunnelClusterExtension(DropInS3StoreTest::spec);

    static final Map<Integer, Long> JOBS = new LinkedHashMap<>();
    static final Map<String, Data> JOB_DATA = new LinkedHashMap<>();
    /** How long a submit may take while every S3 request waits {@link #SLOW_MILLIS}: the stated bound. */
    static final Duration SUBMIT_BOUND = Duration.ofSeconds(30);
    static final int SLOW_MILLIS = 8_000;
    static final Map<String, Object> REPORT = new LinkedHashMap<>();

    @Test
    @Order(1)
    void jobsGoToS3AndTheMapKeepsAReference() {
        ClusterClient client = ST.client();
        client.awaitDropInActive(Duration.ofSeconds(60));
        for (int tables : DropInLocalStoreTest.TABLES) { // 1, 100 and 1000 tables, as on the local store
            Path file = FakeJobs.write(ST.dir().resolve("jobs"), "fake-" + tables, tables, COLUMNS, true);
            MapFigures before = client.mapFigures(ClusterClient.RUNNING_JOB_INFO);
            long jobId = client.submit(file, "dropin-s3-" + tables + "-tables");
            JOBS.put(tables, jobId);
            client.awaitStatus(jobId, "RUNNING", Duration.ofSeconds(90));
            DropInChecks.awaitReference(client, jobId);
            MapFigures job = client.mapFigures(ClusterClient.RUNNING_JOB_INFO).minus(before);
            assertThat(job.totalBytes()).as("owned + backup bytes of the %d-table job", tables).isLessThanOrEqualTo(500);
            REPORT.put("ownedPlusBackupBytes-" + tables + "-tables", job.totalBytes());
            JOB_DATA.put(tables + " tables x " + COLUMNS + " columns", jobData(jobId));
        }
        Map<Long, Long> objects = objects();
        assertThat(objects.keySet()).containsExactlyInAnyOrderElementsOf(JOBS.values());
        assertThat(objects.get(JOBS.get(1000))).isGreaterThan(1_000_000);
        REPORT.put("objectBytes", objects);
    }

    @Test
    @Order(2)
    void killMinusNineOfTheMasterRestoresEveryJobFromS3() {
        ClusterClient client = ST.client();
        int oldMasterPort = client.masterPort();
        ST.cluster().kill(ST.cluster().indexOfPort(oldMasterPort));
        client.awaitClusterSize(2, Duration.ofSeconds(60));
        int newMasterPort = client.masterPort();
        assertThat(newMasterPort).isNotEqualTo(oldMasterPort);
        for (long id : JOBS.values()) {
            client.awaitStatus(id, "RUNNING", Duration.ofSeconds(120));
        }
        Map<String, Long> newMaster = client.dropInMetrics().get(newMasterPort);
        assertThat(newMaster.get("reads")).as("reads on the new master: %s", newMaster).isGreaterThanOrEqualTo(2);
        assertThat(newMaster.get("readFailures")).isZero();
        RestAssertions.assertRestShowsEveryJob(newMasterPort, JOBS, "dropin-s3-");
        // SeaTunnel's telemetry is off here (its default): its endpoint answers, and the drop-in added nothing to it
        RestClient.Response metrics = new RestClient().get(newMasterPort, PrometheusText.METRICS);
        assertThat(metrics.status()).isEqualTo(200);
        assertThat(metrics.body()).doesNotContain("jobinfo_store_");
    }

    /**
     * A store that is slow, not down, at submit: every S3 request waits {@value #SLOW_MILLIS} ms. The submit does not
     * wait for the store (the mover writes the blob after SeaTunnel's put, on its own thread), so it returns within
     * {@link #SUBMIT_BOUND} (in practice as fast as on the stock engine) and the job runs; meanwhile its value stays
     * inline and the move is pending, which an operator sees in the drop-in's MBean ({@code pendingMoves},
     * {@code inlineOwned}, {@code moveFailures} when the S3 client's own timeouts give up); once the store answers
     * in time again the job is moved.
     */
    @Test
    @Order(3)
    void aSlowStoreNeverHoldsUpASubmitAndThePendingMoveIsVisibleOverJmx() {
        ClusterClient client = ST.client();
        Path file = FakeJobs.write(ST.dir().resolve("jobs"), "fake-slow", 1, COLUMNS, true);
        long jobId;
        long submitMillis;
        proxy.latency(SLOW_MILLIS);
        try {
            long t0 = System.nanoTime();
            jobId = client.submit(file, "dropin-s3-slow-1-tables");
            submitMillis = (System.nanoTime() - t0) / 1_000_000;
            assertThat(Duration.ofMillis(submitMillis)).as("submit while every S3 request waits %d ms", SLOW_MILLIS)
                    .isLessThan(SUBMIT_BOUND);
            long inlineBytes = client.storedJobBytes(jobId);
            assertThat(inlineBytes).as("the job is inline while its blob is being written").isGreaterThan(5_000);
            long pending = 0;
            for (Map<String, Long> m : client.onEveryMember(new DropInJmxProbe()).values()) {
                pending += m.get("pendingMoves");
            }
            assertThat(pending).as("pendingMoves over JMX while the store is slow").isGreaterThanOrEqualTo(1);
            client.awaitStatus(jobId, "RUNNING", Duration.ofSeconds(90));
            REPORT.put("slowStore", Map.of("latencyPerRequestMillis", SLOW_MILLIS, "submitMillis", submitMillis,
                    "pendingMovesOverJmx", pending, "submitBoundMillis", SUBMIT_BOUND.toMillis()));
        } finally {
            proxy.latency(0);
        }
        DropInChecks.awaitReference(client, jobId);
        JOBS.put(-1, jobId);
    }

    /**
     * No store call on a partition thread, and the partition-thread hold of a submit's operations, on S3 (figures
     * in {@code target/seatunnel-it/partition-hold-s3.*}).
     */
    @Test
    @Order(4)
    void noStoreCallRunsOnAPartitionThreadAndTheHoldOfASubmitIsMeasured() {
        ClusterClient client = ST.client();
        int rounds = DropInLocalStoreTest.HOLD_ROUNDS;
        PartitionHoldMeasurement.Result result = PartitionHoldMeasurement.run(client, "s3",
                "native S3 backend, S3Proxy in the test JVM (" + s3.kind() + "), no IMap persistence", JOB_DATA,
                rounds, id -> objects().containsKey(id), SeaTunnelClusterExtension.TARGET);
        PartitionHoldAssertions.assertMeasuredOnPartitionThreads(result, rounds);
        REPORT.put("partitionHold", result.rows());
        REPORT.put("storeThreads", PartitionHoldAssertions.assertNoStoreCallOnAPartitionThread(client));
    }

    @Test
    @Order(5)
    void cancelRemovesTheEntryThenTheObject() {
        ClusterClient client = ST.client();
        for (long id : JOBS.values()) {
            client.cancelRunning(id);
        }
        for (long id : JOBS.values()) {
            // the master was killed in test 2: SeaTunnel may end a job FAILED here (see the method's comment)
            client.awaitCanceledAfterMemberLoss(id, Duration.ofSeconds(60)).recordIfFailed(REPORT);
            ClusterClient.await(() -> !client.runningJobInfo().containsKey(id), Duration.ofSeconds(30),
                    () -> "engine_runningJobInfo still holds job " + id);
        }
        ClusterClient.await(() -> objects().isEmpty(), Duration.ofSeconds(30),
                () -> "objects left in s3://" + bucket + "/" + PREFIX + ": " + objects());
    }

    /** The job's JobImmutableInformation bytes, from its object (the envelope checked). */
    static Data jobData(long jobId) {
        try (S3Client client = s3.newClient()) {
            String key = objectKeys().get(jobId);
            byte[] bytes = client.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray();
            return new HeapData(BlobEnvelope.verify(bytes, jobId, io.jobinfo.store.location.Location.of("test", key)).payload());
        } catch (io.jobinfo.store.envelope.EnvelopeFormatException e) {
            throw new AssertionError("the object of job " + jobId + " is not a valid blob", e);
        }
    }

    static Map<Long, String> objectKeys() {
        try (S3Client client = s3.newClient()) {
            return client.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(PREFIX)).contents().stream()
                    .filter(o -> o.key().endsWith(".jobinfo") && !o.key().endsWith(NamespaceClaim.BLOB_NAME))
                    .collect(Collectors.toMap(DropInS3StoreTest::jobIdOf, S3Object::key));
        }
    }

    /** Job id -> size of every blob object under the prefix. */
    static Map<Long, Long> objects() {
        try (S3Client client = s3.newClient()) {
            return client.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(PREFIX)).contents().stream()
                    .filter(o -> o.key().endsWith(".jobinfo") && !o.key().endsWith(NamespaceClaim.BLOB_NAME))
                    .collect(Collectors.toMap(DropInS3StoreTest::jobIdOf, S3Object::size));
        }
    }

    static long jobIdOf(S3Object o) {
        String name = o.key().substring(o.key().lastIndexOf('/') + 1);
        return Long.parseUnsignedLong(name.substring(0, 16), 16);
    }

    @AfterAll
    static void writeReport() throws java.io.IOException {
        if (proxy != null) {
            proxy.close();
        }
        REPORT.put("s3", s3 == null ? "not started" : s3.kind().toString());
        Path out = SeaTunnelClusterExtension.TARGET.resolve("dropin-s3.json");
        java.nio.file.Files.createDirectories(out.getParent());
        new com.fasterxml.jackson.databind.ObjectMapper()
                .enable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), REPORT);
    }
}
