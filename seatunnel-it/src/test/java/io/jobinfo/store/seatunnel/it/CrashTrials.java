package io.jobinfo.store.seatunnel.it;

import io.jobinfo.store.spi.StoreNaming;
import io.jobinfo.store.seatunnel.harness.junit.DropInChecks;
import io.jobinfo.store.seatunnel.dropin.MoverStripes;
import io.jobinfo.store.seatunnel.harness.ClusterClient;
import io.jobinfo.store.seatunnel.harness.ClusterSpec;
import io.jobinfo.store.seatunnel.harness.FakeJobs;
import io.jobinfo.store.seatunnel.harness.JobBytesProbe;
import io.jobinfo.store.seatunnel.harness.RecordedSubmit;
import io.jobinfo.store.seatunnel.harness.SeaTunnelProcessCluster;
import io.jobinfo.store.seatunnel.harness.junit.SeaTunnelClusterExtension;
import io.jobinfo.store.testing.ReliabilityRow;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
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
 * {@link DropInCrashTrialsTest} local, {@link DropInS3CrashTrialsTest} S3, {@link DropInHdfsCrashTrialsTest} HDFS), in
 * rounds, each covering every point at once, as the library's long mode does:
 * <ol>
 *   <li>the master has, at the same time, one submit parked at each of the 4 seam points of a submit (before the
 *   inline put lands, after it before the mover's blob write, after the blob before the reference replace, after the
 *   replace), one cancel and one batch end parked between the entry's removal and the blob's delete (all different
 *   jobs), and one unparked submit in flight; the master is killed ({@code kill -9}) at a uniformly random instant
 *   of that last submit;</li>
 *   <li>the new master parks while it restores the jobs through the store, and is killed in turn once the cluster is
 *   safe again;</li>
 *   <li>then the audit: every acknowledged job RUNNING again (FINISHED, CANCELED for the jobs that ended), its bytes
 *   as read back through the store the bytes the client sent (SHA-256 of {@code JobImmutableInformation}'s Data),
 *   every reference with its blob, and once the drop-in's own GC (grace 3 s) ran, no blob without entry.</li>
 * </ol>
 * A killed member starts again at once (same port; it joins as soon as the others dropped its predecessor). Anomalies
 * are counted against the point of the job they concern; those of the jobs running from earlier rounds, and leftovers
 * no job can be named for, against the restore point (its kill is the last of the round).
 *
 * <p>Precise points use the test-only {@link CrashPointParker} (a {@code DropInStepListener} of this module's test
 * code, on only with {@code -Djobinfo.dropin.test.crash-points}) with one arm file per job. Job ids are drawn so that
 * the master owns every parked job's entry, each job of the round moves on a mover stripe of its own (11 stripes here,
 * {@code jobinfo.dropin.move-threads}) and no job of the round shares a partition thread with the put parked before it
 * lands (which holds that thread).
 *
 * <p>Long mode only ({@code -Djobinfo.it.long=true}). {@code -Djobinfo.it.engine.trials=N} (default
 * {@value #DEFAULT_ROUNDS}) sets the rounds, hence the trials of each point; {@code -Djobinfo.it.engine.minutes=M}
 * starts no round after M minutes (the report shows the rounds that ran). Progress lines go to
 * {@code target/seatunnel-it/crash-trials-progress.log} as they happen. Rows go to
 * {@code target/seatunnel-it/reliability-engine.md} in the table format of integration-tests' reliability report,
 * with the rows of the backends that ran in this JVM and, for the others, those of their latest run in this
 * {@code target} (each backend's rows are kept in {@code reliability-engine-<backend>.rows}): backends may run one at a
 * time, and the last run's report holds them all.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class CrashTrials {

    static final int DEFAULT_ROUNDS = 100;
    /** Rounds, hence trials per point. */
    static final int ROUNDS = Integer.getInteger("jobinfo.it.engine.trials", DEFAULT_ROUNDS);
    /**
     * No round starts after this many minutes of rounds ({@code -Djobinfo.it.engine.minutes}; 0, the default: no bound): a
     * long run on a busy machine then ends with the rounds it ran, reported as usual.
     */
    static final long MAX_MINUTES = Long.getLong("jobinfo.it.engine.minutes", 0);
    /** Streaming jobs kept running between rounds (the oldest are cancelled the ordinary way). */
    static final int MAX_RUNNING = 3;
    /**
     * The drop-in's mover stripes on this cluster: one per job of a round, and more ({@link MoverStripes} places an
     * id).
     */
    static final int MOVE_THREADS = 11;
    /** {@code hazelcast.operation.thread.count} of the harness's members; a partition's thread is its id modulo it. */
    static final int PARTITION_THREADS = 4;
    /** How long a parked thread waits for its kill (a round's parks are all taken before the kill). */
    static final long HOLD_MILLIS = 120_000;
    static final long SEED = Long.getLong("jobinfo.it.seed", System.nanoTime());
    static final String DISABLED = "crash trials on the real engine take about half a minute per round (100 rounds"
            + " per backend); run with -Djobinfo.it.long=true";
    /** Rows of every backend that ran in this JVM, for the one report. */
    static final List<ReliabilityRow> ROWS = new ArrayList<>();
    static final Map<String, String> ROUND_FIGURES = new LinkedHashMap<>();
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
     * The cluster of a test class: 3 drop-in members on {@code storageYaml}, sweep 2 s, drop-in GC grace 3 s,
     * {@value #MOVE_THREADS} mover stripes, the crash-point seam on. The class's working files are wiped first.
     */
    static ClusterSpec spec(String testClass, String storageYaml) {
        Path dir = dir(testClass);
        io.jobinfo.store.seatunnel.harness.junit.TestDirectories.deleteTree(dir);
        try {
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
                        "-Djobinfo.dropin.move-threads=" + MOVE_THREADS,
                        "-Djobinfo.dropin.test.crash-points=" + points(testClass)));
    }

    /** The class's cluster ({@code @RegisterExtension} static field of the subclass). */
    abstract SeaTunnelClusterExtension st();

    /** The backend's name in the report ({@code local}, {@code s3}, {@code hdfs}). */
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

    /** The points of a round; {@link #scenario} is the row's name (the same as in the reports of one point a kill). */
    enum Point {
        RANDOM("master kill -9: at a random instant of the submit", null),
        BEFORE_PUT("master kill -9: mid-submit, before the inline put lands", BeforePutParker.POINT),
        BEFORE_BLOB("master kill -9: mid-submit, after the inline put, before the mover's blob write", "before-blob"),
        BEFORE_REPLACE("master kill -9: mid-submit, after the blob, before the reference replace", "before-replace"),
        AFTER_REPLACE("master kill -9: mid-submit, after the reference replace", "after-replace"),
        RESTORE("master kill -9: during the new master's restore through the store", "resolve"),
        CANCEL("master kill -9: at cancel, after the entry removal, before the blob delete", "before-blob-delete"),
        BATCH_END("master kill -9: at batch end, after the entry removal, before the blob delete", "before-blob-delete");

        final String scenario;
        final String seam;

        Point(String scenario, String seam) {
            this.scenario = scenario;
            this.seam = seam;
        }
    }

    /** A job the test submitted: its id, the SHA-256 of the bytes sent, what its status must be, its point. */
    static final class Job {
        final long id;
        final String sha;
        boolean acknowledged;
        String expected; // RUNNING, FINISHED, CANCELED, ABSENT, LOST
        Point point;

        Job(long id, String sha, boolean acknowledged, String expected, Point point) {
            this.id = id;
            this.sha = sha;
            this.acknowledged = acknowledged;
            this.expected = expected;
            this.point = point;
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
        /** Acknowledged jobs that SeaTunnel itself failed in its redeploy loop after a master switch. */
        int engineFailed;
        /** Jobs that SeaTunnel's redeploy loop left RUNNING for good (a cancel does not end them). */
        int engineStuck;
        /** Cancelled jobs that SeaTunnel ended FAILED (see {@link #cancelEndedFailed}). */
        int cancelEndedFailed;
        final List<String> notes = new ArrayList<>();

        Tally(String scenario) {
            this.scenario = scenario;
        }
    }

    final Map<Long, Job> tracked = new LinkedHashMap<>();
    final Map<Long, String> sent = new TreeMap<>();
    final Map<Point, Tally> tallies = new EnumMap<>(Point.class);
    long submitWindowMillis = 3000;
    /** From a put's send to its park at {@code before-put}: a running estimate, for the kill's instant. */
    long putParkMillis = 150;
    /** When the master died, in ms after the free submit's send, one per round. */
    final List<Long> killInstants = new ArrayList<>();
    long roundMillis;
    int rounds;

    Tally tally(Point point) {
        return tallies.computeIfAbsent(point, p -> new Tally(p.scenario));
    }

    /** The tally a job's anomalies count against: its point, or the restore's for jobs of earlier rounds. */
    Tally tallyOf(long jobId) {
        Job j = tracked.get(jobId);
        return tally(j == null || j.point == null ? Point.RESTORE : j.point);
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

    // ------------------------------------------------------------------------------------------------------- rounds

    @Test
    void killTheMasterWithEveryPointParkedThenTheNewMasterMidRestore() throws Exception {
        awaitDropInActive();
        // the point before the inline put lands is the trials' own interceptor's (the drop-in puts none on the map)
        st().client().runningJobInfo().addInterceptor(new BeforePutParker());
        calibrate();
        for (Point p : Point.values()) {
            tally(p);
        }
        long started = System.nanoTime();
        for (int r = 0; r < ROUNDS; r++) {
            if (MAX_MINUTES > 0 && System.nanoTime() - started > TimeUnit.MINUTES.toNanos(MAX_MINUTES)) {
                progress("stopped after " + r + " rounds: -Djobinfo.it.engine.minutes=" + MAX_MINUTES + " reached");
                break;
            }
            long t0 = System.nanoTime();
            prepare();
            long prepared = System.nanoTime();
            String summary = round();
            long killed = System.nanoTime();
            audit();
            long millis = (System.nanoTime() - t0) / 1_000_000;
            roundMillis += millis;
            rounds++;
            progress("round " + (r + 1) + "/" + ROUNDS + " " + millis / 1000 + " s (prepare "
                    + (prepared - t0) / 1_000_000 + " ms, parks and kills " + (killed - prepared) / 1_000_000
                    + " ms, audit " + (System.nanoTime() - killed) / 1_000_000 + " ms): " + summary);
        }
        assertZeros();
    }

    /**
     * One plain submit, timed from the send until the reference is in place: the window of the random-instant kills.
     */
    private void calibrate() {
        ClusterClient client = st().client();
        long firstId = client.newJobId();
        RecordedSubmit first = client.recorded(streamingJob(), "stream-" + firstId, firstId);
        sent.put(firstId, JobBytesProbe.sha256(first.jobBytes()));
        long t0 = System.nanoTime();
        first.submit();
        long ack = (System.nanoTime() - t0) / 1_000_000;
        tracked.put(firstId, new Job(firstId, sent.get(firstId), true, "RUNNING", null));
        ClusterClient.await(() -> {
            long b = client.storedJobBytes(firstId);
            return b > 0 && b < 200;
        }, Duration.ofSeconds(60), () -> "the calibration job was not moved");
        long moved = (System.nanoTime() - t0) / 1_000_000;
        submitWindowMillis = Math.max(500, moved * 13 / 10);
        progress(getClass().getSimpleName() + " seed " + SEED + "; calibration: acknowledged after " + ack
                + " ms, reference in place after ~" + moved + " ms; random kills fall in [0, " + submitWindowMillis
                + "] ms after the send");
    }

    /** A submit of the round, sent on a thread of its own. */
    private record InFlight(Job job, CompletableFuture<Void> future) {
    }

    /** The job ids of a round: on the master, each on a mover stripe of its own, none on the parked put's thread. */
    private final class Ids {
        final int masterPort;
        final Set<Integer> stripes = new HashSet<>();
        int parkedThread = -1;

        Ids(int masterPort) {
            this.masterPort = masterPort;
        }

        boolean fits(long id) {
            ClusterClient client = st().client();
            return client.partitionOwnerPort(id) == masterPort && !stripes.contains(stripe(id))
                    && client.partitionId(id) % PARTITION_THREADS != parkedThread;
        }

        long take(long id) {
            stripes.add(stripe(id));
            return id;
        }

        long fresh() {
            ClusterClient client = st().client();
            for (int i = 0; i < 100; i++) {
                long id = client.newJobIdOwnedBy(masterPort);
                if (fits(id)) {
                    return take(id);
                }
            }
            throw new IllegalStateException("no job id fits the round's stripes " + stripes + " and thread "
                    + parkedThread);
        }

        /** Fixes the parked put's partition thread; the ids taken before must not be on it. */
        long parkedPut() {
            ClusterClient client = st().client();
            for (int i = 0; i < 100; i++) {
                long id = client.newJobIdOwnedBy(masterPort);
                int thread = client.partitionId(id) % PARTITION_THREADS;
                boolean clash = false;
                for (long taken : takenIds) {
                    clash |= client.partitionId(taken) % PARTITION_THREADS == thread;
                }
                if (!clash && !stripes.contains(stripe(id))) {
                    parkedThread = thread;
                    return take(id);
                }
            }
            throw new IllegalStateException("no job id for the parked put off the threads of " + takenIds);
        }

        final List<Long> takenIds = new ArrayList<>();
    }

    /** The drop-in's own stripe of a job id (a copy of its formula went stale once: jobs then shared a stripe). */
    static int stripe(long jobId) {
        return MoverStripes.of(jobId, MOVE_THREADS);
    }

    /** One round (see the class comment); returns a line for the progress log. */
    private String round() throws Exception {
        ClusterClient client = st().client();
        int masterPort = client.masterPort();
        int master = st().cluster().indexOfPort(masterPort);
        long masterPid = st().cluster().pid(master);
        Ids ids = new Ids(masterPort);
        // the put parked before it lands holds its partition thread: its id first, the others off that thread (its
        // stripe is free for another job: its move comes after the kill)
        long putId = ids.parkedPut();
        ids.stripes.remove(stripe(putId));
        List<InFlight> submits = new ArrayList<>();
        Map<Point, Long> parked = new EnumMap<>(Point.class);

        // job end: a batch job (ends by itself after its move) and a cancel of a running job, parked after the removal
        long batchId = ids.fresh();
        ids.takenIds.add(batchId);
        arm(Point.BATCH_END.seam + "-" + batchId);
        Job batch = submitAcknowledged(true, batchId);
        batch.point = Point.BATCH_END;
        Long cancelId = null;
        for (Job j : running()) {
            if (j.point == null && ids.fits(j.id) && client.storedJobBytes(j.id) > 0
                    && client.storedJobBytes(j.id) < 200) {
                cancelId = ids.take(j.id);
                break;
            }
        }
        if (cancelId == null) {
            cancelId = ids.fresh();
            submitAcknowledged(false, cancelId);
            DropInChecks.awaitReference(client, cancelId);
        }
        ids.takenIds.add(cancelId);
        arm(Point.CANCEL.seam + "-" + cancelId);
        client.cancel(cancelId);
        Job cancelled = tracked.get(cancelId);
        cancelled.expected = "CANCELED";
        cancelled.point = Point.CANCEL;
        parked.put(Point.CANCEL, cancelId);

        // the submit seams after the put: acknowledged as soon as the put landed, parked in the mover
        for (Point p : List.of(Point.BEFORE_BLOB, Point.BEFORE_REPLACE, Point.AFTER_REPLACE)) {
            long id = ids.fresh();
            ids.takenIds.add(id);
            arm(p.seam + "-" + id);
            submits.add(send(p, id));
            parked.put(p, id);
        }
        for (Map.Entry<Point, Long> e : parked.entrySet()) {
            expectParkedOnMaster(e.getKey().seam + "-" + e.getValue(), masterPid, Duration.ofSeconds(90));
        }
        boolean batchParked;
        try {
            expectParkedOnMaster(Point.BATCH_END.seam + "-" + batchId, masterPid, Duration.ofSeconds(60));
            batchParked = true;
        } catch (NotReached notReached) {
            // a batch job that ended before its move has no blob to delete: the point is not on its path
            Files.deleteIfExists(points().resolve("arm-" + Point.BATCH_END.seam + "-" + batchId));
            batchParked = Files.exists(points().resolve("reached-" + Point.BATCH_END.seam + "-" + batchId));
            if (!batchParked) {
                tally(Point.BATCH_END).notes.add("round without this point: job " + batchId
                        + " never reached it (ended inline)");
                batch.point = null;
            }
        }
        if (batchParked) {
            parked.put(Point.BATCH_END, batchId);
        }

        // the put before it lands (the id is not known there: the arm names the partition thread of its job, which
        // no other job of the round uses) and a free submit, killed at a uniformly random instant of it. The parked
        // put holds a partition thread: whatever touches it waits for the kill (the free submit too, and a map's size
        // or a fresh id of the master's: the free submit is drawn and built before). So the put is sent so as to park
        // at the chosen instant, and the kill follows its park at once: the free submit runs undisturbed until then.
        long randomId = ids.fresh();
        Prepared free = build(Point.RANDOM, randomId);
        Prepared put = build(Point.BEFORE_PUT, putId);
        arm(Point.BEFORE_PUT.seam, "thread=" + ids.parkedThread);
        long delay = (long) (random.nextDouble() * submitWindowMillis);
        long lead = delay - putParkMillis;
        long putSent;
        long freeSent;
        if (lead <= 0) {
            putSent = System.nanoTime();
            submits.add(put.start());
            Thread.sleep(-lead);
            freeSent = System.nanoTime();
            submits.add(free.start());
        } else {
            freeSent = System.nanoTime();
            submits.add(free.start());
            Thread.sleep(lead);
            putSent = System.nanoTime();
            submits.add(put.start());
        }
        Path putReached = points().resolve("reached-" + Point.BEFORE_PUT.seam);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(putReached)) {
            if (System.nanoTime() > deadline) {
                throw new NotReached("no member reached " + Point.BEFORE_PUT.seam);
            }
            Thread.sleep(2);
        }
        long parkedAt = System.nanoTime();
        putParkMillis = (putParkMillis * 3 + (parkedAt - putSent) / 1_000_000) / 4;
        expectParkedOnMaster(Point.BEFORE_PUT.seam, masterPid, Duration.ofSeconds(1));
        parked.put(Point.BEFORE_PUT, putId);
        Map<Long, Boolean> ackedAtKill = new TreeMap<>();
        for (InFlight f : submits) {
            ackedAtKill.put(f.job.id, acked(f.future));
        }
        st().cluster().kill(master);
        long killedAt = (System.nanoTime() - freeSent) / 1_000_000;
        killInstants.add(killedAt);
        st().cluster().restart(master);
        for (Point p : parked.keySet()) {
            tally(p).trials++;
        }
        tally(Point.RANDOM).trials++;

        // second phase: the new master parks while it restores the jobs through the store, killed in turn
        arm(Point.RESTORE.seam);
        long restorePid = awaitReached(Point.RESTORE.seam, Duration.ofSeconds(90));
        int second = st().cluster().indexOfPort(client.masterPort());
        if (second == master || restorePid != st().cluster().pid(second)) {
            throw new AssertionError("the restore seam parked pid " + restorePid + ", not the new master (member "
                    + second + ")");
        }
        // backup-count 1: a second loss is survivable only once the replacement joined and the backups are rebuilt
        client.awaitClusterSize(3, Duration.ofSeconds(120));
        ClusterClient.await(client::clusterSafe, Duration.ofSeconds(90), () -> "cluster not safe after a kill");
        long restoreDelay = random.nextInt(500);
        Thread.sleep(restoreDelay);
        int restoring = running().size();
        st().cluster().kill(second);
        st().cluster().restart(second);
        tally(Point.RESTORE).trials++;
        disarm();

        // the submits' answers (a killed master's submits fail, or are answered by the next one)
        StringBuilder how = new StringBuilder();
        for (InFlight f : submits) {
            boolean acknowledged;
            try {
                f.future.get(180, TimeUnit.SECONDS);
                acknowledged = true;
            } catch (Exception e) {
                acknowledged = false;
            }
            f.job.acknowledged = acknowledged;
            boolean early = ackedAtKill.get(f.job.id);
            String note = !acknowledged ? "kill before the ack (submit failed)" : early ? "kill after the ack"
                    : "kill before the ack, acknowledged anyway (answered by the new master)";
            tally(f.job.point).notes.add(note);
            how.append(f.job.point).append(early ? " acked" : acknowledged ? " acked later" : " failed").append("; ");
        }
        tally(Point.RESTORE).notes.add(restoring + " running jobs restored twice (the second master killed"
                + " mid-restore)");
        return "parked " + parked.keySet() + ", killed " + killedAt + " ms into the free submit (drawn " + delay
                + " ms); " + how
                + "the new master parked restoring, killed " + restoreDelay + " ms after the cluster was safe; "
                + restoring + " running jobs";
    }

    /** Sends a job on a thread of its own; the job is tracked as unacknowledged until the answer comes. */
    private InFlight send(Point point, long id) {
        return build(point, id).start();
    }

    /** A submit built (its bytes known, tracked as unacknowledged), not sent yet. */
    private record Prepared(Job job, RecordedSubmit submit) {
        InFlight start() {
            return new InFlight(job, CompletableFuture.runAsync(submit::submit));
        }
    }

    private Prepared build(Point point, long id) {
        RecordedSubmit submit = st().client().recorded(streamingJob(), "crash-" + id, id);
        String sha = JobBytesProbe.sha256(submit.jobBytes());
        sent.put(id, sha);
        Job job = new Job(id, sha, false, "RUNNING", point);
        tracked.put(id, job);
        return new Prepared(job, submit);
    }

    private static boolean acked(CompletableFuture<Void> sent) {
        return sent.isDone() && !sent.isCompletedExceptionally();
    }

    /** A seam no member reached in time. */
    static final class NotReached extends AssertionError {
        NotReached(String message) {
            super(message);
        }
    }

    /** Waits until a member parked at {@code name}; fails unless it is the master. */
    private void expectParkedOnMaster(String name, long masterPid, Duration timeout) throws IOException {
        long pid = awaitReached(name, timeout);
        if (pid != masterPid) {
            throw new AssertionError("the seam " + name + " parked pid " + pid + ", not the master (pid " + masterPid
                    + ")");
        }
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
        Job job = new Job(id, sha, true, batch ? "FINISHED" : "RUNNING", null);
        tracked.put(id, job);
        return job;
    }

    void awaitDropInActive() {
        ClusterClient client = st().client();
        client.awaitDropInActive(Duration.ofSeconds(90));
    }

    /**
     * Before a round: 3 members, the cluster safe, every drop-in active, at most {@link #MAX_RUNNING} running jobs
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
                try {
                    client.awaitStatus(j.id, j.expected, Duration.ofSeconds(90));
                } catch (AssertionError e) {
                    if (cancelEndedFailed(j, e)) {
                        continue;
                    }
                    if (!refusedRedeploy(j.id)) {
                        throw e;
                    }
                    // SeaTunnel's redeploy loop left the job RUNNING with a pipeline that never comes back, and a
                    // cancel does not end it: counted against its point, left in the map (its entry and blob are
                    // audited with every other entry's), no longer waited for
                    Tally t = tally(j.point == null ? Point.RESTORE : j.point);
                    t.engineStuck++;
                    t.notes.add("job N stuck in SeaTunnel 2.3.8's redeploy loop (\"" + REDEPLOY_LOOP_CAUSE
                            + "\"), its cancel never completes; its entry and blob kept and audited");
                    progress("ENGINE REDEPLOY LOOP: job " + j.id + " does not end on cancel: " + e.getMessage());
                    j.expected = "STUCK";
                }
            }
        }
        // ended jobs are done with: keep the tracked set bounded
        tracked.values().removeIf(j -> !j.expected.equals("RUNNING") && !j.expected.equals("STUCK")
                && !client.runningJobInfo().containsKey(j.id));
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

    /**
     * After a round: every tracked job has its expected status, its bytes as read back are those sent, every
     * reference has its blob, unacknowledged jobs that did register are checked the same way (then cancelled), and
     * once the drop-in's GC ran past its grace period no blob without entry is left. Each anomaly counts against the
     * point of its job ({@link #tallyOf}); every point's row counts the audit.
     */
    void audit() throws IOException {
        ClusterClient client = st().client();
        client.awaitClusterSize(3, Duration.ofSeconds(180));
        // jobs that registered without an acknowledgement (the put landed before the crash)
        for (Job j : tracked.values()) {
            if (!j.acknowledged && j.expected.equals("RUNNING")) {
                boolean registered = client.runningJobInfo().containsKey(j.id);
                String status = safeStatus(j.id);
                if (!registered && !"RUNNING".equals(status)) {
                    j.expected = "ABSENT";
                    tallyOf(j.id).notes.add("unacknowledged job " + j.id + " never registered");
                } else {
                    tallyOf(j.id).notes.add("unacknowledged job " + j.id + " registered (" + status + ")");
                }
            }
        }
        for (Job j : tracked.values()) {
            if (j.acknowledged) {
                tallyOf(j.id).acknowledged.add(j.id);
            }
            if (j.expected.equals("ABSENT") || j.expected.equals("LOST") || j.expected.equals("STUCK")) {
                continue;
            }
            try {
                client.awaitStatus(j.id, j.expected, Duration.ofSeconds(180));
            } catch (AssertionError e) {
                if (j.acknowledged && j.expected.equals("RUNNING") && e.getMessage().contains("ended FAILED")
                        && refusedRedeploy(j.id)) {
                    // SeaTunnel's own redeploy loop (see REDEPLOY_TEXT): counted and bounded, not the store's loss
                    tallyOf(j.id).engineFailed++;
                    tallyOf(j.id).notes.add("acknowledged job N FAILED by SeaTunnel 2.3.8's redeploy loop after the"
                            + " restore kill (\"" + REDEPLOY_LOOP_CAUSE + "\"; its entry and blob audited as ended)");
                    progress("ENGINE REDEPLOY LOOP: job " + j.id + " FAILED");
                    j.expected = "FAILED";
                    continue;
                }
                if (cancelEndedFailed(j, e)) {
                    continue;
                }
                if (j.acknowledged && !j.expected.equals("CANCELED")) {
                    tallyOf(j.id).lost++;
                    tallyOf(j.id).notes.add("LOST job " + j.id + ": " + e.getMessage());
                    progress("LOST: " + e.getMessage());
                } else {
                    tallyOf(j.id).notes.add("job " + j.id + " (" + (j.acknowledged ? "cancelled" : "unacknowledged")
                            + "): " + e.getMessage());
                }
                j.expected = "LOST";
            }
        }
        for (Tally t : tallies.values()) {
            t.audits++;
        }
        awaitAllReferences();
        List<Long> live = running().stream().map(j -> j.id).toList();
        Set<Long> mapKeys = new TreeSet<>(client.runningJobInfo().keySet());
        List<Long> probe = new ArrayList<>(mapKeys);
        Map<Long, String> found = client.jobBytes(probe);
        for (long id : live) {
            if (!mapKeys.contains(id) && tracked.get(id).acknowledged) {
                tallyOf(id).lost++;
                tallyOf(id).notes.add("LOST job " + id + ": RUNNING but not in engine_runningJobInfo");
                progress("LOST: job " + id + " RUNNING but not in engine_runningJobInfo");
            }
        }
        for (Map.Entry<Long, String> e : found.entrySet()) {
            String v = e.getValue();
            Tally tally = tallyOf(e.getKey());
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
                tracked.put(e.getKey(), new Job(e.getKey(), sentSha, false, "RUNNING", null));
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
        List<String> left = new ArrayList<>();
        boolean clean;
        try {
            ClusterClient.await(() -> {
                Set<Long> keys = new TreeSet<>(client.runningJobInfo().keySet());
                allowed.clear();
                keys.forEach(k -> allowed.add(StoreNaming.blobName(k)));
                left.clear();
                storeFiles().stream().filter(f -> !allowed.contains(f)).forEach(left::add);
                return left.isEmpty();
            }, Duration.ofSeconds(40), () -> "");
            clean = true;
        } catch (AssertionError e) {
            clean = false;
        }
        if (!clean) {
            for (String f : left) {
                Tally tally = tally(Point.RESTORE);
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9a-f]{16})\\.jobinfo").matcher(f);
                if (m.find()) {
                    tally = tallyOf(Long.parseUnsignedLong(m.group(1), 16));
                }
                tally.orphans++;
                tally.notes.add("orphan left after GC: " + f);
            }
            progress("ORPHANS after GC: " + left);
        }
        // the jobs still running are of earlier rounds from now on
        tracked.values().forEach(j -> j.point = null);
    }

    /**
     * A cancelled job that SeaTunnel ended FAILED rather than CANCELED: its checkpoint coordinator, cancelled while it
     * completed a checkpoint, fails the pipeline (2.3.8's {@code CheckpointCoordinator.completePendingCheckpoint}: a
     * NullPointerException on the pending checkpoint the cancel removed). The job ended, its entry goes and its blob
     * with it (the orphan audit checks that); counted against the job's point and bounded ({@link #assertZeros}).
     */
    boolean cancelEndedFailed(Job j, AssertionError e) {
        if (!j.expected.equals("CANCELED") || !e.getMessage().contains("ended FAILED while awaiting CANCELED")) {
            return false;
        }
        Tally t = tallyOf(j.id);
        t.cancelEndedFailed++;
        t.notes.add("cancelled job N ended FAILED, not CANCELED (SeaTunnel's checkpoint coordinator failed the"
                + " pipeline during the cancel)");
        progress("cancelled job " + j.id + " ended FAILED: " + e.getMessage().substring(0,
                Math.min(400, e.getMessage().length())));
        j.expected = "FAILED";
        return true;
    }

    /**
     * Whether a member's log (any run of it) shows SeaTunnel refusing to deploy a task group of job {@code id} that
     * the member already runs: the signature of SeaTunnel 2.3.8's redeploy loop after a master switch.
     */
    boolean refusedRedeploy(long id) {
        String job = "jobId=" + id + ",";
        try (Stream<Path> logs = Files.walk(st().cluster().baseDir(), 2)) {
            for (Path log : logs.filter(p -> p.getFileName().toString().startsWith("member.log")).toList()) {
                try (Stream<String> lines = Files.lines(log, java.nio.charset.StandardCharsets.ISO_8859_1)) {
                    if (lines.anyMatch(l -> l.contains(job) && l.contains(REDEPLOY_LOOP_CAUSE))) {
                        return true;
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return false;
    }

    String safeStatus(long id) {
        try {
            return st().client().status(id);
        } catch (RuntimeException e) {
            return e.toString();
        }
    }

    /**
     * Arms {@code arm-<name>} (a per-job name, or a step's for any job) with a hold of {@link #HOLD_MILLIS} and the
     * {@link CrashPointParker}'s other words ({@code thread=<n>}).
     */
    void arm(String name, String... words) throws IOException {
        Files.deleteIfExists(points().resolve("reached-" + name));
        Path tmp = points().resolve(".arm-" + name);
        Files.writeString(tmp, "* hold=" + HOLD_MILLIS + (words.length == 0 ? "" : " " + String.join(" ", words)));
        Files.move(tmp, points().resolve("arm-" + name), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
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
        try {
            ClusterClient.await(() -> Files.exists(reached), timeout, () -> "no member reached " + point);
        } catch (AssertionError e) {
            throw new NotReached(e.getMessage());
        }
        return Long.parseLong(Files.readString(reached).trim().split(" ")[0]);
    }

    void assertZeros() {
        int engine = tallies.values().stream().mapToInt(t -> t.engineFailed + t.engineStuck).sum();
        assertThat(engine).as("jobs failed or stuck by SeaTunnel's redeploy loop in %d rounds (bound: one in %d"
                + " rounds)", rounds, ENGINE_FAILED_ONE_IN).isLessThanOrEqualTo(Math.max(1, rounds
                / ENGINE_FAILED_ONE_IN));
        int failedCancels = tallies.values().stream().mapToInt(t -> t.cancelEndedFailed).sum();
        assertThat(failedCancels).as("cancelled jobs SeaTunnel ended FAILED in %d rounds (bound: one in %d rounds)",
                rounds, FAILED_CANCEL_ONE_IN).isLessThanOrEqualTo(Math.max(1, rounds / FAILED_CANCEL_ONE_IN));
        for (Tally t : tallies.values()) {
            assertThat(t.lost).as("%s: acknowledged jobs lost; notes %s", t.scenario, t.notes).isZero();
            assertThat(t.torn).as("%s: torn reads; notes %s", t.scenario, t.notes).isZero();
            assertThat(t.pointersNoBlob).as("%s: references without blob; notes %s", t.scenario, t.notes).isZero();
            assertThat(t.orphans).as("%s: orphans after GC; notes %s", t.scenario, t.notes).isZero();
        }
    }

    @AfterAll
    void writeReport() throws IOException {
        String perRound = rounds == 0 ? "no round" : "~" + roundMillis / rounds / 1000 + " s per round";
        ROUND_FIGURES.put(backend(), rounds + " rounds, " + perRound);
        if (!killInstants.isEmpty()) {
            java.util.LongSummaryStatistics st = killInstants.stream().mapToLong(Long::longValue).summaryStatistics();
            long early = killInstants.stream().filter(ms -> ms < submitWindowMillis / 3).count();
            long late = killInstants.stream().filter(ms -> ms >= submitWindowMillis * 2 / 3).count();
            tally(Point.RANDOM).notes.add(0, "kills " + st.getMin() + ".." + st.getMax() + " ms (mean "
                    + Math.round(st.getAverage()) + ") after the send, window " + submitWindowMillis + " ms: " + early
                    + " in its first third, " + late + " in its last");
        }
        List<ReliabilityRow> mine = new ArrayList<>();
        for (Tally t : tallies.values()) {
            List<String> notes = new ArrayList<>();
            notes.add(t.audits + " audits");
            Map<String, Long> counted = t.notes.stream().collect(Collectors.groupingBy(
                    n -> n.replaceAll("[0-9]{6,}", "N").replaceAll("[0-9a-f]{16}\\.jobinfo", "N.jobinfo")
                            .replaceAll("^[0-9]+ running jobs", "N running jobs"),
                    LinkedHashMap::new, Collectors.counting()));
            counted.forEach((n, c) -> notes.add(c > 1 ? c + " x " + n : n));
            mine.add(new ReliabilityRow("seatunnel-dropin", t.scenario, backend(), t.trials,
                    t.acknowledged.size(), t.lost, t.torn, t.pointersNoBlob, t.orphans, String.join("; ", notes)));
        }
        ROWS.addAll(mine);
        // this backend's rows also go to a file of their own, so that backends run one at a time (a long run each)
        // make one report: the rows of a backend that did not run in this JVM come from its latest file
        String stamp = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        String body = ReliabilityRow.table(mine);
        Files.createDirectories(REPORT.getParent());
        Files.writeString(rowsFile(backend()), backend() + " (" + ROUND_FIGURES.get(backend()) + ", seed " + SEED
                + ", " + stamp + ")\n" + body.substring(body.indexOf('\n', body.indexOf('\n') + 1) + 1));
        StringBuilder rows = new StringBuilder(ReliabilityRow.table(List.of()));
        List<String> backendsRun = new ArrayList<>();
        for (String b : List.of("local", "s3", "hdfs")) {
            Path f = rowsFile(b);
            if (Files.isRegularFile(f)) {
                String text = Files.readString(f);
                backendsRun.add(text.substring(0, text.indexOf('\n'))
                        + (ROUND_FIGURES.containsKey(b) ? "" : ", an earlier run"));
                rows.append(text.substring(text.indexOf('\n') + 1));
            }
        }
        String backends = String.join(", ", backendsRun);
        String md = "# Crash trials on the real SeaTunnel 2.3.8 engine with the drop-in\n\n"
                + "Generated by `seatunnel-it` (`" + getClass().getSimpleName() + "` and the other crash trials of"
                + " this run) on " + Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + "; backends: "
                + backends + "; 3 member processes, drop-in GC grace 3 s, "
                + MOVE_THREADS + " mover stripes.\n"
                + "Command: `mvn -B -pl seatunnel-it -am verify -Djobinfo.it.long=true -Dseatunnel.it.forks=1"
                + " -Dtest='DropIn*CrashTrialsTest' -Dsurefire.failIfNoSpecifiedTests=false"
                + " -Djobinfo.it.engine.trials=" + ROUNDS + "` (one backend: `-Dtest=DropInCrashTrialsTest`,"
                + " `DropInS3CrashTrialsTest`, `DropInHdfsCrashTrialsTest`)\n\n"
                + ROUNDS_TEXT + "\n\n"
                + rows + "\n" + REDEPLOY_TEXT + "\n";
        Files.writeString(REPORT, md);
        progress("report: " + REPORT + "\n" + md);
    }

    /** The rows of one backend's latest run ({@code target/seatunnel-it/reliability-engine-<backend>.rows}). */
    static Path rowsFile(String backend) {
        return REPORT.resolveSibling("reliability-engine-" + backend + ".rows");
    }

    /** How a round works, for the report. */
    static final String ROUNDS_TEXT = """
            Each round is one kill of the master with every point of a submit and of a job's end taken at once (as the \
            library's long mode does): the master has one submit parked at each of the 4 seams of a submit (before \
            the inline put lands; after it, before the mover's blob write; after the blob, before the reference \
            replace; after the replace), one cancel and one batch end parked between the entry's removal and the \
            blob's delete, and one unparked submit in flight, killed at a uniformly random instant of it. The new \
            master then parks while it restores the jobs through the store and is killed in turn once the cluster is \
            safe again: the restore row's trials. The killed members start again at once. Then the audit: every \
            acknowledged job RUNNING again (FINISHED, CANCELED for the jobs that ended), its bytes as read back \
            through the store SHA-256-equal to those sent, every reference with its blob, no blob without entry once \
            the drop-in's GC ran. An anomaly counts against the point of the job it concerns; those of jobs running \
            from earlier rounds, and leftovers no job can be named for, against the restore row. A trial is a round \
            in which that point was taken (a batch job that ends before its move does not reach its point; noted). \
            Two outcomes of SeaTunnel's own are counted in the notes and bounded, not taken for the store's: a \
            cancelled job that ends FAILED instead of CANCELED (2.3.8's checkpoint coordinator, cancelled while it \
            completes a checkpoint, fails the pipeline: a NullPointerException in \
            `CheckpointCoordinator.completePendingCheckpoint`; at most one in 10 rounds), and a job caught in the \
            redeploy loop explained below (at most one in 20 rounds); their entries and blobs are audited as any \
            other's.""";

    /** What SeaTunnel 2.3.8's worker answers when a task group it runs is deployed again. */
    static final String REDEPLOY_LOOP_CAUSE = "already exists";
    /** The bound on jobs SeaTunnel's redeploy loop may fail: one in this many rounds. */
    static final int ENGINE_FAILED_ONE_IN = 20;
    /** The bound on cancelled jobs SeaTunnel ends FAILED: one in this many rounds. */
    static final int FAILED_CANCEL_ONE_IN = 10;

    /** The redeploy loop seen once on S3, explained (for the report). */
    static final String REDEPLOY_TEXT = """
            **The restored job once seen stuck in SeaTunnel's redeploy loop on S3** is SeaTunnel 2.3.8's doing, not \
            the drop-in's. When a master dies while one of a job's task groups is `DEPLOYING` in \
            `engine_runningJobState` (between `PhysicalVertex.makeTaskGroupDeploy()` and the worker's answer: a window \
            every pipeline deploy opens, at a submit and whenever a new master redeploys the pipelines whose tasks \
            died with the old one) and the worker already runs the task, the next master does not repair that state: \
            `PhysicalVertex.initStateFuture` asks the worker, finds the task executing and keeps `DEPLOYING`; \
            `SubPlan.restorePipelineState` calls `restoreExecutionState`, which deploys it again; the worker refuses \
            (`TaskExecutionService.deployTask`: `TaskGroupLocation ... already exists`); the vertex goes FAILING then \
            FAILED with no cancel sent to the worker, so the first deploy keeps running there; the pipeline fails and \
            `SubPlan` restores it every `job.retry.interval.seconds` (3 s; at most `job.retry.times`, 3, per job \
            master, and a further master switch starts the count again), each redeploy meeting the same running \
            task. The job reports RUNNING all along. `StockEngineRedeployLoopTest` (the stock engine, no drop-in: it \
            writes the state a master killed in that window leaves, then kills the master) saw both endings: refused \
            redeploys 3 s apart (3 in one run, 4 in another) with the job RUNNING after them; or one refused \
            redeploy and then nothing \
            (the tasks' ends reached the pipeline before its state process had started, as the log's "state process \
            is not start" shows, and no thread works on it any more, as a thread dump shows), the job RUNNING with \
            none of its tasks running but the orphan, for as long as it was watched (2 and 4 minutes in two \
            runs). That is "stuck". In \
            these trials the window is the restore kill: the new master restores every job on a thread of its own \
            (`CoordinatorService.restoreAllRunningJobFromMasterNodeSwitch`), so while one job's read is parked at \
            `resolve`, the others redeploy the pipelines whose tasks died with the first master, and the second kill \
            can land in a deploy. The drop-in is not on that path: it turns the reference into the job's bytes when \
            `JobMaster.init` deserializes the job, before any pipeline is deployed, and never touches \
            `engine_runningJobState`; a slower store read (S3, served by S3Proxy in the test JVM on 2 shared cores) \
            only shifts when a restore's deploys happen relative to the kill, which is why it showed on S3. Upstream: \
            apache/seatunnel#10568, fixed after 2.3.8 by #10567 (a deploy of a task group the worker already runs is \
            accepted). The trials recognise such a job by the worker's refusal in the member logs: one that ends \
            FAILED, or that a cancel never ends, is counted in its row's notes, not as lost (its entry and blob are \
            audited like any other), and the run fails if there is more than one in 20 rounds.""";
}
