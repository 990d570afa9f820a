package io.jobinfo.store.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.ops.GcReport;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.testing.ReliabilityRow;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Issue 16, part 1: the long mode of {@link MasterFailoverTest} (runs only with {@code -Djobinfo.it.long=true}; the
 * default build runs {@link MasterFailoverTest} instead): at least {@code jobinfo.it.long.trials} (default 100)
 * trials of every crash point on every backend, with random timing inside each point.
 *
 * <p>One round, on a cluster of 3 data members (member JVMs, {@link MemberMain}) plus up to 3 standbys:
 * <ol>
 *   <li><b>mid-submit</b>: the master has one submit parked at each crash point at once: inside the blob write
 *   after a random number {@code k} of the blob's bytes were handed to the real store ({@link ParkingStore});
 *   after the blob and before the pointer; after the pointer and before the acknowledgement. Two more submits are
 *   then sent without parking and the master is killed ({@code kill -9}) after a random 0-30 ms, so that those two
 *   are cut at random stages. Any {@code ACK} that reached the test before the kill is an acknowledged job. A
 *   standby is promoted (the replacement member), the next master takes over and the test audits map and store
 *   directly: every acknowledged job present and byte-identical, no pointer without its blob.</li>
 *   <li><b>during restore</b>: that new master restores, and is killed once a random number of jobs (between 1 and
 *   all but one) were restored; the next one takes over, restores everything (SHA-256 of each job compared with
 *   what was submitted) and the test audits again.</li>
 *   <li><b>idle</b>: one more acknowledged submit, a random pause, then the master is killed with nothing in
 *   flight; the next one takes over, restores and is audited.</li>
 *   <li>The oldest jobs are removed through the registry (the job end) until at most {@value #WORKING_SET} remain
 *   registered, so a restore costs the same in the last round as in the first.</li>
 * </ol>
 * A standby is a member JVM already in the cluster as a Hazelcast lite member (no partitions); promoting it makes
 * it a data member that takes its share of the partitions, as a member that has just joined does, without paying
 * JVM start and join inside the trial. The oldest standby (in Hazelcast's join order) is promoted right after each
 * kill, while the next master takes over and restores, as a replacement member joining at that time would; the
 * wait for cluster-safe before the next kill (3 data members, every backup in place: one member lost at a time)
 * waits for the promotion too. A new standby is started in the background after each promotion; member JVMs map a
 * class-data-sharing archive dumped by a warm-up member of the backend ({@link MemberCds}, about 45% less CPU per
 * start; {@code -Djobinfo.it.long.cds=false} turns it off). The backends run one after the other by default
 * ({@code jobinfo.it.long.parallel}, default 1: on 2 cores three clusters at once were slower per round than the
 * three one after the other), each on a cluster of its own. At the end a full audit of map and store, GC with its
 * grace period, and a check that every removed job is gone. {@code -Djobinfo.it.long.stopAt=<instant>} starts no
 * round after that instant (the final audit and GC still run; the test then fails: too few trials).
 *
 * <p>Progress goes to {@code target/failover-long-progress.log}: figures every 5 rounds (and after rounds 1-3),
 * with the seconds per round spent in each phase (kill, new master seen, promotion, cluster-safe, takeover,
 * restores, audits, submits, removals, standby JVM starts in the background). A step slower than 60 s is logged
 * there with what it waits for, every minute, up to the step's 6-minute limit: on a loaded machine Hazelcast may
 * take that long (a migration commit timing out after 90 s and retried), and that is a harness delay, not a lost
 * job. No figure is retried or dropped: an acknowledged job missing, torn or without its blob is counted in every
 * case.
 */
@Timeout(value = 150, unit = TimeUnit.MINUTES)
@Execution(ExecutionMode.CONCURRENT) // alongside the rest of the suite, if the run enables JUnit's parallel execution
class MasterFailoverLongTest {

    private static final int SIZE = 200_000;
    static final int WORKING_SET = 10;
    /**
     * Standby JVMs kept ready (or starting) per cluster: 3, and 4 on s3, whose member JVMs took about 15 s to start
     * on this machine (the S3 client's start-up), longer than the 3 kills of a round leave (measured: the round
     * waited for a standby); {@code -Djobinfo.it.long.standbys=N} for every backend.
     */
    private static int standbys(String backend) {
        return Integer.getInteger("jobinfo.it.long.standbys", backend.startsWith("s3") ? 4 : 3);
    }
    /**
     * How long one step (a takeover, a restore, a promotion, cluster-safe, a submit) may take before the run fails.
     * Generous: on a loaded machine a migration commit can time out after 90 s and be retried by Hazelcast; a step
     * slower than {@link #SLOW} is logged to the progress log with what it waits for (a harness delay, not a loss).
     */
    private static final Duration STEP = Duration.ofMinutes(6);
    private static final Duration SLOW = Duration.ofSeconds(60);
    private static final java.util.concurrent.ScheduledExecutorService WATCHDOG =
            Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "failover-long-watchdog");
                t.setDaemon(true);
                return t;
            });
    private static final List<String> SCENARIOS = List.of("idle", "BEFORE_BLOB", "AFTER_BLOB", "AFTER_POINTER",
            "during-restore");
    private static final Path PROGRESS = Path.of("target", "failover-long-progress.log");

    @AfterAll
    static void report() {
        if (Backends.longMode()) {
            ReliabilityReport.groupDone("failover");
        }
    }

    @Test
    void everyCrashPointAHundredTimesOnEveryBackend() throws Exception {
        assumeTrue(Backends.longMode(), "long mode only (-Djobinfo.it.long=true); the default build runs"
                + " MasterFailoverTest");
        int trials = Integer.getInteger("jobinfo.it.long.trials", 100);
        int parallel = Integer.getInteger("jobinfo.it.long.parallel", 1);
        long seed = Long.getLong("jobinfo.it.long.seed", System.nanoTime());
        String stop = System.getProperty("jobinfo.it.long.stopAt", "");
        Instant stopAt = stop.isEmpty() ? Instant.MAX : Instant.parse(stop);
        Files.createDirectories(PROGRESS.getParent());
        progress("start: " + trials + " rounds per backend, " + parallel + " backend(s) at a time, seed " + seed);
        String only = System.getProperty("jobinfo.it.long.backends", "");
        List<Backend> backends = only.equals("local") ? List.of(Backends.local()) : Backends.all().stream()
                .filter(b -> only.isEmpty() || List.of(only.split(",")).contains(b.name())).toList();
        ExecutorService pool = Executors.newFixedThreadPool(parallel);
        List<Future<BackendRun>> runs = new ArrayList<>();
        for (int i = 0; i < backends.size(); i++) {
            Backend b = backends.get(i);
            int index = List.of("local", "hdfs", "s3").indexOf(b.name().startsWith("s3") ? "s3" : b.name());
            int remaining = backends.size() - i;
            // one after the other with a stopAt: each backend gets an equal share of the time left when it starts
            // (a backend that finishes its rounds early leaves its time to the next), so none is starved
            java.util.function.Supplier<Instant> until = () -> parallel > 1 || stopAt.equals(Instant.MAX)
                    ? stopAt : Instant.now().plus(Duration.between(Instant.now(), stopAt).dividedBy(remaining));
            runs.add(pool.submit(() -> new BackendRun(b, index, trials, new Random(seed + index), until.get())
                    .run()));
        }
        pool.shutdown();
        List<Throwable> failures = new ArrayList<>();
        List<BackendRun> done = new ArrayList<>();
        for (Future<BackendRun> f : runs) {
            try {
                done.add(f.get());
            } catch (java.util.concurrent.ExecutionException e) {
                failures.add(e.getCause());
            }
        }
        for (BackendRun r : done) {
            r.assertZero();
        }
        if (!failures.isEmpty()) {
            Throwable first = failures.get(0);
            failures.stream().skip(1).forEach(first::addSuppressed);
            throw new AssertionError("a backend run failed: " + first, first);
        }
    }

    static synchronized void progress(String line) {
        String stamped = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + " " + line;
        System.out.println("[failover-long] " + stamped);
        try {
            Files.writeString(PROGRESS, stamped + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Figures of one scenario on one backend. */
    private static final class Tally {
        int trials;
        final Set<Long> lost = new TreeSet<>();
        final Set<Long> torn = new TreeSet<>();
        final Set<Long> noBlob = new TreeSet<>();
        final Map<String, Integer> counts = new TreeMap<>();

        void count(String what) {
            counts.merge(what, 1, Integer::sum);
        }
    }

    /** All rounds on one backend, on a cluster of its own. */
    private static final class BackendRun {
        private final Backend backend;
        private final int index;
        private final int rounds;
        private final Random rnd;
        private final Instant stopAt;
        private int roundsDone;
        private final Map<String, Tally> tallies = new LinkedHashMap<>();
        /** Acknowledged and still registered, oldest first. */
        private final Deque<Long> live = new ArrayDeque<>();
        /** Every acknowledged job of the run. */
        private final Set<Long> acked = new TreeSet<>();
        /** Unacknowledged submits (cut by a kill, or parked at a crash point). */
        private final Set<Long> unacked = new TreeSet<>();
        /** Unacknowledged but registered (their pointer landed before the kill): removed like the others. */
        private final Deque<Long> liveUnacked = new ArrayDeque<>();
        private final Set<Long> removed = new TreeSet<>();
        private final List<CompletableFuture<MemberProcess>> pendingStandbys = new ArrayList<>();
        /** The promotion of the standby that replaced the last killed master, until cluster-safe waits for it. */
        private CompletableFuture<MemberProcess> promotion;
        private final List<Integer> restoreKillPoints = new ArrayList<>();
        private final List<Long> blobParkBytes = new ArrayList<>();
        private long nextId = 1;
        private long lastEpoch;
        private long kills;
        private long blobLength;
        private String finalCheck = "";
        /** -1 until the final audit and GC ran (a run that failed before them has not measured it). */
        private int leftAfterGc = -1;
        private int orphansBeforeGc;
        private int gcDeleted;
        /** Phase name -> {total nanos, count}, in the order first seen. */
        private final Map<String, long[]> phases = new LinkedHashMap<>();

        BackendRun(Backend backend, int index, int rounds, Random rnd, Instant stopAt) {
            this.stopAt = stopAt;
            this.backend = backend;
            this.index = index;
            this.rounds = rounds;
            this.rnd = rnd;
            SCENARIOS.forEach(s -> tallies.put(s, new Tally()));
        }

        /** Times one phase of a round (see {@link #phaseLine}); logs it when it is slower than {@link #SLOW}. */
        private final class Phase implements AutoCloseable {
            private final String name;
            private final long t0 = System.nanoTime();
            private final java.util.concurrent.ScheduledFuture<?> warn;

            Phase(String name, String detail) {
                this.name = name;
                this.warn = WATCHDOG.scheduleAtFixedRate(() -> progress(backend.name() + ": slow step: " + name
                        + (detail.isEmpty() ? "" : " (" + detail + ")") + " still running after "
                        + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0) + " s; waiting up to " + STEP
                        .toMinutes() + " min (a harness delay under load, not a lost job)"), SLOW.toSeconds(),
                        SLOW.toSeconds(), TimeUnit.SECONDS);
            }

            @Override
            public void close() {
                warn.cancel(false);
                addPhase(name, System.nanoTime() - t0);
            }
        }

        private Phase phase(String name) {
            return new Phase(name, "");
        }

        private Phase phase(String name, MemberProcess on) {
            return new Phase(name, "on " + on.name());
        }

        private void addPhase(String name, long nanos) {
            synchronized (phases) {
                long[] p = phases.computeIfAbsent(name, k -> new long[2]);
                p[0] += nanos;
                p[1]++;
            }
        }

        /** Seconds per round of every phase so far (background phases overlap the others). */
        private String phaseLine(int rounds) {
            StringBuilder b = new StringBuilder("phases, s/round:");
            synchronized (phases) {
                phases.forEach((name, p) -> b.append(' ').append(name).append(' ').append(String.format(
                        java.util.Locale.ROOT, "%.1f", p[0] / 1e9 / Math.max(1, rounds))).append(" (")
                        .append(p[1]).append("x)").append(';'));
            }
            return b.toString();
        }

        private CompletableFuture<MemberProcess> startStandby(ProcessCluster cluster) {
            long t0 = System.nanoTime();
            return cluster.addStandbyAsync().whenComplete((m, e) -> addPhase("[background] standby JVM start",
                    System.nanoTime() - t0));
        }

        BackendRun run() throws Exception {
            if (!stopAt.equals(Instant.MAX)) {
                progress(backend.name() + ": no round starts after " + stopAt);
            }
            String ns = "failover-long-" + UUID.randomUUID().toString().substring(0, 8);
            blobLength = Audit.expected(1, SIZE).length + EnvelopeHeader.LENGTH;
            long started = System.nanoTime();
            // an operation on a partition whose owner was just killed is retried every 100 ms instead of Hazelcast's
            // 500 ms, so a new master's takeover does not sit out pauses once the partition table is updated
            List<String> jvm = List.of("-Xmx256m", "-Dit.heartbeatTimeoutSeconds=30",
                    "-Dhazelcast.invocation.retry.pause.millis=100");
            if (Boolean.parseBoolean(System.getProperty("jobinfo.it.long.cds", "true"))) {
                MemberCds.Result cds = MemberCds.options(backend.name(), backend.config(ns + "-cds-warmup"),
                        5701 + index * 20, SIZE, jvm);
                progress(backend.name() + ": " + cds.note());
                jvm = cds.options();
            }
            try (JobInfoStore store = backend.open(ns);
                 ProcessCluster cluster = new ProcessCluster("failover-long-" + backend.name(), 5701 + index * 20,
                         20, backend.config(ns), jvm)) {
                cluster.start(3);
                for (int i = 0; i < standbys(backend.name()); i++) {
                    pendingStandbys.add(startStandby(cluster));
                }
                cluster.pollEvery(Duration.ofMillis(50));
                HazelcastInstance client = cluster.newClient(60,
                        Map.of("hazelcast.client.invocation.retry.pause.millis", "100"));
                IMap<Long, Object> map = client.getMap(RunningJobInfoRegistry.DEFAULT_MAP_NAME);
                MemberProcess master = cluster.master(STEP);
                takeOverAndRestore(master, map, store, null);
                submitAcked(master, WORKING_SET - 4);

                for (int round = 1; round <= rounds; round++) {
                    if (Instant.now().isAfter(stopAt)) {
                        progress(backend.name() + ": STOPPED at " + stopAt + " (jobinfo.it.long.stopAt) after "
                                + roundsDone + " of " + rounds + " rounds; final audit and GC follow");
                        break;
                    }
                    master = midSubmit(cluster, master, map, store);
                    master = duringRestore(cluster, master, map, store);
                    submitAcked(master, 1);
                    master = idle(cluster, master, map, store);
                    removeOldest(master);
                    submitAcked(master, 1);
                    roundsDone = round;
                    if (round % 5 == 0 || round == rounds || round <= 3) {
                        long s = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
                        progress(backend.name() + ": round " + round + "/" + rounds + " done, " + kills
                                + " kills, " + acked.size() + " acknowledged (" + live.size() + " registered), "
                                + "lost " + sum(t -> t.lost.size()) + ", torn " + sum(t -> t.torn.size())
                                + ", pointers without blob " + sum(t -> t.noBlob.size()) + ", unacknowledged "
                                + unacked.size() + ", removed " + removed.size() + ", " + s + " s ("
                                + (s / round) + " s/round)");
                        progress(backend.name() + ": " + phaseLine(round));
                    }
                }
                finish(map, store);
                progress(backend.name() + ": done in " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime()
                        - started) + " s; " + finalCheck);
            } catch (Throwable t) {
                progress(backend.name() + ": FAILED after " + kills + " kills: " + t);
                addRows();
                throw t;
            }
            addRows();
            return this;
        }

        private int sum(java.util.function.ToIntFunction<Tally> f) {
            return tallies.values().stream().mapToInt(f).sum();
        }

        /** One submit parked at each crash point, two more cut at random stages, then kill -9. */
        private MemberProcess midSubmit(ProcessCluster cluster, MemberProcess master, IMap<Long, Object> map,
                                        JobInfoStore store) throws Exception {
            long k = (long) (rnd.nextDouble() * blobLength); // 0 (before the first byte) .. all but the last
            blobParkBytes.add(k);
            Map<String, Long> parked = new LinkedHashMap<>();
            parked.put("BEFORE_BLOB", nextId++);
            parked.put("AFTER_BLOB", nextId++);
            parked.put("AFTER_POINTER", nextId++);
            List<String> tags = new ArrayList<>();
            try (Phase ph = phase("park 3 submits", master)) {
                for (Map.Entry<String, Long> p : parked.entrySet()) {
                    String point = p.getKey().equals("BEFORE_BLOB") ? "DURING_BLOB:" + k : p.getKey();
                    String tag = master.send("SUBMIT " + p.getValue() + " " + SIZE + " " + point);
                    tags.add(tag);
                    unacked.add(p.getValue());
                }
                int i = 0;
                for (Map.Entry<String, Long> p : parked.entrySet()) {
                    String point = p.getKey().equals("BEFORE_BLOB") ? "DURING_BLOB" : p.getKey();
                    master.await(tags.get(i++), r -> r.equals("AT " + point) || r.startsWith("FAIL")
                            || r.startsWith("ERR"), STEP);
                }
            }
            for (String tag : tags) {
                assertThat(master.replies(tag)).as("parked submits").allMatch(r -> r.startsWith("AT "));
            }
            Map<Long, String> inFlight = new LinkedHashMap<>();
            for (int j = 0; j < 2; j++) {
                long id = nextId++;
                inFlight.put(id, master.send("SUBMIT " + id + " " + SIZE));
            }
            Thread.sleep(rnd.nextInt(31));
            kill(master);
            for (Map.Entry<Long, String> f : inFlight.entrySet()) {
                if (master.replies(f.getValue()).contains("ACK " + f.getKey())) {
                    ack(f.getKey());
                    tallies.get("AFTER_POINTER").count("in-flight submits acknowledged before the kill");
                } else {
                    unacked.add(f.getKey());
                    tallies.get("AFTER_POINTER").count("in-flight submits cut by the kill");
                }
            }
            for (String s : List.of("BEFORE_BLOB", "AFTER_BLOB", "AFTER_POINTER")) {
                tallies.get(s).trials++;
            }
            MemberProcess next = replaceAndFindMaster(cluster);
            takeOver(next);
            // every acknowledged job, straight from map and store, after the kill
            Audit.Result audit;
            try (Phase ph = phase("audit")) {
                audit = Audit.run(map, store, Set.copyOf(live), SIZE);
            }
            for (String s : List.of("BEFORE_BLOB", "AFTER_BLOB", "AFTER_POINTER")) {
                record(tallies.get(s), audit);
            }
            Set<Long> registered = new TreeSet<>(map.keySet());
            for (Map.Entry<String, Long> p : parked.entrySet()) {
                boolean in = registered.contains(p.getValue());
                tallies.get(p.getKey()).count(in ? "parked job registered (its pointer landed), restored intact"
                        : "parked job not registered");
            }
            for (long id : registered) {
                if (unacked.contains(id) && !liveUnacked.contains(id)) {
                    liveUnacked.add(id);
                }
            }
            return next;
        }

        /** The new master is killed once a random number of jobs are restored; a third one restores them all. */
        private MemberProcess duringRestore(ProcessCluster cluster, MemberProcess master, IMap<Long, Object> map,
                                            JobInfoStore store) throws Exception {
            Tally t = tallies.get("during-restore");
            t.trials++;
            awaitSafe(cluster);
            int registered = map.size();
            int parkAfter = 1 + rnd.nextInt(Math.max(1, registered - 1));
            restoreKillPoints.add(parkAfter);
            String tag = master.send("RESTORE " + parkAfter);
            try (Phase ph = phase("partial restore until parked", master)) {
                master.await(tag, r -> r.equals("AT RESTORE"), STEP);
            }
            Thread.sleep(rnd.nextInt(21));
            kill(master);
            for (String r : master.replies(tag)) {
                String[] w = r.split(" ");
                if (w[0].equals("RESTORED") && !w[2].equals(Audit.expectedSha(Long.parseLong(w[1]), SIZE))) {
                    t.torn.add(Long.parseLong(w[1]));
                }
            }
            MemberProcess next = replaceAndFindMaster(cluster);
            takeOverAndRestore(next, map, store, t);
            awaitSafe(cluster);
            return next;
        }

        private MemberProcess idle(ProcessCluster cluster, MemberProcess master, IMap<Long, Object> map,
                                   JobInfoStore store) throws Exception {
            Tally t = tallies.get("idle");
            t.trials++;
            try (Phase ph = phase("idle pause (random)")) {
                Thread.sleep(rnd.nextInt(200));
            }
            kill(master);
            MemberProcess next = replaceAndFindMaster(cluster);
            takeOverAndRestore(next, map, store, t);
            awaitSafe(cluster);
            return next;
        }

        private void kill(MemberProcess master) throws InterruptedException {
            try (Phase ph = phase("kill -9 and drain", master)) {
                master.kill9();
                master.drain(Duration.ofSeconds(10));
            }
            kills++;
        }

        /** Before every kill (and after the restores): 3 data members, every backup in place. */
        private void awaitSafe(ProcessCluster cluster) throws Exception {
            if (promotion != null) {
                try (Phase ph = phase("promotion, rest of it")) {
                    promotion.get(STEP.toSeconds(), TimeUnit.SECONDS);
                }
                promotion = null;
            }
            try (Phase ph = phase("await cluster safe")) {
                cluster.awaitSafe(3, STEP);
            }
        }

        /** Promotes a standby in place of the killed master, starts a new standby, returns the new master. */
        private MemberProcess replaceAndFindMaster(ProcessCluster cluster) throws Exception {
            pendingStandbys.removeIf(f -> {
                if (f.isDone()) {
                    f.join(); // a failed standby start fails the run here
                    return true;
                }
                return false;
            });
            if (cluster.live().stream().noneMatch(MemberProcess::standby)) {
                try (Phase ph = phase("wait for a standby JVM")) {
                    pendingStandbys.get(0).get(); // none up yet: wait for the oldest pending one
                }
            }
            long t0 = System.nanoTime();
            CompletableFuture<MemberProcess> promoted = CompletableFuture.supplyAsync(() -> {
                try {
                    return cluster.promoteStandby(STEP);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }).whenComplete((m, e) -> addPhase("[overlaps] promote standby", System.nanoTime() - t0));
            MemberProcess next;
            try (Phase ph = phase("kill -> single new master seen")) {
                next = cluster.master(STEP);
            }
            // the new master takes over and restores while the standby is promoted (and takes its partitions), as
            // it would with a replacement member that joins at that time; cluster-safe (before the next kill) waits
            // for the promotion
            promotion = promoted;
            pendingStandbys.add(startStandby(cluster));
            return next;
        }

        private void takeOver(MemberProcess master) throws Exception {
            String epochReply;
            try (Phase ph = phase("takeover", master)) {
                epochReply = master.call("TAKEOVER", STEP);
            }
            assertThat(epochReply).startsWith("EPOCH ");
            long epoch = Long.parseLong(epochReply.substring(6));
            assertThat(epoch).as("each takeover gets a newer epoch").isGreaterThan(lastEpoch);
            lastEpoch = epoch;
        }

        /** Takes over and restores everything; every acknowledged job must come back byte-identical. */
        private void takeOverAndRestore(MemberProcess master, IMap<Long, Object> map, JobInfoStore store, Tally t)
                throws Exception {
            takeOver(master);
            MemberProcess.Restored result;
            try (Phase ph = phase("full restore", master)) {
                result = master.restoreAll(STEP);
            }
            Map<Long, String> restored = result.jobs();
            Set<Long> failed = result.failed();
            if (t == null) {
                assertThat(restored).isEmpty();
                return;
            }
            for (long id : live) {
                if (!restored.containsKey(id)) {
                    t.lost.add(id);
                }
            }
            for (Map.Entry<Long, String> e : restored.entrySet()) {
                assertThat(acked.contains(e.getKey()) || unacked.contains(e.getKey()))
                        .as("restored job %d was submitted", e.getKey()).isTrue();
                assertThat(removed).as("a removed job is not restored").doesNotContain(e.getKey());
                if (!e.getValue().equals(Audit.expectedSha(e.getKey(), SIZE))) {
                    t.torn.add(e.getKey());
                }
            }
            t.noBlob.addAll(failed);
            try (Phase ph = phase("audit")) {
                record(t, Audit.run(map, store, Set.copyOf(live), SIZE));
            }
        }

        private void record(Tally t, Audit.Result audit) {
            t.lost.addAll(audit.lost());
            t.torn.addAll(audit.torn());
            t.noBlob.addAll(audit.pointersNoBlob());
        }

        private void ack(long id) {
            acked.add(id);
            live.add(id);
        }

        private void submitAcked(MemberProcess master, int count) throws Exception {
            for (int i = 0; i < count; i++) {
                long id = nextId++;
                String reply;
                try (Phase ph = phase("acknowledged submit", master)) {
                    reply = master.call("SUBMIT " + id + " " + SIZE, STEP);
                }
                assertThat(reply).as("submit %d on the master in charge", id).isEqualTo("ACK " + id);
                ack(id);
            }
        }

        /** The job end of the oldest jobs, through the registry, down to the working set. */
        private void removeOldest(MemberProcess master) throws Exception {
            try (Phase ph = phase("job-end removals", master)) {
                removeOldestUntimed(master);
            }
        }

        private void removeOldestUntimed(MemberProcess master) throws Exception {
            while (!liveUnacked.isEmpty()) {
                long id = liveUnacked.poll();
                assertThat(master.call("REMOVE " + id, STEP)).isEqualTo("REMOVED " + id + " true");
                removed.add(id);
                Audit.forget(id, SIZE);
            }
            while (live.size() > WORKING_SET - 2) {
                long id = live.poll();
                assertThat(master.call("REMOVE " + id, STEP)).isEqualTo("REMOVED " + id + " true");
                removed.add(id);
                Audit.forget(id, SIZE);
            }
        }

        /** Full audit, GC with its grace period, removed jobs gone. */
        private void finish(IMap<Long, Object> map, JobInfoStore store) throws Exception {
            Audit.Result before = Audit.run(map, store, Set.copyOf(live), SIZE);
            Tally last = tallies.get("idle");
            record(last, before);
            assertThat(before.orphans()).as("orphan blobs come from unacknowledged submits only")
                    .isSubsetOf(unacked);
            orphansBeforeGc = before.orphans().size() + before.incomplete();
            GcReport[] gc = Audit.collect(map, store);
            assertThat(gc[0].deleted()).as("GC within the grace period deletes nothing").isEmpty();
            gcDeleted = gc[1].deleted().size();
            Audit.Result after = Audit.run(map, store, Set.copyOf(live), SIZE);
            record(last, after);
            leftAfterGc = after.orphans().size() + after.incomplete();
            int removedPresent = 0;
            Set<Long> keys = map.keySet();
            for (long id : removed) {
                if (keys.contains(id) || blobExists(store, id)) {
                    removedPresent++;
                }
            }
            assertThat(removedPresent).as("removed jobs whose pointer or blob is still there").isZero();
            finalCheck = "final audit of " + live.size() + " registered acknowledged jobs; " + removed.size()
                    + " jobs removed at job end as the run went (pointer and blob gone: checked at the end);"
                    + " orphans and leftovers before GC " + orphansBeforeGc + " (all of unacknowledged submits), GC"
                    + " deleted " + gcDeleted + ", left " + leftAfterGc;
        }

        private static boolean blobExists(JobInfoStore store, long id) {
            try {
                store.read(id);
                return true;
            } catch (JobInfoStoreException e) {
                return false;
            }
        }

        private void addRows() {
            for (String scenario : SCENARIOS) {
                Tally t = tallies.get(scenario);
                List<String> notes = new ArrayList<>();
                switch (scenario) {
                    case "BEFORE_BLOB" -> notes.add("parked inside the blob write after a random k of "
                            + blobLength + " bytes were handed to the store (k: " + stats(blobParkBytes) + ")");
                    case "during-restore" -> notes.add("killed once a random number of jobs were restored ("
                            + stats(restoreKillPoints.stream().map(Integer::longValue).toList()) + ")");
                    case "AFTER_POINTER" -> notes.add("each mid-submit kill has one submit parked at each of the"
                            + " three mid-submit points at once, plus two submits cut at random stages (kill 0-30 ms"
                            + " after they were sent)");
                    default -> {
                    }
                }
                t.counts.forEach((k, v) -> notes.add(k + ": " + v));
                if (scenario.equals("idle")) {
                    notes.add(leftAfterGc < 0 ? "the run failed before its final audit and GC: orphans after GC not"
                            + " measured (-1)" : finalCheck);
                }
                ReliabilityReport.add(new ReliabilityRow("failover", "master kill -9: "
                        + label(scenario), backend.name(), t.trials, acked.size(), t.lost.size(), t.torn.size(),
                        t.noBlob.size(), leftAfterGc, String.join("; ", notes)));
            }
        }

        private static String stats(List<Long> xs) {
            if (xs.isEmpty()) {
                return "none";
            }
            long min = xs.stream().mapToLong(Long::longValue).min().orElse(0);
            long max = xs.stream().mapToLong(Long::longValue).max().orElse(0);
            long distinct = xs.stream().distinct().count();
            return "min " + min + ", max " + max + ", " + distinct + " distinct values";
        }

        void assertZero() {
            for (Map.Entry<String, Tally> e : tallies.entrySet()) {
                Tally t = e.getValue();
                assertThat(t.lost).as("%s %s: acknowledged jobs lost", backend.name(), e.getKey()).isEmpty();
                assertThat(t.torn).as("%s %s: torn", backend.name(), e.getKey()).isEmpty();
                assertThat(t.noBlob).as("%s %s: pointers without blob", backend.name(), e.getKey()).isEmpty();
                assertThat(t.trials).as("%s %s: trials (a run stopped by jobinfo.it.long.stopAt is incomplete)",
                        backend.name(), e.getKey()).isEqualTo(rounds);
            }
            assertThat(leftAfterGc).as("%s: orphans and leftovers after GC", backend.name()).isZero();
        }
    }

    static String label(String scenario) {
        return switch (scenario) {
            case "idle" -> "idle";
            case "BEFORE_BLOB" -> "mid-submit, before or during the blob write";
            case "AFTER_BLOB" -> "mid-submit, after the blob, before the pointer";
            case "AFTER_POINTER" -> "mid-submit, after the pointer, before the ack";
            default -> "during the new master's restore";
        };
    }
}
