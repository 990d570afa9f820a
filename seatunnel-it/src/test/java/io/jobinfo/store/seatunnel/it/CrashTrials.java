package io.jobinfo.store.seatunnel.it;

import io.jobinfo.store.seatunnel.it.cluster.ClusterClient;
import io.jobinfo.store.seatunnel.it.cluster.ClusterSpec;
import io.jobinfo.store.seatunnel.it.cluster.FakeJobs;
import io.jobinfo.store.seatunnel.it.cluster.JobBytesProbe;
import io.jobinfo.store.seatunnel.it.cluster.RecordedSubmit;
import io.jobinfo.store.seatunnel.it.cluster.SeaTunnelClusterExtension;
import io.jobinfo.store.seatunnel.it.cluster.SeaTunnelProcessCluster;
import io.jobinfo.store.testing.ReliabilityRow;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Crash trials on the real SeaTunnel 2.3.8 engine with the drop-in (3 member processes; the store is the subclass's:
 * {@link DropInCrashTrialsTest} local, {@link DropInS3CrashTrialsTest} S3): {@code kill -9}
 * of the master (a) in the middle of a submit, (b) while a new master restores the jobs through the store, (c) at job
 * end (cancel, batch end) between the entry's removal and the blob's delete. After every trial a replacement member
 * (the killed one, same port) starts at once, every acknowledged job must be RUNNING again (FINISHED, CANCELED for the
 * jobs that ended), its bytes as read back through the store must be the bytes the client sent (SHA-256 of
 * {@code JobImmutableInformation}'s Data), every reference must have its blob, and the drop-in's own GC (grace 3 s on
 * this cluster) must leave no blob without entry. One cluster serves every trial of a class; at most
 * {@link #MAX_RUNNING} streaming jobs (3 tables of 10 columns) run at a time.
 *
 * <p>Precise points use the test-only {@link CrashPointParker} (a {@code DropInStepListener} of this module's test
 * code, on only with {@code -Djobinfo.dropin.test.crash-points}): the member parks there and the test kills it after a random delay.
 * "Random instant" trials use no seam: the master is killed at a uniformly random time inside the submit. Job ids are
 * drawn so that the master owns the job's entry (the member that moves the job is then the one killed).
 *
 * <p>Long mode only ({@code -Djobinfo.it.long=true}): a trial costs 10 to 30 s (member death detection, restore,
 * replacement start), far more than the default build's budget. {@code -Djobinfo.it.engine.trials=N} (default 20)
 * sets the trials of (b) and of (c) (alternately cancel and batch end); (a) runs
 * {@code -Djobinfo.it.engine.submit-trials} (default twice N) spread over its 5 sub-points. Progress lines go to
 * {@code target/seatunnel-it/crash-trials-progress.log} as they happen. Rows go to
 * {@code target/seatunnel-it/reliability-engine.md} in the table format of integration-tests' reliability report.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class CrashTrials {

    static final int TRIALS = Integer.getInteger("jobinfo.it.engine.trials", 20);
    /** Submit trials: twice {@link #TRIALS}, spread over the 5 sub-points of (a). */
    static final int SUBMIT_TRIALS = Integer.getInteger("jobinfo.it.engine.submit-trials", 2 * TRIALS);
    static final int MAX_RUNNING = 3;
    static final long SEED = Long.getLong("jobinfo.it.seed", System.nanoTime());
    static final String DISABLED = "crash trials on the real engine take about 20 s each (80 per backend);"
            + " run with -Djobinfo.it.long=true";
    /** Rows of every backend that ran in this JVM, for the one report. */
    static final List<ReliabilityRow> ROWS = new ArrayList<>();
    static final Path PROGRESS = SeaTunnelClusterExtension.TARGET.resolve("crash-trials-progress.log");
    static final Path REPORT = SeaTunnelClusterExtension.TARGET.resolve("reliability-engine.md");

    final Random random = new Random(SEED);

    /** Working files of a test class: crash-point files, job files, a local store. */
    static Path dir(String testClass) {
        return SeaTunnelClusterExtension.TARGET.resolve(testClass + "-files").toAbsolutePath();
    }

    static Path points(String testClass) {
        return dir(testClass).resolve("crash-points");
    }

    /**
     * The cluster of a test class: 3 drop-in members on {@code storageYaml}, sweep 2 s, drop-in GC grace 3 s, the
     * crash-point seam on. The class's working files are wiped first.
     */
    static ClusterSpec spec(String testClass, String storageYaml) {
        Path dir = dir(testClass);
        try {
            if (Files.exists(dir)) {
                try (Stream<Path> old = Files.walk(dir)) {
                    for (Path p : old.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
            Files.createDirectories(points(testClass));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ClusterSpec.stock("st-crash", 3)
                .withEngineYaml(storageYaml)
                .withExtraClasspath(List.of(SeaTunnelProcessCluster.pluginJar().toString()))
                .withJvmOptions(List.of("-Djobinfo.dropin.sweep-interval-seconds=2",
                        "-Djobinfo.dropin.gc-grace-seconds=3",
                        "-Djobinfo.dropin.view-window-seconds=20",
                        "-Djobinfo.dropin.test.crash-points=" + points(testClass)));
    }

    /** The class's cluster ({@code @RegisterExtension} static field of the subclass). */
    abstract SeaTunnelClusterExtension st();

    /** The backend's name in the report ({@code local}, {@code s3}). */
    abstract String backend();

    /**
     * Every file or object of the store: blob names ({@code <16 hex digits>.jobinfo}, the last path component) and
     * anything else (leftovers of interrupted writes, pending multipart uploads) under a name that is no blob name.
     */
    abstract List<String> storeFiles();

    private Path points() {
        return points(getClass().getSimpleName());
    }

    private Path jobs() {
        return dir(getClass().getSimpleName()).resolve("jobs");
    }

    /** A job the test submitted: its id, the SHA-256 of the bytes sent, and what its status must be. */
    static final class Job {
        final long id;
        final String sha;
        final boolean acknowledged;
        String expected; // RUNNING, FINISHED, CANCELED

        Job(long id, String sha, boolean acknowledged, String expected) {
            this.id = id;
            this.sha = sha;
            this.acknowledged = acknowledged;
            this.expected = expected;
        }
    }

    /** Figures of one row. */
    static final class Tally {
        final String scenario;
        int trials;
        final Set<Long> acknowledged = new TreeSet<>();
        int audits;
        int lost;
        int torn;
        int pointersNoBlob;
        int orphans;
        final List<String> notes = new ArrayList<>();
        long millis;

        Tally(String scenario) {
            this.scenario = scenario;
        }
    }

    final Map<Long, Job> tracked = new LinkedHashMap<>();
    final Map<Long, String> sent = new TreeMap<>();
    final Map<String, Tally> tallies = new LinkedHashMap<>();
    long submitWindowMillis = 3000;

    Tally tally(String scenario) {
        return tallies.computeIfAbsent(scenario, Tally::new);
    }

    /** Progress goes to the test's output and to {@link #PROGRESS} (surefire keeps the output until the end). */
    static void progress(String message) {
        String line = "[crash-trials " + Instant.now().toString().substring(11, 19) + "] " + message + "\n";
        System.out.print(line);
        try {
            Files.createDirectories(PROGRESS.getParent());
            Files.writeString(PROGRESS, line, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }


    // ---------------------------------------------------------------------------------------------------- (a) submit

    enum SubmitPoint {
        RANDOM("master kill -9: at a random instant of the submit", null),
        BEFORE_PUT("master kill -9: mid-submit, before the inline put lands", "before-put"),
        BEFORE_BLOB("master kill -9: mid-submit, after the inline put, before the mover's blob write", "before-blob"),
        BEFORE_REPLACE("master kill -9: mid-submit, after the blob, before the reference replace", "before-replace"),
        AFTER_REPLACE("master kill -9: mid-submit, after the reference replace", "after-replace");

        final String scenario;
        final String seam;

        SubmitPoint(String scenario, String seam) {
            this.scenario = scenario;
            this.seam = seam;
        }
    }

    @Test
    @Order(1)
    void killTheMasterInTheMiddleOfASubmit() throws Exception {
        awaitDropInActive();
        // calibration: one plain submit, timed from the send until the reference is in place (the window of the
        // random kills)
        ClusterClient client = st().client();
        long firstId = client.newJobId();
        RecordedSubmit first = client.recorded(streamingJob(), "stream-" + firstId, firstId);
        sent.put(firstId, JobBytesProbe.sha256(first.jobBytes()));
        long t0 = System.nanoTime();
        first.submit();
        long ack = (System.nanoTime() - t0) / 1_000_000;
        tracked.put(firstId, new Job(firstId, sent.get(firstId), true, "RUNNING"));
        ClusterClient.await(() -> {
            long b = client.storedJobBytes(firstId);
            return b > 0 && b < 200;
        }, Duration.ofSeconds(60), () -> "the calibration job was not moved");
        long moved = (System.nanoTime() - t0) / 1_000_000;
        submitWindowMillis = Math.max(500, moved * 13 / 10);
        progress("seed " + SEED + "; calibration: acknowledged after " + ack + " ms, reference in place after ~"
                + moved + " ms; random kills fall in [0, " + submitWindowMillis + "] ms after the send");
        SubmitPoint[] points = SubmitPoint.values();
        int trials = SUBMIT_TRIALS;
        for (int t = 0; t < trials; t++) {
            SubmitPoint point = points[t % points.length];
            prepare();
            Tally tally = tally(point.scenario);
            long started = System.nanoTime();
            String note = submitTrial(point);
            tally.trials++;
            progress("(a) trial " + (t + 1) + "/" + trials + " " + point + ": " + note);
            tally.notes.add(note.contains("unacknowledged") ? "kill before the ack (submit failed)"
                    : note.contains("already acknowledged") ? "kill after the ack" : "kill before the ack, acknowledged"
                    + " anyway (answered by the new master)");
            audit(tally);
            tally.millis += (System.nanoTime() - started) / 1_000_000;
        }
        assertZeros();
    }

    private String submitTrial(SubmitPoint point) throws Exception {
        ClusterClient client = st().client();
        int masterPort = client.masterPort();
        int master = st().cluster().indexOfPort(masterPort);
        long id = client.newJobIdOwnedBy(masterPort);
        RecordedSubmit submit = client.recorded(streamingJob(), "crash-" + id, id);
        String sha = JobBytesProbe.sha256(submit.jobBytes());
        sent.put(id, sha);
        if (point.seam != null) {
            arm(point.seam, point == SubmitPoint.BEFORE_PUT ? "*" : Long.toString(id));
        }
        CompletableFuture<Void> sent = CompletableFuture.runAsync(submit::submit);
        String how;
        if (point.seam == null) {
            long delay = (long) (random.nextDouble() * submitWindowMillis);
            Thread.sleep(delay);
            how = "killed " + delay + " ms into the submit" + (acked(sent) ? " (already acknowledged)" : "");
        } else {
            long pid = awaitReached(point.seam, Duration.ofSeconds(90));
            if (pid != st().cluster().pid(master)) {
                throw new AssertionError("the seam " + point.seam + " parked pid " + pid + ", not the master (pid "
                        + st().cluster().pid(master) + ")");
            }
            long delay = random.nextInt(200);
            Thread.sleep(delay);
            how = "parked at " + point.seam + ", killed " + delay + " ms later"
                    + (acked(sent) ? " (already acknowledged)" : "");
        }
        killAndReplace(master);
        boolean acknowledged;
        try {
            sent.get(180, TimeUnit.SECONDS);
            acknowledged = true;
        } catch (Exception e) {
            acknowledged = false;
        }
        disarm();
        tracked.put(id, new Job(id, sha, acknowledged, "RUNNING"));
        if (!acknowledged) {
            how += "; submit failed (unacknowledged)";
        }
        return "job " + id + " " + how;
    }

    private static boolean acked(CompletableFuture<Void> sent) {
        return sent.isDone() && !sent.isCompletedExceptionally();
    }

    // --------------------------------------------------------------------------------------------------- (b) restore

    @Test
    @Order(2)
    void killTheNewMasterWhileItRestoresTheJobs() throws Exception {
        awaitDropInActive();
        Tally tally = tally("master kill -9: during the new master's restore through the store");
        for (int t = 0; t < TRIALS; t++) {
            prepare();
            while (running().size() < 2) {
                submitAcknowledged(false, st().client().newJobId());
            }
            awaitAllReferences();
            long started = System.nanoTime();
            ClusterClient client = st().client();
            int first = st().cluster().indexOfPort(client.masterPort());
            st().cluster().kill(first);
            // armed once the master is gone (before the others notice): the new master's restore reads claim it
            arm("resolve", "*");
            client.awaitClusterSize(2, Duration.ofSeconds(60));
            st().cluster().restart(first);
            long pid = awaitReached("resolve", Duration.ofSeconds(90));
            int second = st().cluster().indexOfPort(client.masterPort());
            if (pid != st().cluster().pid(second)) {
                throw new AssertionError("the restore seam parked pid " + pid + ", not the new master (pid "
                        + st().cluster().pid(second) + ")");
            }
            // backup-count 1: a second loss is survivable only once the first one's backups are rebuilt
            ClusterClient.await(client::clusterSafe, Duration.ofSeconds(90), () -> "cluster not safe after a kill");
            long delay = random.nextInt(500);
            Thread.sleep(delay);
            killAndReplace(second);
            disarm();
            tally.trials++;
            progress("(b) trial " + (t + 1) + "/" + TRIALS + ": new master parked restoring, killed " + delay
                    + " ms after the cluster was safe again; " + running().size() + " jobs to restore");
            tally.notes.add(running().size() + " running jobs restored twice (the second master killed mid-restore)");
            audit(tally);
            tally.millis += (System.nanoTime() - started) / 1_000_000;
        }
        assertZeros();
    }

    // --------------------------------------------------------------------------------------------------- (c) job end

    @Test
    @Order(3)
    void killTheMasterBetweenTheEntryRemovalAndTheBlobDelete() throws Exception {
        awaitDropInActive();
        Tally cancel = tally("master kill -9: at cancel, after the entry removal, before the blob delete");
        Tally batch = tally("master kill -9: at batch end, after the entry removal, before the blob delete");
        for (int t = 0; t < TRIALS; t++) {
            prepare();
            ClusterClient client = st().client();
            int masterPort = client.masterPort();
            int master = st().cluster().indexOfPort(masterPort);
            boolean isBatch = t % 2 == 1;
            Tally tally = isBatch ? batch : cancel;
            long started = System.nanoTime();
            long id;
            if (isBatch) {
                id = client.newJobIdOwnedBy(masterPort);
                arm("before-blob-delete", Long.toString(id));
                submitAcknowledged(true, id);
            } else {
                Long owned = running().stream().filter(j -> client.partitionOwnerPort(j.id) == masterPort)
                        .map(j -> j.id).findFirst().orElse(null);
                if (owned == null) {
                    owned = submitAcknowledged(false, client.newJobIdOwnedBy(masterPort)).id;
                }
                id = owned;
                DropInLocalStoreTest.awaitReference(client, id);
                arm("before-blob-delete", Long.toString(id));
                client.cancel(id);
                tracked.get(id).expected = "CANCELED";
            }
            long pid;
            try {
                pid = awaitReached("before-blob-delete", Duration.ofSeconds(120));
            } catch (AssertionError notReached) {
                // a batch job that ended before its move: no blob to delete, so the point is not on its path
                disarm();
                tally.notes.add("job " + id + " never reached the point (ended inline); trial repeated");
                progress("(c) job " + id + " did not reach the point; repeating");
                t--;
                continue;
            }
            if (pid != st().cluster().pid(master)) {
                throw new AssertionError("the job-end seam parked pid " + pid + ", not the master");
            }
            long delay = random.nextInt(200);
            Thread.sleep(delay);
            killAndReplace(master);
            disarm();
            tally.trials++;
            progress("(c) trial " + (t + 1) + "/" + TRIALS + " " + (isBatch ? "batch end" : "cancel") + " of job " + id
                    + ": parked between removal and blob delete, killed " + delay + " ms later");
            audit(tally);
            tally.millis += (System.nanoTime() - started) / 1_000_000;
        }
        assertZeros();
    }

    // ------------------------------------------------------------------------------------------------------- helpers

    Path streamingJob() {
        return FakeJobs.write(jobs(), "stream-3x10", 3, 10, true);
    }

    List<Job> running() {
        return tracked.values().stream().filter(j -> j.expected.equals("RUNNING")).collect(Collectors.toList());
    }

    /** Submits without a crash; the job is tracked as acknowledged. */
    Job submitAcknowledged(boolean batch, long id) {
        Path file = batch ? FakeJobs.write(jobs(), "batch-1x10", 1, 10, false) : streamingJob();
        RecordedSubmit submit = st().client().recorded(file, (batch ? "batch-" : "stream-") + id, id);
        String sha = JobBytesProbe.sha256(submit.jobBytes());
        sent.put(id, sha);
        submit.submit();
        Job job = new Job(id, sha, true, batch ? "FINISHED" : "RUNNING");
        tracked.put(id, job);
        return job;
    }

    void awaitDropInActive() {
        ClusterClient client = st().client();
        ClusterClient.await(() -> client.dropInMetrics().values().stream()
                        .allMatch(m -> m.getOrDefault("active", 0L) == 1), Duration.ofSeconds(90),
                () -> "drop-in not active on every member: " + client.dropInMetrics());
    }

    /**
     * Before a trial: 3 members, the cluster safe, every drop-in active, at most {@link #MAX_RUNNING} running jobs
     * (the oldest are cancelled the ordinary way: entry then blob gone), nothing armed.
     */
    void prepare() {
        ClusterClient client = st().client();
        disarm();
        client.awaitClusterSize(3, Duration.ofSeconds(180));
        ClusterClient.await(client::clusterSafe, Duration.ofSeconds(120), () -> "the cluster is not safe");
        awaitDropInActive();
        List<Job> running = running();
        for (int i = 0; i < running.size() - MAX_RUNNING + 1; i++) {
            Job old = running.get(i);
            client.cancel(old.id);
            old.expected = "CANCELED";
        }
        for (Job j : tracked.values()) {
            if (j.expected.equals("CANCELED") || j.expected.equals("FINISHED")) {
                client.awaitStatus(j.id, j.expected, Duration.ofSeconds(90));
            }
        }
        // ended jobs are done with: keep the tracked set bounded
        tracked.values().removeIf(j -> !j.expected.equals("RUNNING") && !client.runningJobInfo().containsKey(j.id));
    }

    void awaitAllReferences() {
        ClusterClient client = st().client();
        ClusterClient.await(() -> client.runningJobInfo().keySet().stream()
                        .allMatch(id -> {
                            long b = client.storedJobBytes(id);
                            return b < 0 || b < 200;
                        }), Duration.ofSeconds(60),
                () -> "jobs still inline: " + client.runningJobInfo().keySet());
    }

    /** SIGKILL of member {@code index}; once the others dropped it, the same member starts again (same port). */
    void killAndReplace(int index) {
        int before = st().client().members().size();
        st().cluster().kill(index);
        st().client().awaitClusterSize(before - 1, Duration.ofSeconds(60));
        st().cluster().restart(index);
    }

    /**
     * After a trial: every tracked job has its expected status, its bytes as read back are those sent, every
     * reference has its blob, unacknowledged jobs that did register are checked the same way (then cancelled), and
     * once the drop-in's GC ran past its grace period no blob without entry is left.
     */
    void audit(Tally tally) throws IOException {
        ClusterClient client = st().client();
        client.awaitClusterSize(3, Duration.ofSeconds(180));
        // jobs that registered without an acknowledgement (the put landed before the crash)
        for (Job j : tracked.values()) {
            if (!j.acknowledged && j.expected.equals("RUNNING")) {
                boolean registered = client.runningJobInfo().containsKey(j.id);
                String status = safeStatus(j.id);
                if (!registered && !"RUNNING".equals(status)) {
                    j.expected = "ABSENT";
                    tally.notes.add("unacknowledged job " + j.id + " never registered");
                } else {
                    tally.notes.add("unacknowledged job " + j.id + " registered (" + status + ")");
                }
            }
        }
        for (Job j : tracked.values()) {
            if (j.acknowledged) {
                tally.acknowledged.add(j.id);
            }
            if (j.expected.equals("ABSENT")) {
                continue;
            }
            try {
                client.awaitStatus(j.id, j.expected, Duration.ofSeconds(180));
            } catch (AssertionError e) {
                if (j.acknowledged && !j.expected.equals("CANCELED")) {
                    tally.lost++;
                    tally.notes.add("LOST job " + j.id + ": " + e.getMessage());
                    progress("LOST: " + e.getMessage());
                } else {
                    tally.notes.add("job " + j.id + " (" + (j.acknowledged ? "cancelled" : "unacknowledged") + "): "
                            + e.getMessage());
                }
                j.expected = "LOST";
            }
        }
        tally.audits++;
        awaitAllReferences();
        List<Long> live = running().stream().map(j -> j.id).toList();
        Set<Long> mapKeys = new TreeSet<>(client.runningJobInfo().keySet());
        List<Long> probe = new ArrayList<>(mapKeys);
        Map<Long, String> found = client.jobBytes(probe);
        for (long id : live) {
            if (!mapKeys.contains(id) && tracked.get(id).acknowledged) {
                tally.lost++;
                tally.notes.add("LOST job " + id + ": RUNNING but not in engine_runningJobInfo");
            }
        }
        for (Map.Entry<Long, String> e : found.entrySet()) {
            String v = e.getValue();
            if (v.startsWith("broken")) {
                tally.pointersNoBlob++;
                tally.notes.add("job " + e.getKey() + ": " + v);
                progress("POINTER WITHOUT BLOB: job " + e.getKey() + ": " + v);
                continue;
            }
            String sentSha = sent.get(e.getKey());
            if (sentSha == null) {
                tally.notes.add("job " + e.getKey() + " in the map was not submitted by this test");
            } else if (v.startsWith("inline ") || v.startsWith("reference ")) {
                if (!v.endsWith(" " + sentSha)) {
                    tally.torn++;
                    tally.notes.add("TORN job " + e.getKey() + ": " + v + ", sent " + sentSha);
                    progress("TORN: job " + e.getKey());
                }
            }
            if (!tracked.containsKey(e.getKey()) && sentSha != null) {
                tracked.put(e.getKey(), new Job(e.getKey(), sentSha, false, "RUNNING"));
            }
        }
        // unacknowledged but registered jobs are not kept running: cancel them (prepare() waits for the end)
        for (Job j : tracked.values()) {
            if (!j.acknowledged && j.expected.equals("RUNNING") && mapKeys.contains(j.id)) {
                client.cancel(j.id);
                j.expected = "CANCELED";
            }
        }
        // orphans: blobs (and leftovers of interrupted writes) whose job has no entry, once GC ran past its grace
        Set<String> allowed = new TreeSet<>();
        String[] left = {""};
        boolean clean;
        try {
            ClusterClient.await(() -> {
                Set<Long> keys = new TreeSet<>(client.runningJobInfo().keySet());
                allowed.clear();
                keys.forEach(k -> allowed.add(String.format("%016x.jobinfo", k)));
                List<String> extra = storeFiles().stream().filter(f -> !allowed.contains(f)).toList();
                left[0] = extra.toString();
                return extra.isEmpty();
            }, Duration.ofSeconds(40), () -> "");
            clean = true;
        } catch (AssertionError e) {
            clean = false;
        }
        if (!clean) {
            int n = (int) storeFiles().stream().filter(f -> !allowed.contains(f)).count();
            tally.orphans += n;
            tally.notes.add("orphans left after GC: " + left[0]);
            progress("ORPHANS after GC: " + left[0]);
        }
    }

    String safeStatus(long id) {
        try {
            return st().client().status(id);
        } catch (RuntimeException e) {
            return e.toString();
        }
    }

    void arm(String point, String job) throws IOException {
        Files.deleteIfExists(points().resolve("reached-" + point));
        Path tmp = points().resolve(".arm-" + point);
        Files.writeString(tmp, job);
        Files.move(tmp, points().resolve("arm-" + point), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    void disarm() {
        try (Stream<Path> files = Files.list(points())) {
            for (Path p : files.toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until a member parked at {@code point}; returns its pid. */
    long awaitReached(String point, Duration timeout) throws IOException {
        Path reached = points().resolve("reached-" + point);
        ClusterClient.await(() -> Files.exists(reached), timeout, () -> "no member reached " + point);
        return Long.parseLong(Files.readString(reached).trim().split(" ")[0]);
    }

    void assertZeros() {
        for (Tally t : tallies.values()) {
            assertThat(t.lost).as("%s: acknowledged jobs lost; notes %s", t.scenario, t.notes).isZero();
            assertThat(t.torn).as("%s: torn reads; notes %s", t.scenario, t.notes).isZero();
            assertThat(t.pointersNoBlob).as("%s: references without blob; notes %s", t.scenario, t.notes).isZero();
            assertThat(t.orphans).as("%s: orphans after GC; notes %s", t.scenario, t.notes).isZero();
        }
    }

    @AfterAll
    void writeReport() throws IOException {
        for (Tally t : tallies.values()) {
            List<String> notes = new ArrayList<>();
            notes.add(t.audits + " audits" + (t.trials > 0 ? ", ~" + t.millis / t.trials / 1000 + " s per trial" : ""));
            Map<String, Long> counted = t.notes.stream().collect(Collectors.groupingBy(
                    n -> n.replaceAll("[0-9]{6,}", "N"), LinkedHashMap::new, Collectors.counting()));
            counted.forEach((n, c) -> notes.add(c > 1 ? c + " x " + n : n));
            ROWS.add(new ReliabilityRow("seatunnel-dropin", t.scenario, backend(), t.trials,
                    t.acknowledged.size(), t.lost, t.torn, t.pointersNoBlob, t.orphans, String.join("; ", notes)));
        }
        String backends = ROWS.stream().map(ReliabilityRow::backend).distinct()
                .collect(Collectors.joining(", "));
        String md = "# Crash trials on the real SeaTunnel 2.3.8 engine with the drop-in\n\n"
                + "Generated by `seatunnel-it` (`" + getClass().getSimpleName() + "` and the other crash trials of"
                + " this run) on " + Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + ", backends: "
                + backends + "; per backend " + SUBMIT_TRIALS + " submit trials, " + TRIALS + " restore trials, "
                + TRIALS + " job-end trials; seed " + SEED + "; 3 member processes, drop-in GC grace 3 s.\n"
                + "Command: `mvn -B -pl seatunnel-it -am verify -Djobinfo.it.long=true"
                + " -Dtest='DropIn*CrashTrialsTest' -Dsurefire.failIfNoSpecifiedTests=false`\n\n"
                + ReliabilityRow.table(ROWS);
        Files.createDirectories(REPORT.getParent());
        Files.writeString(REPORT, md);
        progress("report: " + REPORT + "\n" + md);
    }
}
