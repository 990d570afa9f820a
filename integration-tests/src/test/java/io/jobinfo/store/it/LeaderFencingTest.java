package io.jobinfo.store.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.ops.GcReport;
import io.jobinfo.store.lifecycle.FencedException;
import io.jobinfo.store.service.PointerOutcomeUnknownException;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.testing.ReliabilityRow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 6, part 2: leader fencing and unknown pointer-write outcomes, on a 3-member cluster of separate JVMs.
 *
 * <p>The two "masters" are registries on Hazelcast clients in this JVM, so that both stay connected and the test
 * decides exactly when one is deposed; the fence is enforced by the members that own the partitions, which is the
 * same whether the registry runs on a member or on a client. Backend: local (fencing concerns the job map only).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LeaderFencingTest {

    private static final int SIZE = 4_000;
    private static final JobGenerator GENERATOR = new JobGenerator(Audit.SEED);
    private static final String NS = "fencing-" + UUID.randomUUID().toString().substring(0, 8);

    private static Backend backend;
    private static ProcessCluster cluster;
    private static JobInfoStore store;
    private static IMap<Long, Object> map;
    private static final List<RunningJobInfoRegistry<JobImmutableInformation>> REGISTRIES = new ArrayList<>();
    private static final Set<Long> ACKED = new TreeSet<>();
    private static final List<String> NOTES = new ArrayList<>();
    private static int trials;
    private static int landed;

    @BeforeAll
    static void start() throws Exception {
        backend = Backends.local();
        store = backend.open(NS);
        cluster = new ProcessCluster("fencing", 5761, 10, backend.config(NS));
        cluster.start(3);
        map = cluster.newClient(60).getMap(RunningJobInfoRegistry.DEFAULT_MAP_NAME);
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            Audit.Result audit = Audit.run(map, store, ACKED, SIZE);
            GcReport[] gc = Audit.collect(map, store);
            Audit.Result after = Audit.run(map, store, ACKED, SIZE);
            ReliabilityReport.add(new ReliabilityRow("fencing", "deposed master writes/removes; unknown"
                    + " pointer-write outcome", backend.name(), trials, ACKED.size(), after.lost().size(),
                    after.torn().size(), after.pointersNoBlob().size(), after.orphans().size() + after.incomplete(),
                    "fenced writes landed: " + landed + "; orphans before GC " + audit.orphans().size()
                            + " (blobs of refused submits), GC deleted " + gc[1].deleted().size() + "; "
                            + String.join("; ", NOTES)));
            ReliabilityReport.groupDone("fencing");
            assertThat(after.lost()).isEmpty();
            assertThat(after.orphans()).isEmpty();
        } finally {
            REGISTRIES.forEach(RunningJobInfoRegistry::close);
            if (store != null) {
                store.close();
            }
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    private static RunningJobInfoRegistry<JobImmutableInformation> registry(HazelcastInstance client) {
        RunningJobInfoRegistry<JobImmutableInformation> r = RunningJobInfoRegistry
                .builder(client, store, Audit.CODEC).fencing(true).build();
        REGISTRIES.add(r);
        return r;
    }

    private static JobImmutableInformation job(long id) {
        return GENERATOR.generate(id, SIZE);
    }

    @Test
    @Order(1)
    void aDeposedMasterCanNoLongerWriteOrRemovePointersOnAnyPartition() throws Exception {
        RunningJobInfoRegistry<JobImmutableInformation> old = registry(cluster.newClient(60));
        RunningJobInfoRegistry<JobImmutableInformation> neu = registry(cluster.newClient(60));
        assertThatThrownBy(() -> old.submit(1, job(1))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("takeOver()");

        long e1 = old.takeOver();
        for (long id = 1; id <= 5; id++) {
            old.submit(id, job(id));
            ACKED.add(id);
        }
        long e2 = neu.takeOver();
        assertThat(e2).isGreaterThan(e1);

        // 300 job ids cover every one of the 71 partitions: the old master is refused on each, the map unchanged
        Map<Long, Object> before = new HashMap<>(map);
        int refused = 0;
        for (long id = 1000; id < 1300; id++) {
            trials++;
            long jobId = id;
            Throwable t = catchThrowable(() -> old.submit(jobId, job(jobId)));
            if (t == null) {
                landed++;
                continue;
            }
            assertThat(t).isInstanceOf(FencedException.class).hasMessageContaining("jobId=" + jobId)
                    .hasMessageContaining("epoch " + e1).hasMessageContaining("epoch " + e2)
                    .hasMessageContaining("unchanged");
            assertThat(((FencedException) t).currentEpoch()).isEqualTo(e2);
            assertThat(store.read(jobId).payload()).as("the refused submit's blob is kept")
                    .isEqualTo(Audit.expected(jobId, SIZE));
            refused++;
        }
        for (long id = 1; id <= 5; id++) {
            trials++;
            long jobId = id;
            assertThatThrownBy(() -> old.remove(jobId)).isInstanceOf(FencedException.class);
            assertThat(store.read(jobId).payload()).as("a refused removal deletes no blob")
                    .isEqualTo(Audit.expected(jobId, SIZE));
        }
        assertThat(new HashMap<>(map)).as("the job map after the deposed master's attempts").isEqualTo(before);
        assertThat(refused).isEqualTo(300);
        NOTES.add("deposed master: 300 submits over all 71 partitions and 5 removals refused, map unchanged");

        // the master in charge writes and removes; its submit of a refused job reuses the kept blob
        neu.submit(1000, job(1000));
        ACKED.add(1000L);
        assertThat(neu.remove(5)).isTrue();
        ACKED.remove(5L);
        assertThat(map.containsKey(5L)).isFalse();
    }

    @Test
    @Order(2)
    void noWriteStartedAfterTheTakeoverReturnedLandsWhileTheOldMasterKeepsWriting() throws Exception {
        RunningJobInfoRegistry<JobImmutableInformation> old = registry(cluster.newClient(60));
        RunningJobInfoRegistry<JobImmutableInformation> neu = registry(cluster.newClient(60));
        old.takeOver();
        AtomicBoolean takenOver = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong violations = new AtomicLong();
        Set<Long> oldAcked = ConcurrentHashMap.newKeySet();
        Set<Long> startedAfter = ConcurrentHashMap.newKeySet();
        Thread writer = new Thread(() -> {
            for (long id = 2000; !stop.get() && id < 4000; id++) {
                boolean after = takenOver.get();
                try {
                    old.submit(id, job(id));
                    oldAcked.add(id);
                    if (after) {
                        violations.incrementAndGet();
                    }
                } catch (FencedException e) {
                    if (after) {
                        startedAfter.add(id);
                    }
                } catch (Exception e) {
                    violations.incrementAndGet();
                }
            }
        }, "old-master");
        writer.start();
        Thread.sleep(500);
        neu.takeOver();
        takenOver.set(true);
        Thread.sleep(1000);
        stop.set(true);
        writer.join(60_000);
        trials += oldAcked.size() + startedAfter.size();
        ACKED.addAll(oldAcked);
        assertThat(violations.get()).as("writes started after the takeover returned that landed").isZero();
        assertThat(startedAfter).as("writes attempted after the takeover").isNotEmpty();
        assertThat(oldAcked).as("writes before the takeover").isNotEmpty();
        for (long id : oldAcked) {
            assertThat(map.containsKey(id)).as("acknowledged %d", id).isTrue();
        }
        NOTES.add("race: " + oldAcked.size() + " writes acknowledged before the takeover (all kept), "
                + startedAfter.size() + " started after it (all refused)");
        // the new master removes one of the old master's jobs: allowed
        long some = oldAcked.iterator().next();
        assertThat(neu.remove(some)).isTrue();
        ACKED.remove(some);
    }

    @Test
    @Order(3)
    void fencesAndPointersSurviveTheLossOfAMember() throws Exception {
        RunningJobInfoRegistry<JobImmutableInformation> a = registry(cluster.newClient(60));
        RunningJobInfoRegistry<JobImmutableInformation> b = registry(cluster.newClient(60));
        long ea = a.takeOver();
        long eb = b.takeOver();
        MemberProcess victim = cluster.live().get(1);
        victim.kill9();
        cluster.awaitSafe(2, Duration.ofSeconds(90));
        for (long id = 5000; id < 5100; id++) {
            trials++;
            long jobId = id;
            assertThatThrownBy(() -> a.submit(jobId, job(jobId))).isInstanceOf(FencedException.class);
        }
        for (long id : ACKED) {
            assertThat(map.containsKey(id)).as("acknowledged %d after a member's loss", id).isTrue();
        }
        long again = a.takeOver();
        assertThat(again).as("the epoch counter survived too").isGreaterThan(eb).isGreaterThan(ea);
        assertThatThrownBy(() -> b.submit(5200, job(5200))).isInstanceOf(FencedException.class);
        a.submit(5200, job(5200));
        ACKED.add(5200L);
        cluster.addMember();
        cluster.awaitSafe(3, Duration.ofSeconds(90));
        NOTES.add("member killed: fences, epoch counter and pointers held (100 more refusals)");
    }

    @Test
    @Order(4)
    void aPointerWriteWithUnknownOutcomeKeepsTheBlobAndSaysSo() throws Exception {
        HazelcastInstance client = cluster.newClient(4);
        RunningJobInfoRegistry<JobImmutableInformation> r = registry(client);
        r.takeOver();
        // the member owning the job's partition freezes (SIGSTOP) while the pointer write is in flight, then dies
        long jobId = 6000;
        Member owner = client.getPartitionService().getPartition(jobId).getOwner();
        MemberProcess ownerProcess = cluster.live().stream()
                .filter(m -> m.port() == owner.getAddress().getPort()).findFirst().orElseThrow();
        ChildJvms.signal(ownerProcess.process(), "STOP");
        Throwable t;
        try {
            trials++;
            t = catchThrowable(() -> r.submit(jobId, job(jobId)));
        } finally {
            ownerProcess.kill9();
        }
        assertThat(t).isInstanceOf(PointerOutcomeUnknownException.class)
                .hasMessageContaining("may or may not have happened").hasMessageContaining("jobId=" + jobId)
                .hasMessageContaining(store.location(jobId).toString());
        assertThat(store.read(jobId).payload()).as("the blob is kept").isEqualTo(Audit.expected(jobId, SIZE));
        cluster.addMember();
        cluster.awaitSafe(3, Duration.ofSeconds(90));
        boolean pointerLanded = map.containsKey(jobId);
        NOTES.add("partition owner frozen then killed during a pointer write: PointerOutcomeUnknownException, blob"
                + " kept, pointer " + (pointerLanded ? "landed" : "did not land (orphan for GC)"));
        // retrying the same submit is safe and acknowledges it
        r.submit(jobId, job(jobId));
        ACKED.add(jobId);
        assertThat(r.get(jobId).map(Audit.CODEC::encode).orElseThrow()).isEqualTo(Audit.expected(jobId, SIZE));
    }
}
