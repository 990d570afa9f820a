package io.jobinfo.store.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.ops.GcReport;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.testing.ReliabilityRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 6, part 3: backend faults through {@link TcpFaultProxy} in front of the real S3 server and the real HDFS
 * NameNode (the local backend has no network to fault and is not a parameter). Phases: healthy, added latency,
 * connection resets, a blackhole for a few seconds, healed. In every phase each submit either succeeds or fails with
 * a {@link JobInfoStoreException} naming the job, without hanging past its deadline (configured on the store's
 * client, checked against a generous bound that only catches hangs); jobs already cached stay readable during the
 * outage; after healing the store works again by itself (same store instance, no restart); no pointer without its
 * blob; GC removes the blobs of failed submits.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class BackendFaultTest {

    private static final int SIZE = 50_000;
    private static final int DEADLINE_MS = 3_000;
    /** Hang detection only: a submit taking longer than this did not honour its deadline at all. */
    private static final long HANG_BOUND_MS = 4L * DEADLINE_MS + 15_000;

    @AfterAll
    static void report() {
        ReliabilityReport.groupDone("backend-faults");
    }

    private record Outcome(String phase, long jobId, boolean acked, String error, long millis) {
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.jobinfo.store.it.Backends#proxiable")
    void submitsSucceedOrFailClearlyCachedJobsStayReadableAndTheStoreRecovers(Backend backend) throws Exception {
        String ns = "faults-" + UUID.randomUUID().toString().substring(0, 8);
        int rounds = Backends.longMode() ? 3 : 1;
        HazelcastInstance hz = InJvmMember.start("faults-" + backend.name(), 5771 + Backends.all().indexOf(backend));
        JobGenerator generator = new JobGenerator(Audit.SEED);
        List<Outcome> outcomes = new ArrayList<>();
        Set<Long> acked = new TreeSet<>();
        Map<String, String> cachedDuringOutage = new LinkedHashMap<>();
        int recoveryAttempts = 0;
        long nextId = 1;
        try (TcpFaultProxy proxy = new TcpFaultProxy(backend.faultableServer());
             JobInfoStore store = JobInfoStores.open(backend.configThrough(ns, proxy.address(), DEADLINE_MS));
             JobInfoStore direct = backend.open(ns);
             RunningJobInfoRegistry<JobImmutableInformation> registry = RunningJobInfoRegistry
                     .builder(hz, store, Audit.CODEC).build()) {
            IMap<Long, Object> map = hz.getMap(RunningJobInfoRegistry.DEFAULT_MAP_NAME);
            for (int round = 0; round < rounds; round++) {
                for (int i = 0; i < 3; i++) {
                    Outcome o = submit(registry, generator, "healthy", nextId++);
                    outcomes.add(o);
                    assertThat(o.acked()).as("healthy submit: %s", o).isTrue();
                    acked.add(o.jobId());
                }
                for (String phase : List.of("latency", "resets", "blackhole")) {
                    warm(registry, acked);
                    switch (phase) {
                        case "latency" -> proxy.latency(150);
                        case "resets" -> proxy.resets(true);
                        default -> proxy.blackhole(true);
                    }
                    long outageStart = System.nanoTime();
                    for (int i = 0; i < 2; i++) {
                        Outcome o = submit(registry, generator, phase, nextId++);
                        outcomes.add(o);
                        if (o.acked()) {
                            acked.add(o.jobId());
                        }
                    }
                    // cached jobs are served from this member's cache, without the backend
                    for (long id : acked) {
                        // warmed before the fault (they all fit the cache)
                        String result;
                        try {
                            byte[] got = Audit.CODEC.encode(registry.get(id).orElseThrow());
                            result = java.util.Arrays.equals(got, Audit.expected(id, SIZE)) ? "ok" : "TORN";
                        } catch (JobInfoStoreException e) {
                            result = "FAILED " + e.getMessage();
                        }
                        cachedDuringOutage.merge(phase, result, (a, b) -> a.equals("ok") ? b : a);
                    }
                    if (phase.equals("blackhole")) {
                        long left = 5_000 - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - outageStart);
                        if (left > 0) {
                            Thread.sleep(left); // the blackhole lasts at least 5 s
                        }
                    }
                    proxy.heal();
                }
                // recovery by itself: the same store instance, retried until it works (bounded)
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                Outcome recovered;
                do {
                    recoveryAttempts++;
                    recovered = submit(registry, generator, "healed", nextId++);
                    outcomes.add(recovered);
                } while (!recovered.acked() && System.nanoTime() < deadline);
                assertThat(recovered.acked()).as("the store recovers after the backend returns: %s", recovered)
                        .isTrue();
                acked.add(recovered.jobId());
                for (int i = 0; i < 2; i++) {
                    Outcome o = submit(registry, generator, "healed", nextId++);
                    outcomes.add(o);
                    assertThat(o.acked()).as("after recovery: %s", o).isTrue();
                    acked.add(o.jobId());
                }
            }

            // every acknowledged job is in the map with its verified blob; no pointer without blob
            Audit.Result audit = Audit.run(map, direct, acked, SIZE);
            GcReport[] gc = Audit.collect(map, direct);
            Audit.Result after = Audit.run(map, direct, acked, SIZE);
            int left = after.orphans().size() + after.incomplete();
            long failed = outcomes.stream().filter(o -> !o.acked()).count();
            long maxMillis = outcomes.stream().mapToLong(Outcome::millis).max().orElse(0);
            Map<String, Long> failuresByType = new LinkedHashMap<>();
            outcomes.stream().filter(o -> !o.acked()).forEach(o -> failuresByType.merge(o.phase() + ":"
                    + o.error().substring(0, o.error().indexOf(':')), 1L, Long::sum));
            ReliabilityReport.add(new ReliabilityRow("backend-faults", "TCP faults (latency, resets,"
                    + " 5 s blackhole) in front of the " + (backend.name().startsWith("s3") ? "S3 server" : "NameNode"),
                    backend.name(), outcomes.size(), acked.size(), audit.lost().size() + after.lost().size(),
                    audit.torn().size() + after.torn().size(), audit.pointersNoBlob().size(), left,
                    (outcomes.size() - failed) + " submits acked, " + failed + " failed with a typed error naming"
                            + " the job " + failuresByType + "; slowest submit " + maxMillis + " ms (deadline "
                            + DEADLINE_MS + " ms per request); cached reads during faults: " + cachedDuringOutage
                            + "; recovered by itself after " + recoveryAttempts + " attempt(s); orphans before GC "
                            + audit.orphans().size() + ", GC deleted " + gc[1].deleted().size()));

            for (Outcome o : outcomes) {
                assertThat(o.millis()).as("no hang: %s", o).isLessThan(HANG_BOUND_MS);
                if (!o.acked()) {
                    assertThat(o.error()).as("a clear, typed error naming the job: %s", o)
                            .doesNotStartWith("UNTYPED").contains("jobId=" + o.jobId());
                }
            }
            assertThat(cachedDuringOutage.values()).as("cached jobs readable during faults").containsOnly("ok");
            assertThat(cachedDuringOutage).containsKey("blackhole");
            assertThat(audit.lost()).isEmpty();
            assertThat(audit.torn()).isEmpty();
            assertThat(audit.pointersNoBlob()).isEmpty();
            assertThat(audit.orphans()).as("orphans only from failed submits")
                    .allMatch(id -> outcomes.stream().anyMatch(o -> o.jobId() == id && !o.acked()));
            assertThat(left).isZero();
        } finally {
            hz.getLifecycleService().terminate();
        }
    }

    /**
     * Reads every job until this member serves it from its cache. (A submit caches its job, but the map's entry
     * event for that job, which arrives asynchronously, evicts it again, and a load that races any invalidation is
     * not cached: so a job only counts as cached once a read after its events was a cache hit.)
     */
    private static void warm(RunningJobInfoRegistry<JobImmutableInformation> registry, Set<Long> ids)
            throws Exception {
        for (long id : ids) {
            for (int i = 0; i < 100; i++) {
                long hits = registry.cacheStats().hitCount();
                registry.get(id);
                if (registry.cacheStats().hitCount() > hits) {
                    break;
                }
                Thread.sleep(20);
            }
        }
    }

    private static Outcome submit(RunningJobInfoRegistry<JobImmutableInformation> registry, JobGenerator generator,
                                  String phase, long id) {
        long start = System.nanoTime();
        try {
            registry.submit(id, generator.generate(id, SIZE));
            return new Outcome(phase, id, true, null, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        } catch (JobInfoStoreException e) {
            // a failed submit leaves the caller's thread as it was (a timed-out HDFS write once set its interrupt flag)
            assertThat(Thread.currentThread().isInterrupted()).as("interrupt flag after %s", e).isFalse();
            return new Outcome(phase, id, false, e.getClass().getSimpleName() + ": " + e.getMessage(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        } catch (RuntimeException e) {
            return new Outcome(phase, id, false, "UNTYPED " + e.getClass().getName() + ": " + e.getMessage(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        }
    }
}
