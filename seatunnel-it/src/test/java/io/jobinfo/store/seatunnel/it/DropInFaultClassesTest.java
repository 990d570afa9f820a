package io.jobinfo.store.seatunnel.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.seatunnel.SeaTunnelJobDataCodec;
import io.jobinfo.store.seatunnel.it.cluster.ClusterClient;
import io.jobinfo.store.seatunnel.it.cluster.ClusterSpec;
import io.jobinfo.store.seatunnel.it.cluster.FakeJobs;
import io.jobinfo.store.seatunnel.it.cluster.JobBytesProbe;
import io.jobinfo.store.seatunnel.it.cluster.RecordedSubmit;
import io.jobinfo.store.seatunnel.it.cluster.ResolvedJobProbe;
import io.jobinfo.store.seatunnel.it.cluster.SeaTunnelClusterExtension;
import io.jobinfo.store.seatunnel.it.cluster.SeaTunnelProcessCluster;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reused job ids on the real SeaTunnel 2.3.8 engine with the drop-in (3 member processes, local store). SeaTunnel
 * reuses ids by design (a stop with a savepoint and its restore with {@code -r}, {@code --set-job-id}, REST
 * {@code submit-job?jobId=}); every member must resolve the instance the map's reference names, and no delete decided
 * for one instance may remove another's blob.
 *
 * <ol>
 *   <li>A job is resolved on every member (each caches its bytes), stopped with a savepoint and restored under the
 *   same id: every member must then resolve the restored instance (savepoint flag set, new creation time). Before the
 *   drop-in's cache was checked against the reference's content (CRC32C, SHA-256 prefix, timestamp), the two members
 *   that did not own the entry served the first instance's cached bytes: same length, other job.</li>
 *   <li>The drop-in's gc finds a blob with no entry (as a crash between a removal and its delete leaves it) and is
 *   held by the test-only crash-point seam between its decision and its delete, while a job is submitted under that
 *   very id on another member. When the gc goes on, the new job's blob must still be there. Without the per-id claim
 *   lock that gc, move and delete share, the move replaced the old blob and the gc then deleted the new job's blob:
 *   a reference without a blob.</li>
 * </ol>
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DropInReusedJobIdTest {

    static final Path DIR = SeaTunnelClusterExtension.TARGET.resolve("DropInReusedJobIdTest-files").toAbsolutePath();
    static final Path STORE = DIR.resolve("store");
    static final Path POINTS = DIR.resolve("crash-points");

    static ClusterSpec spec() {
        try {
            if (Files.exists(DIR)) {
                try (Stream<Path> old = Files.walk(DIR)) {
                    for (Path p : old.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
            Files.createDirectories(STORE);
            Files.createDirectories(POINTS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ClusterSpec.stock("st-reuse", 3)
                .withEngineYaml(DropInLocalStoreTest.storageYaml(STORE))
                .withExtraClasspath(List.of(SeaTunnelProcessCluster.pluginJar().toString()))
                .withJvmOptions(List.of("-Djobinfo.dropin.sweep-interval-seconds=2",
                        "-Djobinfo.dropin.gc-grace-seconds=3",
                        "-Djobinfo.dropin.test.crash-points=" + POINTS));
    }

    @RegisterExtension
    static final SeaTunnelClusterExtension ST = new SeaTunnelClusterExtension(DropInReusedJobIdTest::spec,
            Duration.ofSeconds(120));

    @Test
    @Order(1)
    void aJobRestoredFromItsSavepointUnderTheSameIdIsResolvedAsTheNewInstanceOnEveryMember() throws IOException {
        ClusterClient client = ST.client();
        awaitActive(client);
        Path file = FakeJobs.write(DIR.resolve("jobs"), "fake-reuse", 3, 10, true);
        long id = client.newJobId();
        RecordedSubmit first = client.recorded(file, "reuse", id);
        first.submit();
        client.awaitStatus(id, "RUNNING", Duration.ofSeconds(90));
        awaitReference(client, id);
        String firstInstance = ResolvedJobProbe.describe(first.build());
        // every member resolves (and so caches) the first instance
        assertThat(client.onEveryMember(new ResolvedJobProbe(id))).hasSize(3)
                .allSatisfy((port, seen) -> assertThat(seen).as("member %d", port).isEqualTo(firstInstance));

        client.savepoint(id);
        client.awaitStatus(id, "SAVEPOINT_DONE", Duration.ofSeconds(120));
        ClusterClient.await(() -> !client.runningJobInfo().containsKey(id), Duration.ofSeconds(30),
                () -> "engine_runningJobInfo still holds job " + id + " after its savepoint");

        RecordedSubmit restored = client.restoredFromSavepoint(file, "reuse", id);
        String restoredInstance = ResolvedJobProbe.describe(restored.build());
        assertThat(restoredInstance).isNotEqualTo(firstInstance);
        assertThat(restored.jobBytes()).as("the two instances' job bytes").isNotEqualTo(first.jobBytes());
        restored.submit();
        client.awaitStatus(id, "RUNNING", Duration.ofSeconds(90));
        awaitReference(client, id);
        assertThat(client.onEveryMember(new ResolvedJobProbe(id))).hasSize(3)
                .allSatisfy((port, seen) -> assertThat(seen).as("instance of job %d that member %d resolves", id, port)
                        .isEqualTo(restoredInstance));
        assertThat(client.jobBytes(List.of(id)).get(id))
                .isEqualTo("reference " + JobBytesProbe.sha256(restored.jobBytes()));
        client.cancelRunning(id);
        client.awaitStatus(id, "CANCELED", Duration.ofSeconds(60));
    }

    @Test
    @Order(2)
    void aGcThatFoundNoEntryNeverDeletesTheBlobOfAJobSubmittedUnderThatIdMeanwhile() throws Exception {
        ClusterClient client = ST.client();
        awaitActive(client);
        int master = client.masterPort();
        int other = client.members().stream().mapToInt(m -> m.getAddress().getPort()).filter(p -> p != master)
                .findFirst().orElseThrow();
        long id = client.newJobIdOwnedBy(other);
        // what a member crash between a removal and its delete leaves: a complete blob of an earlier instance of this
        // id (other bytes) with no entry, older than the grace period
        Path orphan = blobOf(id);
        byte[] earlier = ("an earlier instance of job " + id).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Files.write(orphan, BlobEnvelope.wrap(id, SeaTunnelJobDataCodec.ID, System.currentTimeMillis() - 3_600_000,
                earlier));
        Files.setLastModifiedTime(orphan, FileTime.from(Instant.now().minusSeconds(3600)));
        long holdMillis = 15_000;
        arm("before-gc-delete", id + " hold=" + holdMillis);
        Path reached = POINTS.resolve("reached-before-gc-delete");
        ClusterClient.await(() -> Files.exists(reached), Duration.ofSeconds(60),
                () -> "the master's gc did not reach its delete of the orphan " + orphan);
        Instant gcResumes = Instant.now().plusMillis(holdMillis);

        Path file = FakeJobs.write(DIR.resolve("jobs"), "fake-gc-race", 3, 10, true);
        RecordedSubmit submit = client.recorded(file, "gc-race", id);
        submit.submit();
        client.awaitStatus(id, "RUNNING", Duration.ofSeconds(90));
        // the gc goes on and deletes; then the job's reference must have its blob, now and after further gc runs
        ClusterClient.await(() -> Instant.now().isAfter(gcResumes.plusSeconds(8)), Duration.ofSeconds(60), () -> "");
        awaitReference(client, id);
        ClusterClient.await(() -> Instant.now().isAfter(gcResumes.plusSeconds(16)), Duration.ofSeconds(60), () -> "");
        String expected = "reference " + JobBytesProbe.sha256(submit.jobBytes());
        assertThat(client.jobBytes(List.of(id)).get(id)).as("job %d as its owner reads it", id).isEqualTo(expected);
        assertThat(client.onEveryMember(new ResolvedJobProbe(id))).hasSize(3)
                .allSatisfy((port, seen) -> assertThat(seen).as("member %d", port)
                        .isEqualTo(ResolvedJobProbe.describe(submit.build())));
        client.cancelRunning(id);
        client.awaitStatus(id, "CANCELED", Duration.ofSeconds(60));
        ClusterClient.await(() -> !Files.exists(blobOf(id)), Duration.ofSeconds(30),
                () -> "the blob of the canceled job " + id + " is still in the store");
    }

    static void awaitActive(ClusterClient client) {
        ClusterClient.await(() -> client.dropInMetrics().values().stream()
                        .allMatch(m -> m.getOrDefault("installed", 0L) == 1 && m.getOrDefault("active", 0L) == 1),
                Duration.ofSeconds(60), () -> "drop-in not active on every member: " + client.dropInMetrics());
    }

    static void awaitReference(ClusterClient client, long jobId) {
        ClusterClient.await(() -> {
            long bytes = client.storedJobBytes(jobId);
            return bytes > 0 && bytes < 200;
        }, Duration.ofSeconds(60), () -> "job " + jobId + " is still inline: " + client.storedJobBytes(jobId)
                + " bytes; drop-in counters " + client.dropInMetrics());
    }

    static void arm(String point, String content) throws IOException {
        Files.deleteIfExists(POINTS.resolve("reached-" + point));
        Path tmp = POINTS.resolve(".arm-" + point);
        Files.writeString(tmp, content);
        Files.move(tmp, POINTS.resolve("arm-" + point), StandardCopyOption.ATOMIC_MOVE);
    }

    static Path blobOf(long jobId) {
        return STORE.resolve(String.format("%016x.jobinfo", jobId));
    }

}
