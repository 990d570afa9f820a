package io.jobinfo.store.seatunnel.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.seatunnel.harness.junit.DropInChecks;
import io.jobinfo.store.local.SlowDisk;
import io.jobinfo.store.seatunnel.harness.ClusterClient;
import io.jobinfo.store.seatunnel.harness.ClusterSpec;
import io.jobinfo.store.seatunnel.harness.FakeJobs;
import io.jobinfo.store.seatunnel.harness.SeaTunnelProcessCluster;
import io.jobinfo.store.seatunnel.harness.junit.SeaTunnelClusterExtension;
import io.jobinfo.store.spi.StoreNaming;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The drop-in on the stock SeaTunnel 2.3.8 engine (one member process) with its local store on a disk that stops
 * answering: a real FUSE slow disk ({@link SlowDisk}, jobinfo-store-local's test-jar) whose fsyncs stall until
 * released. The promise at this level is that a SeaTunnel submit never waits for the store: the job is put inline and
 * moved to the store afterwards by the drop-in's mover threads. Shown here: on a stalled disk the submit returns and
 * the job runs, inline, while a mover waits in the store's fsync; once the disk answers the job is moved (a small
 * reference in the map, its blob on the disk). And a member stop (SIGTERM) while a mover waits on the stalled disk:
 * the JVM's shutdown finishes without waiting for the disk (interrupting a thread blocked in {@code FileChannel.force}
 * blocks the interrupter, see jobinfo-store-local's {@code LocalDiskFaultTest}, so the drop-in's stop interrupts its
 * movers from a daemon thread of their own); the process itself ends only once the disk answers, since a thread of it
 * waits in the kernel, as it would on a hard-mounted NFS.
 *
 * <p>Long mode only ({@code -Djobinfo.it.long=true}: a SeaTunnel member of its own); needs Linux, root,
 * {@code /dev/fuse} and libfuse 2, and is skipped otherwise, naming what is missing.
 */
@EnabledIfSystemProperty(named = "jobinfo.it.long", matches = "true",
        disabledReason = "a SeaTunnel member of its own on a FUSE disk: runs with -Djobinfo.it.long=true")
class DropInSlowDiskTest {

    private static final Path DIR = SeaTunnelClusterExtension.TARGET.resolve("DropInSlowDiskTest").toAbsolutePath();

    @Test
    void aSubmitOnAStalledDiskReturnsTheJobRunsInlineAndMovesOnceTheDiskAnswersAndAMemberStopDoesNotWaitForIt()
            throws Exception {
        SlowDisk disk = SlowDisk.mount(DIR.resolve("backing"), DIR.resolve("fuse"));
        SeaTunnelProcessCluster cluster = null;
        ClusterClient client = null;
        try {
            Path store = disk.mountPoint().resolve("store");
            ClusterSpec spec = ClusterSpec.stock("st-slowdisk", 1)
                    .withEngineYaml(DropInChecks.storageYaml(store))
                    .withExtraClasspath(List.of(SeaTunnelProcessCluster.pluginJar().toString()))
                    .withJvmOptions(List.of("-Djobinfo.dropin.sweep-interval-seconds=2"));
            cluster = new SeaTunnelProcessCluster(spec, DIR.resolve("cluster")).start(1);
            ClusterClient c = new ClusterClient(spec);
            client = c;
            SeaTunnelProcessCluster started = cluster;
            ClusterClient.await(() -> c.members().size() == 1 || started.aliveMembers().isEmpty(),
                    Duration.ofSeconds(120), () -> "the member did not start: " + started.logTail(0, 4000));
            assertThat(c.members()).hasSize(1);

            // healthy: the job is moved to the (FUSE) disk
            long first = c.submit(FakeJobs.write(DIR.resolve("jobs"), "healthy", 10, 20, true), "slowdisk-healthy");
            c.awaitStatus(first, "RUNNING", Duration.ofSeconds(90));
            DropInChecks.awaitReference(c, first);

            // stalled: the submit returns, the job runs inline, a mover waits in the store's fsync
            disk.stall();
            long stalled = c.submit(FakeJobs.write(DIR.resolve("jobs"), "stalled", 100, 20, true),
                    "slowdisk-stalled");
            c.awaitStatus(stalled, "RUNNING", Duration.ofSeconds(90));
            String waiting = disk.awaitStalledFsync(Duration.ofSeconds(60));
            assertThat(waiting).as("a mover's fsync waits on the disk").contains(".tmp-");
            assertThat(c.storedJobBytes(stalled)).as("the job is inline while the disk stalls")
                    .isGreaterThan(100_000);
            assertThat(c.dropInTotal("pendingMoves")).isGreaterThanOrEqualTo(1);

            disk.release();
            DropInChecks.awaitReference(c, stalled);
            assertThat(disk.backing().resolve("store").resolve(StoreNaming.blobName(stalled)))
                    .as("the blob on the disk").exists();

            // a member stop while a mover waits on the stalled disk: it does not wait for the disk
            disk.stall();
            c.submit(FakeJobs.write(DIR.resolve("jobs"), "stop", 100, 20, true), "slowdisk-stop");
            disk.awaitStalledFsync(Duration.ofSeconds(90));
            client.close();
            client = null;
            long pid = cluster.pid(0);
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy); // SIGTERM, as an operator
            // The process itself cannot end while one of its threads waits in the kernel for the stalled fsync (as
            // on a hard-mounted NFS): what the drop-in controls is that the JVM's shutdown finishes, so that only
            // that thread is left (the process shows as a zombie until the disk answers).
            ClusterClient.await(() -> jvmFinished(pid), Duration.ofSeconds(90),
                    () -> "the member's JVM did not finish its shutdown while a mover waits on the stalled disk");
            assertThat(cluster.awaitExit(0, Duration.ofSeconds(3))).as("still held by the stalled fsync").isNull();
            disk.release();
            assertThat(cluster.awaitExit(0, Duration.ofSeconds(90))).as("the member ends once the disk answers")
                    .isNotNull();
        } finally {
            if (client != null) {
                client.close();
            }
            try {
                disk.release();
            } catch (RuntimeException ignored) {
                // closed below anyway
            }
            if (cluster != null) {
                cluster.close();
            }
            disk.close();
        }
    }

    /** Whether process {@code pid}'s main thread has exited: the process is gone or a zombie (Linux /proc). */
    private static boolean jvmFinished(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (java.io.IOException gone) {
            return true;
        }
    }
}
