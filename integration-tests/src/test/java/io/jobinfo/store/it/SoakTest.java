package io.jobinfo.store.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.jobinfo.store.ops.GcReport;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 16, part 5: a soak. Runs only with {@code -Djobinfo.it.soak=true} (never in the default build):
 * <pre>
 * mvn -B -pl integration-tests -am verify -Djobinfo.it.soak=true -Dtest=SoakTest -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 * For {@code jobinfo.it.soak.minutes} (default 30) a 3-member cluster of member JVMs ({@link MemberMain}, local
 * store, each registry with a cache bounded to {@value #CACHE_MAX_BYTES} bytes, smaller than the working set) takes
 * continuous submits (on the master), gets (on a random member, through its registry and cache) and removes (the job
 * end, on the master; the working set stays about {@value #WORKING_SET} jobs), and every
 * {@code jobinfo.it.soak.killEverySeconds} (default 180, randomised by up to a third) the master is killed with
 * {@code kill -9} with a submit in flight; a new member JVM joins, the next master takes over and restores every job
 * (each compared with what was submitted). Every {@value #SAMPLE_SECONDS} s each member process is sampled: heap used
 * after a full GC (the member's own MXBean, after {@code System.gc()}), open file descriptors ({@code /proc/<pid>/fd})
 * and threads ({@code /proc/<pid>/status}). At the end: every acknowledged job still registered is read from map and
 * store and compared byte for byte, every removed job is gone, GC leaves no orphan, and heap, descriptors and threads
 * stayed flat ({@link io.jobinfo.store.testing.ProcessTimeline#flatness}). Writes {@code target/soak/soak.json}, {@code soak.png} and
 * {@code soak.md}; {@link PublishSoakReport} puts the last two into docs/.
 */
@Timeout(value = 120, unit = TimeUnit.MINUTES)
class SoakTest {

    static final int SIZE = 200_000;
    static final long CACHE_MAX_BYTES = 8L << 20;
    static final int WORKING_SET = 80;
    static final int SAMPLE_SECONDS = 10;
    private static final Duration STEP = Duration.ofSeconds(120);
    static final Path OUT = Path.of("target", "soak");

    @Test
    void submitsGetsRemovesAndMasterKillsForHalfAnHourStayFlat() throws Exception {
        assumeTrue(Boolean.getBoolean("jobinfo.it.soak"), "soak only with -Djobinfo.it.soak=true");
        Duration length = Duration.ofMinutes(Long.getLong("jobinfo.it.soak.minutes", 30));
        long killEvery = Long.getLong("jobinfo.it.soak.killEverySeconds", 180);
        Random rnd = new Random(Long.getLong("jobinfo.it.soak.seed", System.nanoTime()));
        Files.createDirectories(OUT);
        SoakReport report = new SoakReport(length, killEvery, CACHE_MAX_BYTES, WORKING_SET, SIZE);
        Backend backend = Backends.local();
        String ns = "soak-" + UUID.randomUUID().toString().substring(0, 8);
        Deque<Long> live = new ArrayDeque<>();
        Set<Long> removed = new TreeSet<>();
        Set<Long> unacked = new TreeSet<>();
        try {
            soak(length, killEvery, rnd, report, backend, ns, live, removed, unacked, 1);
        } catch (Throwable t) {
            report.failedOps.add("the soak failed: " + t);
            throw t;
        } finally {
            try {
                report.write(OUT); // also after a failure: the figures so far
            } catch (Exception e) {
                System.err.println("SoakTest: could not write the report: " + e);
            }
        }
        assertThat(report.failedOps).as("failed operations outside kills").isEmpty();
        assertThat(report.lostAtRestore).as("acknowledged jobs missing or torn at a restore").isZero();
        assertThat(report.finalLost).as("acknowledged jobs lost").isZero();
        assertThat(report.finalTorn).as("torn").isZero();
        assertThat(report.finalNoBlob).as("pointers without blob").isZero();
        assertThat(report.removedStillThere).as("removed jobs still there").isZero();
        assertThat(report.orphansAfterGc).as("orphans after GC").isZero();
        assertThat(report.kills).as("master kills").hasSizeGreaterThanOrEqualTo(
                (int) Math.max(1, length.toSeconds() / killEvery / 2));
        assertThat(report.timeline.flatness()).as("heap, descriptors and threads flat").allMatch(f -> f.flat());
    }

    private static long soak(Duration length, long killEvery, Random rnd, SoakReport report, Backend backend,
                             String ns, Deque<Long> live, Set<Long> removed, Set<Long> unacked, long firstId)
            throws Exception {
        long nextId = firstId;
        try (JobInfoStore store = backend.open(ns);
             ProcessCluster cluster = new ProcessCluster("soak", 5774, 12, backend.config(ns),
                     List.of("-Xmx384m", "-Dit.cache.maxBytes=" + CACHE_MAX_BYTES, "-Dit.heartbeatTimeoutSeconds=30"))) {
            cluster.start(3);
            HazelcastInstance client = cluster.newClient(60);
            IMap<Long, Object> map = client.getMap(RunningJobInfoRegistry.DEFAULT_MAP_NAME);
            MemberProcess master = cluster.master(STEP);
            assertThat(master.call("TAKEOVER", STEP)).startsWith("EPOCH ");

            long start = System.nanoTime();
            long end = start + length.toNanos();
            long nextSample = start;
            long nextKill = start + nextKillDelay(killEvery, rnd);
            long lastProgress = start;
            while (System.nanoTime() < end) {
                long now = System.nanoTime();
                if (now >= nextSample) {
                    report.sample(seconds(now - start), cluster.live());
                    nextSample += TimeUnit.SECONDS.toNanos(SAMPLE_SECONDS);
                }
                if (now >= nextKill) {
                    // a submit in flight, then kill -9 of the master
                    long id = nextId++;
                    String tag = master.send("SUBMIT " + id + " " + SIZE);
                    Thread.sleep(rnd.nextInt(20));
                    master.kill9();
                    master.drain(Duration.ofSeconds(10));
                    if (master.replies(tag).contains("ACK " + id)) {
                        live.add(id);
                        report.acked++;
                    } else {
                        unacked.add(id);
                    }
                    long killedAt = System.nanoTime();
                    CompletableFuture<MemberProcess> replacement = cluster.addMemberAsync();
                    master = cluster.master(STEP);
                    assertThat(master.call("TAKEOVER", STEP)).startsWith("EPOCH ");
                    int restored = restoreAndVerify(master, live, unacked, report);
                    replacement.get();
                    cluster.awaitSafe(3, STEP);
                    report.kill(seconds(killedAt - start), seconds(System.nanoTime() - killedAt), restored);
                    for (long registered : map.keySet()) {
                        if (unacked.remove(registered)) {
                            // its pointer landed before the kill: registered, though never acknowledged; the
                            // workload removes it like any other job
                            live.add(registered);
                        }
                    }
                    nextKill = System.nanoTime() + nextKillDelay(killEvery, rnd);
                    continue;
                }
                // one step of the workload: a submit, three gets on random members, removes down to the working set
                long id = nextId++;
                String reply = master.call("SUBMIT " + id + " " + SIZE, STEP);
                if (reply.equals("ACK " + id)) {
                    live.add(id);
                    report.acked++;
                } else {
                    report.failedOps.add("submit " + id + ": " + reply);
                    unacked.add(id);
                }
                List<MemberProcess> members = cluster.liveData();
                List<Long> ids = new ArrayList<>(live);
                for (int g = 0; g < 3 && !ids.isEmpty(); g++) {
                    long gid = ids.get(rnd.nextInt(ids.size()));
                    MemberProcess m = members.get(rnd.nextInt(members.size()));
                    String got = m.call("GET " + gid + " " + SIZE, STEP);
                    report.gets++;
                    if (!got.equals("GOT " + gid + " " + Audit.expectedShaUncached(gid, SIZE))) {
                        report.failedOps.add("get " + gid + " on " + m.name() + ": " + got);
                    }
                }
                while (live.size() > WORKING_SET) {
                    long rid = live.poll();
                    String r = master.call("REMOVE " + rid, STEP);
                    report.removes++;
                    if (r.equals("REMOVED " + rid + " true")) {
                        removed.add(rid);
                    } else {
                        report.failedOps.add("remove " + rid + ": " + r);
                        live.addFirst(rid);
                        break;
                    }
                }
                if (now - lastProgress > TimeUnit.SECONDS.toNanos(60)) {
                    lastProgress = now;
                    MasterFailoverLongTest.progress("soak: " + seconds(now - start) + " s, " + report.acked
                            + " acknowledged, " + report.gets + " gets, " + report.removes + " removes, "
                            + report.kills.size() + " master kills, failed ops " + report.failedOps.size());
                }
            }
            report.sample(seconds(System.nanoTime() - start), cluster.live());

            // the end: every acknowledged job still registered intact in map and store, every removed one gone
            Audit.Result audit = Audit.run(map, store, Set.copyOf(live), SIZE);
            report.finalLost = audit.lost().size();
            report.finalTorn = audit.torn().size();
            report.finalNoBlob = audit.pointersNoBlob().size();
            report.finalRegistered = live.size();
            Set<Long> keys = map.keySet();
            for (long id : removed) {
                if (keys.contains(id) || blobExists(store, id)) {
                    report.removedStillThere++;
                }
            }
            report.removed = removed.size();
            GcReport[] gc = Audit.collect(map, store);
            Audit.Result after = Audit.run(map, store, Set.copyOf(live), SIZE);
            report.gcDeleted = gc[1].deleted().size();
            report.orphansAfterGc = after.orphans().size() + after.incomplete();
            report.finalLost += after.lost().size();
        }
        return nextId;
    }

    private static long nextKillDelay(long killEverySeconds, Random rnd) {
        long third = Math.max(1, killEverySeconds / 3);
        return TimeUnit.SECONDS.toNanos(killEverySeconds - third + rnd.nextLong(2 * third + 1));
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    /** Restores on the new master; every registered acknowledged job must come back byte-identical. */
    private static int restoreAndVerify(MemberProcess master, Deque<Long> live, Set<Long> unacked, SoakReport report)
            throws Exception {
        String tag = master.send("RESTORE");
        master.await(tag, r -> r.startsWith("RESTORE_DONE "), STEP);
        Set<Long> restored = new TreeSet<>();
        for (String r : master.replies(tag)) {
            String[] w = r.split(" ");
            if (w[0].equals("RESTORED")) {
                long id = Long.parseLong(w[1]);
                restored.add(id);
                if (!w[2].equals(Audit.expectedShaUncached(id, SIZE))) {
                    report.lostAtRestore++;
                }
            } else if (w[0].equals("RESTORE_FAILED")) {
                report.lostAtRestore++;
            }
        }
        for (long id : live) {
            if (!restored.contains(id)) {
                report.lostAtRestore++;
            }
        }
        return restored.size();
    }

    private static boolean blobExists(JobInfoStore store, long id) {
        try {
            store.read(id);
            return true;
        } catch (JobInfoStoreException e) {
            return false;
        }
    }
}
