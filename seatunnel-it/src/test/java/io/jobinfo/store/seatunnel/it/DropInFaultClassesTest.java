package io.jobinfo.store.seatunnel.it;

import io.jobinfo.store.spi.StoreNaming;
import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.lifecycle.InlineJobInfoFormat;
import io.jobinfo.store.lifecycle.JobValueFormats;
import io.jobinfo.store.ops.GarbageCollector;
import io.jobinfo.store.ops.GcReport;
import io.jobinfo.store.seatunnel.SeaTunnelJobInfoFormat;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.spi.StoredBlob;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.seatunnel.SeaTunnelJobDataCodec;
import io.jobinfo.store.seatunnel.harness.ClusterClient;
import io.jobinfo.store.seatunnel.harness.ClusterSpec;
import io.jobinfo.store.seatunnel.harness.FakeJobs;
import io.jobinfo.store.seatunnel.harness.JobBytesProbe;
import io.jobinfo.store.seatunnel.harness.RecordedSubmit;
import io.jobinfo.store.seatunnel.harness.ResolvedJobProbe;
import io.jobinfo.store.seatunnel.harness.SeaTunnelProcessCluster;
import io.jobinfo.store.seatunnel.harness.junit.DropInChecks;
import io.jobinfo.store.seatunnel.harness.junit.SeaTunnelClusterExtension;
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
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Fault classes of the drop-in on the real SeaTunnel 2.3.8 engine (3 member processes, local store, drop-in gc grace
 * 3 s, the test-only {@link CrashPointParker} on). Each test failed before the fix it guards (see the commit messages).
 *
 * <p><b>Reused job ids.</b> SeaTunnel reuses ids by design (a stop with a savepoint and its restore with {@code -r},
 * {@code --set-job-id}, REST {@code submit-job?jobId=}); every member must resolve the instance the map's reference
 * names, and no delete decided for one instance may remove another's blob.
 * <ol>
 *   <li>A job is resolved on every member (each caches its bytes), stopped with a savepoint and restored under the
 *   same id: every member must then resolve the restored instance (savepoint flag set, new creation time). Before the
 *   drop-in's cache was checked against the reference's content (CRC32C, SHA-256 prefix, timestamp), the two members
 *   that did not own the entry served the first instance's cached bytes: same length, other job.</li>
 *   <li>The drop-in's gc finds a blob with no entry (as a crash between a removal and its delete leaves it) and is
 *   held by the {@link CrashPointParker} between its decision and its delete, while a job is submitted under that very id on
 *   another member. When the gc goes on, the new job's blob must still be there. Without the per-id claim lock that
 *   gc, move and delete share, the move replaced the old blob and the gc then deleted the new job's blob: a
 *   reference without a blob.</li>
 *   <li>Three moves park between their blob and their reference while the operator's gc runs at a 1 s grace with
 *   {@code --force}, again and again, beside the members' own sweeps: no blob of a parked move is deleted, every job
 *   ends RUNNING with its reference and its blob.</li>
 * </ol>
 *
 * <p><b>One bad value.</b> Values of another class than {@code JobInfo} in the map are reported by their job ids
 * and left alone; the other jobs are moved and collected.
 *
 * <p><b>Partial views and a store outage.</b>
 * <ol start="4">
 *   <li>A second cluster (another cluster name) started on the same namespace refuses to start and names the
 *   cluster that holds it; the first cluster's jobs are untouched.</li>
 *   <li>Configuration drift: a member whose {@code jobinfo-storage} names another store cannot join; and with
 *   references in the map a passive member keeps the join guard, so a stock member still cannot join.</li>
 *   <li>The store goes down, the master is killed, and the outage lasts 75 s into the new master's restore: every job
 *   is RUNNING again once the store is back (the read timeout was 60 s, and SeaTunnel never retries a restore).</li>
 *   <li>A member cut off from the others ({@code SIGSTOP} past the heartbeat timeout, then {@code SIGCONT}) sees a
 *   cluster of its own with a part of the map, and the split brain then merges. No blob of a job the cluster still
 *   runs may be deleted: before the drop-in held its deletes on a partial view, the lone member's gc took the blobs
 *   of the entries it could not see for orphans.</li>
 * </ol>
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DropInFaultClassesTest {

    static final Path DIR = SeaTunnelClusterExtension.TARGET.resolve("DropInFaultClassesTest-files").toAbsolutePath();
    static final Path STORE = DIR.resolve("store");
    static final Path POINTS = DIR.resolve("crash-points");
    static final int SPARE = 3;
    static final int SPARE2 = 4;

    static ClusterSpec spec() {
        io.jobinfo.store.seatunnel.harness.junit.TestDirectories.deleteTree(DIR);
        try {
            Files.createDirectories(STORE);
            Files.createDirectories(POINTS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ClusterSpec.stock("st-faults", 3).withSpareMembers(2)
                .withEngineYaml(DropInChecks.storageYaml(STORE))
                .withExtraClasspath(List.of(SeaTunnelProcessCluster.pluginJar().toString()))
                .withJvmOptions(List.of("-Djobinfo.dropin.sweep-interval-seconds=2",
                        "-Djobinfo.dropin.gc-grace-seconds=3",
                        "-Djobinfo.dropin.summary-interval-seconds=5",
                        "-Djobinfo.dropin.test.crash-points=" + POINTS));
    }

    @RegisterExtension
    static final SeaTunnelClusterExtension ST = new SeaTunnelClusterExtension(DropInFaultClassesTest::spec,
            Duration.ofSeconds(120), 2);

    @Test
    @Order(1)
    void aJobRestoredFromItsSavepointUnderTheSameIdIsResolvedAsTheNewInstanceOnEveryMember() throws Exception {
        ClusterClient client = ST.client();
        awaitActive(client);
        Path file = FakeJobs.write(DIR.resolve("jobs"), "fake-reuse", 3, 10, true);
        long id = client.newJobId();
        RecordedSubmit first = client.recorded(file, "reuse", id);
        first.submit();
        client.awaitStatus(id, "RUNNING", Duration.ofSeconds(90));
        DropInChecks.awaitReference(client, id);
        String firstInstance = ResolvedJobProbe.describe(first.build());
        // every member resolves (and so caches) the first instance
        assertThat(client.onEveryMember(new ResolvedJobProbe(id))).hasSize(3)
                .allSatisfy((port, seen) -> assertThat(seen).as("member %d", port).isEqualTo(firstInstance));

        savepoint(client, id);
        client.awaitStatus(id, "SAVEPOINT_DONE", Duration.ofSeconds(120));
        ClusterClient.await(() -> !client.runningJobInfo().containsKey(id), Duration.ofSeconds(30),
                () -> "engine_runningJobInfo still holds job " + id + " after its savepoint");

        RecordedSubmit restored = client.restoredFromSavepoint(file, "reuse", id);
        String restoredInstance = ResolvedJobProbe.describe(restored.build());
        assertThat(restoredInstance).isNotEqualTo(firstInstance);
        assertThat(restored.jobBytes()).as("the two instances' job bytes").isNotEqualTo(first.jobBytes());
        restored.submit();
        client.awaitStatus(id, "RUNNING", Duration.ofSeconds(90));
        DropInChecks.awaitReference(client, id);
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
        DropInChecks.awaitReference(client, id);
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
        // what an operator reads in the members' logs (issue 26): the start line states the mode, and a summary of
        // moves, deletes and gc comes every summary interval (5 s here, 5 minutes by default)
        ClusterClient.await(() -> java.util.stream.IntStream.range(0, 3).mapToObj(i -> ST.cluster().logTail(i, 2_000_000))
                        .anyMatch(log -> log.matches("(?s).*INFO .*jobinfo-store drop-in \\(active mode\\), last \\d+ s:"
                                + " moved [1-9].*")), Duration.ofSeconds(30),
                () -> "no member logged a summary with a move");
        assertThat(ST.cluster().logTail(0, 2_000_000)).contains("jobinfo-store drop-in started in active mode");
    }

    /**
     * GC racing slow moves (issue 23, "GC racing a slow submit", the drop-in's way in): three jobs' moves park between
     * their blob write and their reference (the {@link CrashPointParker} at {@code before-replace}, 12 s each), while
     * the operator's gc runs at the smallest grace with {@code --force} (what {@code jobinfo-store gc --delete --force
     * --grace 1s} runs: the library's {@link GarbageCollector} with SeaTunnel's value formats and the drop-in's claim
     * locks, in this JVM as a Hazelcast client) and the members' own gc sweeps every 2 s at a 3 s grace. Every move
     * holds its job's claim lock from before its blob to after its reference, so no gc may take a parked move's blob:
     * each job ends RUNNING with a reference whose blob is in the store and holds its bytes. Counted: none of the
     * three may be lost (a reference without a blob), and every gc run reports each parked blob as kept by its
     * recheck or not deleted at all.
     */
    @Test
    @Order(3)
    void aGcAtOneSecondGraceWithForceNeverTakesTheBlobOfAMoveParkedBeforeItsReference() throws Exception {
        ClusterClient client = ST.client();
        awaitActive(client);
        Path file = FakeJobs.write(DIR.resolve("jobs"), "fake-gc-slow-move", 3, 10, true);
        long holdMillis = 12_000;
        List<RecordedSubmit> submits = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            long id = client.newJobId();
            arm("before-replace-" + id, id + " hold=" + holdMillis);
            submits.add(client.recorded(file, "gc-slow-move-" + i, id));
        }
        for (RecordedSubmit submit : submits) {
            submit.submit();
        }
        for (RecordedSubmit submit : submits) {
            Path reached = POINTS.resolve("reached-before-replace-" + submit.jobId());
            ClusterClient.await(() -> Files.exists(reached), Duration.ofSeconds(90),
                    () -> "the move of job " + submit.jobId() + " did not reach the step before its reference");
        }
        Thread.sleep(1_500); // every parked blob is now older than the 1 s grace
        List<GcReport> runs = new java.util.ArrayList<>();
        JobInfoStorageConfig storage = JobInfoStorageConfig.builder("local").namespace(STORE.toString()).build();
        try (JobInfoStore store = JobInfoStores.open(storage)) {
            com.hazelcast.core.HazelcastInstance hazelcast = client.seaTunnelClient().getHazelcastInstance();
            com.hazelcast.map.IMap<Long, Object> map = hazelcast.getMap(SeaTunnelJobInfoFormat.RUNNING_JOB_INFO);
            JobValueFormats formats = JobValueFormats.of(new SeaTunnelJobInfoFormat(), new InlineJobInfoFormat());
            Instant parkEnds = Instant.now().plusMillis(holdMillis - 3_000);
            while (Instant.now().isBefore(parkEnds)) {
                runs.add(new GarbageCollector(map, store, Duration.ofSeconds(1)).formats(formats)
                        .claims(formats.deleteClaims(hazelcast, map, GarbageCollector.MARKER_OWNER,
                                java.time.Clock.systemUTC()))
                        .run(true, blob -> { }));
                Thread.sleep(500);
            }
            int lost = 0;
            for (RecordedSubmit submit : submits) {
                long id = submit.jobId();
                client.awaitStatus(id, "RUNNING", Duration.ofSeconds(90));
                DropInChecks.awaitReference(client, id);
                JobInfoPointer pointer = new SeaTunnelJobInfoFormat().pointerIn(map.get(id));
                if (!Files.exists(blobOf(id))) {
                    lost++;
                    continue;
                }
                assertThat(pointer.matches(store.read(id).header()))
                        .as("the blob of job %d is the one its reference %s names", id, pointer).isTrue();
                assertThat(client.jobBytes(List.of(id)).get(id)).as("job %d as its owner reads it", id)
                        .isEqualTo("reference " + JobBytesProbe.sha256(submit.jobBytes()));
            }
            assertThat(lost).as("jobs whose reference lost its blob to a gc of %d runs: %s", runs.size(), runs)
                    .isZero();
        }
        assertThat(runs).as("gc runs while the moves were parked").hasSizeGreaterThanOrEqualTo(3);
        for (GcReport run : runs) {
            assertThat(run.failures()).as("gc run %s", run).isEmpty();
            assertThat(run.deleted()).as("blobs a gc run deleted while the moves were parked: %s", run)
                    .extracting(StoredBlob::jobId)
                    .doesNotContainAnyElementsOf(submits.stream().map(RecordedSubmit::jobId).toList());
        }
        for (RecordedSubmit submit : submits) {
            client.cancelRunning(submit.jobId());
        }
        for (RecordedSubmit submit : submits) {
            client.awaitStatus(submit.jobId(), "CANCELED", Duration.ofSeconds(60));
        }
    }

    /**
     * One bad value (issue 23): a client puts values of another class than SeaTunnel's {@code JobInfo} into
     * {@code engine_runningJobInfo} under 30 ids spread over the partitions, so that every member (the master
     * included) owns some, and two values whose deserialization would do harm ({@link Tripwire}: a Java-serialized
     * object and a {@code DataSerializable} that names its class by name, classes every member has). Each member that
     * owns one reports it once at WARN with its job id and counts it in the {@code badValues} gauge, leaves it alone,
     * and goes on: a job submitted after them is moved, and an orphan blob is collected by the master's gc. No member
     * ever instantiates a tripwire (the map has no interceptor, and the drop-in reads values as stored Data). Before,
     * every sweep of a member owning such a value threw a {@code ClassCastException} on it ("sweep failed"), so the
     * master's gc never ran again (seen: the orphan stayed); and while the join guard was an interceptor of this map,
     * Hazelcast deserialized each tripwire at its put, on the partition thread (seen: both tripped).
     */
    @Test
    @Order(4)
    void valuesThatAreNotSeaTunnelsJobInfoStopNeitherTheMovesNorTheGcOfTheOtherJobs() throws Exception {
        ClusterClient client = ST.client();
        awaitActive(client);
        com.hazelcast.map.IMap<Long, Object> map = client.seaTunnelClient().getHazelcastInstance()
                .getMap(SeaTunnelJobInfoFormat.RUNNING_JOB_INFO);
        List<Long> bad = new java.util.ArrayList<>();
        for (int i = 0; i < 30; i++) {
            bad.add(client.newJobId());
        }
        long javaId = client.newJobId();
        long byNameId = client.newJobId();
        Path marker = DIR.resolve("tripwires").resolve("tripped-" + System.nanoTime());
        Files.createDirectories(marker.getParent());
        try {
            for (long id : bad) {
                map.put(id, "not a JobInfo");
            }
            map.set(javaId, new Tripwire.JavaSerialized(marker));
            map.set(byNameId, new Tripwire.ByClassName(marker));
            long orphanId = client.newJobId();
            Path orphan = blobOf(orphanId);
            Files.write(orphan, BlobEnvelope.wrap(orphanId, SeaTunnelJobDataCodec.ID,
                    System.currentTimeMillis() - 3_600_000, "an orphan".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            Files.setLastModifiedTime(orphan, FileTime.from(Instant.now().minusSeconds(3600)));
            Path file = FakeJobs.write(DIR.resolve("jobs"), "fake-bad-value", 1, 2, true);
            long id = client.newJobId();
            RecordedSubmit submit = client.recorded(file, "beside-bad-values", id);
            submit.submit();
            client.awaitStatus(id, "RUNNING", Duration.ofSeconds(90));
            DropInChecks.awaitReference(client, id);
            ClusterClient.await(() -> !Files.exists(orphan), Duration.ofSeconds(45),
                    () -> "the master's gc did not collect the orphan " + orphan + " beside the bad values; counters "
                            + client.dropInMetrics());
            ClusterClient.await(() -> client.dropInTotal("badValues") >= bad.size() + 2, Duration.ofSeconds(30),
                    () -> "bad values counted: " + client.dropInMetrics());
            StringBuilder logs = new StringBuilder();
            for (int i = 0; i < 3; i++) {
                logs.append(ST.cluster().logTail(i, 2_000_000));
            }
            for (long b : bad) {
                String line = "the value of job " + b + " in engine_runningJobInfo is a java.lang.String, not"
                        + " SeaTunnel's JobInfo";
                assertThat(logs.toString().split(Pattern.quote(line), -1).length - 1)
                        .as("members that logged: %s", line).isBetween(1, 3);
            }
            assertThat(Tripwire.tripped(marker)).as("a member deserialized a tripwire (%s-<pid>)", marker).isFalse();
            assertThat(logs.toString()).doesNotContain("ClassCastException")
                    .contains("the value of job " + javaId + " in engine_runningJobInfo: the map value cannot be read: it"
                            + " is a Java-serialized object of class " + Tripwire.JavaSerialized.class.getName())
                    .contains("the value of job " + byNameId + " in engine_runningJobInfo: the map value cannot be read:"
                            + " it is a DataSerializable naming its class by name ('"
                            + Tripwire.ByClassName.class.getName() + "')");
            client.cancelRunning(id);
            client.awaitStatus(id, "CANCELED", Duration.ofSeconds(60));
        } finally {
            for (long b : bad) {
                map.delete(b);
            }
            map.delete(javaId); // delete, not remove: a remove would deserialize the old value on this client
            map.delete(byNameId);
        }
    }

    @Test
    @Order(5)
    void aSecondClusterOnTheSameNamespaceRefusesToStartNamingTheClusterThatHoldsIt() throws Exception {
        ClusterClient client = ST.client();
        Path file = FakeJobs.write(DIR.resolve("jobs"), "fake-namespace", 1, 2, true);
        long id = client.submit(file, "namespace-owner");
        client.awaitStatus(id, "RUNNING", Duration.ofSeconds(90));
        DropInChecks.awaitReference(client, id);
        ClusterSpec mine = ST.cluster().spec();
        // logging as a stock install does: the refusal must be in SeaTunnel's log file (issue 26 item 3)
        ClusterSpec other = mine.withClusterName(mine.clusterName() + "-other").withSeaTunnelLogFile();
        ST.cluster().startMember(SPARE, other);
        Integer exit = ST.cluster().awaitExit(SPARE, Duration.ofSeconds(90));
        assertThat(exit).as("exit code of the other cluster's member; its stdout and stderr:\n%s",
                ST.cluster().logTail(SPARE, 50_000)).isNotNull().isNotZero();
        DropInChecks.assertRefusalInServerLog(ST.cluster(), SPARE, "the jobinfo-store drop-in refuses to start "
                + "\\(.*\\): .*belongs to the cluster '" + Pattern.quote(mine.clusterName()) + "'.*not to this cluster '"
                + Pattern.quote(other.clusterName()) + "'");
        assertThat(client.members()).hasSize(3);
        assertThat(client.jobBytes(List.of(id)).get(id)).startsWith("reference ");
        client.cancelRunning(id);
        client.awaitStatus(id, "CANCELED", Duration.ofSeconds(60));
    }

    /**
     * Configuration drift: a member of the same cluster whose {@code jobinfo-storage} names another namespace (so
     * another store) cannot join; before the join guard carried the cluster's store identity it joined and became a
     * fourth member reading and deleting in a store of its own.
     */
    @Test
    @Order(6)
    void aMemberWhoseJobinfoStorageNamesAnotherStoreCannotJoin() throws Exception {
        ClusterClient client = ST.client();
        awaitActive(client);
        ClusterSpec drifted = ST.cluster().spec().withEngineYaml(DropInChecks.storageYaml(DIR.resolve("other")));
        ST.cluster().startMember(SPARE, drifted);
        try {
            ClusterClient.await(() -> ST.cluster().logTail(SPARE, 200_000)
                            .contains("differs from the one of the cluster it joins"), Duration.ofSeconds(90),
                    () -> "the drifted member was not refused; members " + client.members() + "; its log:\n"
                            + ST.cluster().logTail(SPARE, 5000));
            Integer exit = ST.cluster().awaitExit(SPARE, Duration.ofSeconds(60));
            assertThat(exit).as("the drifted member ends").isNotNull();
            ClusterClient.await(() -> client.members().size() == 3, Duration.ofSeconds(30),
                    () -> "members after the drifted member's attempt: " + client.members());
        } finally {
            if (ST.cluster().isAlive(SPARE)) {
                ST.cluster().kill(SPARE);
            }
        }
    }

    /**
     * The join guard stays in force while references exist, whatever the mix of active and passive members: a passive
     * member joins, and a stock member (no plugin) still cannot. Before, a passive member removed the guard at its
     * start, and the stock member joined a cluster whose jobs it could not read.
     */
    @Test
    @Order(7)
    void withReferencesInTheMapAPassiveMemberKeepsTheJoinGuardAndAStockMemberCannotJoin() throws Exception {
        ClusterClient client = ST.client();
        awaitActive(client);
        Path file = FakeJobs.write(DIR.resolve("jobs"), "fake-guard", 1, 2, true);
        long id = client.submit(file, "guard");
        client.awaitStatus(id, "RUNNING", Duration.ofSeconds(90));
        DropInChecks.awaitReference(client, id);
        ClusterSpec passive = ST.cluster().spec().withEngineYaml(DropInChecks.storageYaml(STORE)
                + "jobinfo-dropin:\n  mode: passive\n");
        ST.cluster().startMember(SPARE, passive);
        try {
            client.awaitClusterSize(4, Duration.ofSeconds(90));
            ClusterClient.await(() -> client.dropInMetrics().size() == 4 && client.dropInMetrics().values().stream()
                            .allMatch(m -> m.getOrDefault("active", 0L) == 1), Duration.ofSeconds(60),
                    () -> "the passive member's drop-in is not active: " + client.dropInMetrics());
            Thread.sleep(6_000); // three sweeps of the passive member
            ClusterSpec stock = ST.cluster().spec().withEngineYaml("").withExtraClasspath(List.of());
            ST.cluster().startMember(SPARE2, stock);
            // its join fails after the cluster first listed it (as in DropInLocalStoreTest); without the guard it
            // joins and never logs this
            ClusterClient.await(() -> ST.cluster().logTail(SPARE2, 200_000).contains("Node could not join cluster"),
                    Duration.ofSeconds(90), () -> "the stock member did not give up joining; members "
                            + client.members() + "; its log:\n" + ST.cluster().logTail(SPARE2, 5000));
            assertThat(ST.cluster().logTail(SPARE2, 200_000)).contains(DropInChecks.JOIN_GUARD);
            ClusterClient.await(() -> client.members().size() == 4, Duration.ofSeconds(30),
                    () -> "members after the stock member's attempt: " + client.members());
        } finally {
            if (ST.cluster().isAlive(SPARE2)) {
                ST.cluster().kill(SPARE2);
            }
            ST.cluster().stop(SPARE);
        }
        client.awaitClusterSize(3, Duration.ofSeconds(60));
        assertThat(client.status(id)).isEqualTo("RUNNING");
        client.cancelRunning(id);
        client.awaitStatus(id, "CANCELED", Duration.ofSeconds(60));
    }

    /**
     * Store outage across a master switch: the store goes down, the master is killed, and the new master's restore of
     * every job meets the outage for 75 s (longer than the drop-in's read timeout was, 60 s) before the store comes
     * back. Every job must be RUNNING again with no operator action: SeaTunnel 2.3.8 never retries a failed restore,
     * so before the read timeout became 10 minutes these jobs were left unrestored.
     */
    @Test
    @Order(8)
    void aStoreOutageAcrossAMasterSwitchEndsWithEveryJobRunningAgain() throws Exception {
        ClusterClient client = ST.client();
        awaitActive(client);
        Path file = FakeJobs.write(DIR.resolve("jobs"), "fake-outage", 3, 10, true);
        List<Long> jobs = new java.util.ArrayList<>();
        for (int i = 0; i < 2; i++) {
            long id = client.submit(file, "outage-" + i);
            jobs.add(id);
        }
        for (long id : jobs) {
            client.awaitStatus(id, "RUNNING", Duration.ofSeconds(90));
            DropInChecks.awaitReference(client, id);
        }
        // the store goes down: its directory is replaced by a file, so every read fails ("Not a directory")
        Path aside = STORE.resolveSibling("store-aside");
        Files.move(STORE, aside);
        Files.writeString(STORE, "not a directory: the store is down");
        int oldMaster = ST.cluster().indexOfPort(client.masterPort());
        Instant down = Instant.now();
        try {
            ST.cluster().kill(oldMaster);
            client.awaitClusterSize(2, Duration.ofSeconds(60));
            ClusterClient.await(() -> Duration.between(down, Instant.now()).toSeconds() >= 75,
                    Duration.ofSeconds(120), () -> "");
            assertThat(client.dropInTotal("readRetries")).as("reads of the new master retried during the outage")
                    .isGreaterThan(0);
        } finally {
            Files.delete(STORE);
            Files.move(aside, STORE);
        }
        for (long id : jobs) {
            client.awaitStatus(id, "RUNNING", Duration.ofSeconds(180));
        }
        Map<Long, String> seen = client.jobBytes(jobs);
        for (long id : jobs) {
            assertThat(seen.get(id)).as("job %d after the outage", id).startsWith("reference ");
        }
        ST.cluster().restart(oldMaster);
        client.awaitClusterSize(3, Duration.ofSeconds(90));
        for (long id : jobs) {
            client.cancelRunning(id);
            client.awaitCanceledAfterMemberLoss(id, Duration.ofSeconds(60));
        }
    }

    @Test
    @Order(9)
    void aMemberCutOffFromTheOthersDeletesNoBlobOfAJobTheClusterStillRuns() throws Exception {
        ClusterClient client = ST.client();
        awaitActive(client);
        Path file = FakeJobs.write(DIR.resolve("jobs"), "fake-split", 3, 10, true);
        int master = client.masterPort();
        List<Integer> ports = client.members().stream().map(m -> m.getAddress().getPort()).toList();
        // entries on every member (ids fall on the partitions of all three; a member just restarted may own none yet)
        java.util.Map<Long, RecordedSubmit> jobs = new java.util.LinkedHashMap<>();
        for (int i = 0; i < 6; i++) {
            long id = client.newJobId();
            RecordedSubmit submit = client.recorded(file, "split-" + i, id);
            submit.submit();
            jobs.put(id, submit);
        }
        for (long id : jobs.keySet()) {
            client.awaitStatus(id, "RUNNING", Duration.ofSeconds(90));
            DropInChecks.awaitReference(client, id);
        }
        // older than the gc grace (3 s), so a gc that cannot see their entries would take them for orphans
        Thread.sleep(4_000);
        int cutOffPort = ports.stream().filter(p -> p != master).findFirst().orElseThrow();
        int cutOff = ST.cluster().indexOfPort(cutOffPort);
        long pid = ST.cluster().pid(cutOff);
        long lonesGcRunsBefore = client.dropInMetrics().get(cutOffPort).getOrDefault("gcRuns", 0L);
        int masterIndex = ST.cluster().indexOfPort(master);
        int lonesHoldsBefore = holdLines(cutOff);
        int mastersHoldsBefore = holdLines(masterIndex);
        signal("STOP", pid);
        try {
            // asked of the master: this client's own view may follow membership through the stopped member
            ClusterClient.await(() -> client.membersSeenBy(master) == 2, Duration.ofSeconds(60),
                    () -> "the others did not drop the stopped member: the master sees "
                            + client.membersSeenBy(master));
        } finally {
            signal("CONT", pid);
        }
        // the member wakes up alone (a cluster of its own, with its part of the map) until the split brain merges;
        // a gc pass it runs while alone (every 3 s, once it sees itself master) must hold, and says why in its log
        String cutOffLog = ST.cluster().log(cutOff).toString();
        ClusterClient.await(() -> holdLines(cutOff) > lonesHoldsBefore || client.membersSeenBy(master) == 3
                        || !ST.cluster().isAlive(cutOff),
                Duration.ofSeconds(120), () -> "the cut-off member neither held, merged back nor ended: the master"
                        + " sees " + client.membersSeenBy(master) + "; its log: " + cutOffLog);
        ClusterClient.await(() -> client.membersSeenBy(master) == 3 || !ST.cluster().isAlive(cutOff),
                Duration.ofSeconds(120), () -> "the cut-off member neither merged back nor ended: the master sees "
                        + client.membersSeenBy(master)
                        + "; its log: " + cutOffLog);
        // give a gc on any view several runs (every 3 s)
        Thread.sleep(12_000);
        Map<Long, String> seen = client.jobBytes(new java.util.ArrayList<>(jobs.keySet()));
        // SeaTunnel may end a job whose tasks ran on the cut-off member (its pipeline fails over, and a deploy during
        // the split can fail it): such a job's entry is gone and its blob legitimately deleted. The claim is about
        // the jobs the cluster still runs; the ended ones are counted and bounded so that enough remain to test it.
        java.util.List<String> ended = new java.util.ArrayList<>();
        int stillRun = 0;
        for (Map.Entry<Long, RecordedSubmit> e : jobs.entrySet()) {
            long id = e.getKey();
            String value = seen.get(id);
            if ("absent".equals(value)) {
                String status = client.status(id);
                assertThat(status).as("job %d has no entry after the split brain, so it must have ended", id)
                        .isIn("FAILED", "CANCELED", "FINISHED");
                ended.add(id + " " + status);
                continue;
            }
            stillRun++;
            assertThat(Files.exists(blobOf(id))).as("blob of job %d, which the cluster still runs (%s), after the"
                    + " split brain; log of the cut-off member: %s", id, value, cutOffLog).isTrue();
            assertThat(value).as("job %d", id).isEqualTo("reference " + JobBytesProbe.sha256(e.getValue().jobBytes()));
        }
        System.out.println("split brain: " + stillRun + " of " + jobs.size() + " jobs still run; ended by SeaTunnel: "
                + ended);
        assertThat(ended).as("jobs SeaTunnel ended during the split brain (at most 4 of 6, so that at least two test"
                + " the claim)").hasSizeLessThanOrEqualTo(4);
        if (holdLines(cutOff) > lonesHoldsBefore) {
            System.out.println("split brain: the cut-off member held its deletes while alone");
        } else {
            // The weaker outcome: the lone cluster merged back before the cut-off member ran a gc pass as its master
            // (the merge runs every 5 s, the gc every 3 s, at phases of their own). Then it must have run no unheld
            // gc, and the majority's master, which lost a member too, must have held and said why. Seen once, in a
            // run of seatunnel-it on 2026-12-07; the test prints which outcome it saw.
            long lonesGcRuns = client.dropInMetrics().get(cutOffPort).getOrDefault("gcRuns", 0L);
            System.out.println("split brain, weaker outcome: the cut-off member merged back before its first gc pass"
                    + " while alone (gc runs " + lonesGcRunsBefore + " -> " + lonesGcRuns + ")");
            assertThat(lonesGcRuns).as("gc passes the cut-off member ran without a hold (it merged back before"
                    + " logging one)").isEqualTo(lonesGcRunsBefore);
            assertThat(holdLines(masterIndex)).as("lines of the majority's master, which lost a member too, saying"
                    + " that it held its deletes").isGreaterThan(mastersHoldsBefore);
        }
        if (!ST.cluster().isAlive(cutOff)) {
            ST.cluster().restart(cutOff);
        }
    }

    /** How many lines of the member's log say that the drop-in held its blob deletes. */
    static int holdLines(int member) {
        String log = ST.cluster().logTail(member, Integer.MAX_VALUE);
        String line = "jobinfo-store drop-in holds its blob deletes";
        int n = 0;
        for (int at = log.indexOf(line); at >= 0; at = log.indexOf(line, at + line.length())) {
            n++;
        }
        return n;
    }

    /**
     * Stops the job with a savepoint. SeaTunnel refuses one while the job's tasks are still starting ("Task not all
     * ready, savepoint error"); that refusal is retried for up to a minute, anything else fails the test.
     */
    static void savepoint(ClusterClient client, long id) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            try {
                client.savepoint(id);
                return;
            } catch (RuntimeException e) {
                if (!String.valueOf(e.getMessage()).contains("Task not all ready") || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(1_000);
            }
        }
    }

    static void signal(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertThat(kill.waitFor()).as("kill -%s %d", signal, pid).isZero();
    }

    static void awaitActive(ClusterClient client) {
        client.awaitDropInActive(Duration.ofSeconds(60));
    }

    static void arm(String point, String content) throws IOException {
        Files.deleteIfExists(POINTS.resolve("reached-" + point));
        Path tmp = POINTS.resolve(".arm-" + point);
        Files.writeString(tmp, content);
        Files.move(tmp, POINTS.resolve("arm-" + point), StandardCopyOption.ATOMIC_MOVE);
    }

    static Path blobOf(long jobId) {
        return STORE.resolve(StoreNaming.blobName(jobId));
    }
}
