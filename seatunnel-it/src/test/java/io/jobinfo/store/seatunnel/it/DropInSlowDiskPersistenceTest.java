package io.jobinfo.store.seatunnel.it;

import io.jobinfo.store.local.SlowDisk;
import io.jobinfo.store.seatunnel.harness.ClusterClient;
import io.jobinfo.store.seatunnel.harness.ClusterSpec;
import io.jobinfo.store.seatunnel.harness.FakeJobs;
import io.jobinfo.store.seatunnel.harness.ImapPersistence;
import io.jobinfo.store.seatunnel.harness.JobBytesProbe;
import io.jobinfo.store.seatunnel.harness.RecordedSubmit;
import io.jobinfo.store.seatunnel.harness.SeaTunnelProcessCluster;
import io.jobinfo.store.seatunnel.harness.junit.DropInChecks;
import io.jobinfo.store.seatunnel.harness.junit.SeaTunnelClusterExtension;
import io.jobinfo.store.seatunnel.it.cluster.ImapRecordProbe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The drop-in's map-store factory ({@code DropInMapStoreFactory}) when the store stops answering: one SeaTunnel
 * member whose local store is on a real FUSE slow disk ({@link SlowDisk}, jobinfo-store-local's test-jar) whose
 * fsyncs stall until released, and whose IMap persistence log is on the ordinary disk. A job submitted while the disk
 * stalls cannot have its blob stored within the bound ({@code jobinfo.blob-wait-millis}, 1 s by default): the submit
 * returns, the job is persisted in full (SeaTunnel's own record) and runs inline; once the disk answers the mover moves
 * it and the log's last record of it is the reference. After a kill -9 of the member and a start with the same
 * configuration both jobs are RUNNING with their clients' bytes.
 *
 * <p>Long mode only ({@code -Djobinfo.it.long=true}: a SeaTunnel member of its own); needs Linux, root,
 * {@code /dev/fuse} and libfuse 2, and is skipped otherwise, naming what is missing.
 */
@EnabledIfSystemProperty(named = "jobinfo.it.long", matches = "true",
        disabledReason = "a SeaTunnel member of its own on a FUSE disk: runs with -Djobinfo.it.long=true")
class DropInSlowDiskPersistenceTest {

    private static final Path DIR = SeaTunnelClusterExtension.TARGET.resolve("DropInSlowDiskPersistenceTest")
            .toAbsolutePath();

    @Test
    void aJobWhoseBlobStallsIsPersistedInFullThenAsItsReferenceAndSurvivesARestart() throws Exception {
        // a store and a log of this run's own: an earlier run's store belongs to that run's cluster (another name)
        long run = System.nanoTime();
        Path imap = DIR.resolve("imap-" + run);
        ClusterSpec stock = ClusterSpec.stock("st-slowimap", 1);
        String mapDir = ImapPersistence.mapDir(imap, stock.clusterName(), ClusterClient.RUNNING_JOB_INFO).toString();
        try (SlowDisk disk = SlowDisk.mount(DIR.resolve("backing"), DIR.resolve("fuse"));
             SeaTunnelProcessCluster cluster = new SeaTunnelProcessCluster(stock
                     .withEngineYaml(DropInChecks.storageYaml(disk.mountPoint().resolve("store-" + run)))
                     .withHazelcastYaml(ImapPersistence.hazelcastYaml(imap, stock.clusterName(),
                             ImapPersistence.DROP_IN_FACTORY))
                     .withExtraClasspath(List.of(SeaTunnelProcessCluster.pluginJar().toString()))
                     .withJvmOptions(List.of("-Djobinfo.dropin.sweep-interval-seconds=2")), DIR.resolve("cluster"))) {
            cluster.start(1);
            RecordedSubmit healthy;
            RecordedSubmit stalled;
            Map<Long, String> sent = new java.util.HashMap<>();
            try (ClusterClient client = started(cluster)) {
                Thread.sleep(3000); // the map store reads the members' drop-in modes once a second
                healthy = client.recorded(FakeJobs.write(DIR.resolve("jobs"), "healthy", 10, 20, true),
                        "slowimap-healthy", client.newJobId());
                sent.put(healthy.jobId(), "reference " + JobBytesProbe.sha256(healthy.jobBytes()));
                healthy.submit();
                assertThat(record(client, mapDir, healthy.jobId())[0])
                        .as("a healthy store: the reference is persisted").isEqualTo(DropInLocalStoreTest.REFERENCE_TYPE_ID);

                disk.stall();
                try {
                    stalled = client.recorded(FakeJobs.write(DIR.resolve("jobs"), "stalled", 100, 20, true),
                            "slowimap-stalled", client.newJobId());
                    sent.put(stalled.jobId(), "reference " + JobBytesProbe.sha256(stalled.jobBytes()));
                    stalled.submit(); // returns: the persist waited for the blob only up to its bound
                    long[] full = record(client, mapDir, stalled.jobId());
                    assertThat(full[0]).as("the disk stalls: SeaTunnel's own record of the job")
                            .isNotEqualTo(DropInLocalStoreTest.REFERENCE_TYPE_ID);
                    assertThat(full[2]).as("bytes of that record").isGreaterThan(100_000);
                    client.awaitStatus(stalled.jobId(), "RUNNING", Duration.ofSeconds(90));
                    assertThat(cluster.logTail(0, 2_000_000)).as("the member's log says why")
                            .contains("persisted in full: its blob was not stored within 1000 ms");
                } finally {
                    disk.release();
                }
                DropInChecks.awaitReference(client, stalled.jobId());
                ClusterClient.await(() -> record(client, mapDir, stalled.jobId())[0]
                                == DropInLocalStoreTest.REFERENCE_TYPE_ID, Duration.ofSeconds(30),
                        () -> "the log's last record of the moved job is not its reference");
            }
            cluster.kill(0);
            cluster.restart(0);
            try (ClusterClient client = started(cluster)) {
                for (long id : new long[] {healthy.jobId(), stalled.jobId()}) {
                    client.awaitStatus(id, "RUNNING", Duration.ofSeconds(120));
                }
                assertThat(client.jobBytes(List.copyOf(sent.keySet()))).as("the jobs' bytes after the restart")
                        .isEqualTo(sent);
            }
        }
    }

    private static ClusterClient started(SeaTunnelProcessCluster cluster) {
        ClusterClient c = new ClusterClient(cluster.spec());
        ClusterClient.await(() -> c.members().size() == 1 || cluster.aliveMembers().isEmpty(),
                Duration.ofSeconds(120), () -> "the member did not start: " + cluster.logTail(0, 4000));
        assertThat(c.members()).hasSize(1);
        c.awaitDropInActive(Duration.ofSeconds(60));
        return c;
    }

    /** The log's last record of {@code jobId}: {@link ImapRecordProbe}'s {@code [type, data size, record size]}. */
    private static long[] record(ClusterClient client, String mapDir, long jobId) {
        long[] r = client.onEveryMember(new ImapRecordProbe(mapDir)).values().iterator().next().get(jobId);
        assertThat(r).as("persisted record of job %d", jobId).isNotNull();
        return r;
    }
}
