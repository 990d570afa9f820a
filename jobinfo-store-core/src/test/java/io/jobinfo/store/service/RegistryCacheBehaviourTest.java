package io.jobinfo.store.service;

import io.jobinfo.store.lifecycle.InlineJobInfo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.local.LocalJobInfoStore;
import io.jobinfo.store.testing.TestJobGenerator;
import io.jobinfo.store.testing.TestJob;
import io.jobinfo.store.testing.HazelcastTestCluster;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Single-flight loads and the per-entry bound of the registry's cache, on a real 2-member cluster. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RegistryCacheBehaviourTest {

    private static final KryoJobInfoCodec<TestJob> CODEC = TestJob.codec();
    private static HazelcastTestCluster cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        cluster = new HazelcastTestCluster(2);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private RunningJobInfoRegistry<TestJob> registry(String map, CacheConfig cache,
                                                                    SimpleMeterRegistry meters) throws Exception {
        return RunningJobInfoRegistry.builder(cluster.nonMaster(),
                        LocalJobInfoStore.open(dir.resolve(map), null, true, true), CODEC)
                .mapName(map).cache(cache).meterRegistry(meters).build();
    }

    /**
     * Either lookup serves a hit without a store read, counts it where the meters read, serves the job another member
     * replaced only until max-staleness has passed, and nothing once the job is removed.
     */
    @ParameterizedTest
    @EnumSource(CacheLookup.class)
    void eitherLookupServesCountsAndStopsServingWhatTheMapNoLongerHolds(CacheLookup lookup) throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        String map = "lookup-" + lookup;
        try (RunningJobInfoRegistry<TestJob> r = RunningJobInfoRegistry.builder(cluster.nonMaster(),
                        LocalJobInfoStore.open(dir.resolve(map), null, true, true), CODEC)
                .mapName(map).cache(CacheConfig.of(1 << 20, 1 << 20, Duration.ofMinutes(5), Duration.ofMillis(300)))
                .meterRegistry(meters).cacheLookup(lookup).build()) {
            TestJob job = new TestJobGenerator(3).generate(91, 50_000);
            r.submit(91, job);
            OwnAddEvents.awaitArrived(r, 91);
            long hitsBefore = r.cacheStats().hitCount();
            for (int i = 0; i < 10; i++) {
                assertThat(r.get(91)).contains(job);
            }
            assertThat(r.cacheStats().hitCount() - hitsBefore).isEqualTo(10);
            assertThat(meters.get("cache.gets").tag("result", "hit").functionCounter().count())
                    .isEqualTo(r.cacheStats().hitCount());
            assertThat(meters.find("jobinfo.load").timer()).as("no store read: the submit cached it")
                    .satisfiesAnyOf(t -> assertThat(t).isNull(), t -> assertThat(t.count()).isZero());
            // another value under the same id, written behind the registry's back: served until max-staleness
            // at most (plus the clock's resolution), whether or not the map's event arrives
            TestJob other = new TestJobGenerator(4).generate(91, 20_000);
            r.map().put(91L, new InlineJobInfo(5, CODEC.id(), CODEC.encode(other)));
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(r.get(91)).contains(other));
            assertThat(r.remove(91)).isTrue();
            assertThat(r.get(91)).isEmpty();
        }
    }

    @Test
    void concurrentReadersOfAColdJobLoadItOnce() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (RunningJobInfoRegistry<TestJob> r = registry("single-flight", CacheConfig.defaults(),
                meters)) {
            TestJob job = new TestJobGenerator(5).generate(77, 500_000);
            r.submit(77, job);
            OwnAddEvents.awaitArrived(r, 77);
            r.invalidateAll();
            int readers = 16;
            CyclicBarrier start = new CyclicBarrier(readers);
            ExecutorService pool = Executors.newFixedThreadPool(readers);
            try {
                List<Future<TestJob>> results = new ArrayList<>();
                for (int i = 0; i < readers; i++) {
                    results.add(pool.submit(() -> {
                        start.await();
                        return r.get(77).orElseThrow();
                    }));
                }
                for (Future<TestJob> f : results) {
                    assertThat(f.get(1, TimeUnit.MINUTES)).isEqualTo(job);
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(meters.get("jobinfo.load").timer().count()).as("store reads").isEqualTo(1);
        }
    }

    @Test
    void concurrentReadersOfAJobTooBigToCacheShareOneStoreRead() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        CacheConfig cache = CacheConfig.of(4L << 20, 100_000, Duration.ofMinutes(5));
        ReadCountingStore store = new ReadCountingStore(LocalJobInfoStore.open(dir.resolve("big-single-flight"),
                null, true, true));
        try (RunningJobInfoRegistry<TestJob> r = RunningJobInfoRegistry
                .builder(cluster.nonMaster(), store, CODEC).mapName("big-single-flight").cache(cache)
                .meterRegistry(meters).build()) {
            TestJob big = new TestJobGenerator(9).generate(78, 400_000);
            r.submit(78, big);
            int readers = 12;
            List<Thread> threads = new ArrayList<>();
            List<Future<TestJob>> results = new ArrayList<>();
            CyclicBarrier start = new CyclicBarrier(readers);
            // the first store read is held until every other reader waits for the load in flight (or 10 s passed)
            store.holdFirstRead(() -> threads.size() == readers && threads.stream()
                    .filter(RegistryCacheBehaviourTest::waitsForALoadInFlight).count() == readers - 1, 10_000);
            ExecutorService pool = Executors.newFixedThreadPool(readers, task -> {
                Thread t = new Thread(task);
                synchronized (threads) {
                    threads.add(t);
                }
                return t;
            });
            try {
                for (int i = 0; i < readers; i++) {
                    results.add(pool.submit(() -> {
                        start.await();
                        return r.get(78).orElseThrow();
                    }));
                }
                for (Future<TestJob> f : results) {
                    assertThat(f.get(1, TimeUnit.MINUTES)).isEqualTo(big);
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(store.reads()).as("store reads of %d concurrent readers", readers).isEqualTo(1);
            assertThat(meters.get("jobinfo.load").timer().count()).isEqualTo(1);
            assertThat(r.cachedBytes()).as("too big to cache").isZero();
        }
    }

    /** Whether {@code t} is parked waiting for another thread's load (a CompletableFuture, from the registry). */
    private static boolean waitsForALoadInFlight(Thread t) {
        boolean joining = false;
        boolean inRegistry = false;
        for (StackTraceElement e : t.getStackTrace()) {
            joining |= e.getClassName().equals("java.util.concurrent.CompletableFuture")
                    && (e.getMethodName().equals("join") || e.getMethodName().equals("get"));
            inRegistry |= e.getClassName().startsWith("io.jobinfo.store.service.");
        }
        return joining && inRegistry;
    }

    @Test
    void theMapEventOfAnOwnSubmitKeepsWhatTheSubmitCachedButOtherChangesEvictIt() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (RunningJobInfoRegistry<TestJob> r = registry("own-adds", CacheConfig.defaults(),
                meters)) {
            TestJob job = new TestJobGenerator(8).generate(5, 30_000);
            r.submit(5, job);
            OwnAddEvents.awaitArrived(r, 5);
            assertThat(r.get(5)).contains(job);
            assertThat(meters.get("jobinfo.load").timer().count()).as("store reads").isZero();

            // a change made by someone else (here: straight through the map) evicts it
            r.map().put(5L, new InlineJobInfo(9, CODEC.id(), CODEC.encode(job)));
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(r.cachedBytes()).isZero());
            assertThat(r.get(5)).contains(job);
            assertThat(meters.get("jobinfo.load").timer().count()).isEqualTo(1);
        }
    }

    @Test
    void aJobAboveTheEntryBoundIsServedButNeverCached() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        CacheConfig cache = CacheConfig.of(4L << 20, 100_000, Duration.ofMinutes(5));
        try (RunningJobInfoRegistry<TestJob> r = registry("entry-bound", cache, meters)) {
            TestJob big = new TestJobGenerator(6).generate(1, 300_000);
            TestJob small = new TestJobGenerator(6).generate(2, 50_000);
            r.submit(1, big);
            r.submit(2, small);
            OwnAddEvents.awaitArrived(r, 1, 2);
            r.invalidateAll();

            assertThat(r.get(1)).contains(big);
            assertThat(r.get(1)).contains(big);
            assertThat(r.cachedBytes()).isZero();
            assertThat(r.get(2)).contains(small);
            assertThat(r.get(2)).contains(small);
            assertThat(r.cachedBytes()).isBetween(50_000L, 100_000L);
            assertThat(meters.get("jobinfo.load").timer().count()).isEqualTo(3); // big twice, small once
        }
    }

    @Test
    void aCacheBoundOfZeroServesEveryReadFromTheStore() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (RunningJobInfoRegistry<TestJob> r = registry("no-cache",
                CacheConfig.of(0, 0, Duration.ofMinutes(5)), meters)) {
            TestJob job = new TestJobGenerator(7).generate(3, 20_000);
            r.submit(3, job);
            for (int i = 0; i < 3; i++) {
                assertThat(r.get(3)).contains(job);
            }
            assertThat(r.cachedBytes()).isZero();
            assertThat(meters.get("jobinfo.load").timer().count()).isEqualTo(3);
        }
    }
}
