package io.jobinfo.store.service;

import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.lifecycle.InlineJobInfo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.hazelcast.core.DistributedObject;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.local.LocalJobInfoStore;
import io.jobinfo.store.testing.TestJobGenerator;
import io.jobinfo.store.testing.TestJob;
import io.jobinfo.store.spi.BlobAlreadyExistsException;
import io.jobinfo.store.spi.CorruptBlobException;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.StoredBlob;
import io.jobinfo.store.testing.HazelcastTestCluster;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry on a real 3-member Hazelcast cluster in this JVM, over a real local store. The tests share one cluster
 * (each on a map of its own, destroyed after it), but for the master's crash, which gets a cluster of its own.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RunningJobInfoRegistryClusterTest {

    private static final KryoJobInfoCodec<TestJob> CODEC = TestJob.codec();
    private static final TestJobGenerator GENERATOR = new TestJobGenerator(2026);

    @TempDir
    Path dir;

    private static HazelcastTestCluster shared;
    private HazelcastTestCluster cluster;
    private final String map = "jobs-" + System.nanoTime();
    private final List<JobInfoStore> stores = new ArrayList<>();
    private final Map<HazelcastInstance, RunningJobInfoRegistry<TestJob>> registries =
            new HashMap<>();

    @BeforeAll
    static void startCluster() {
        shared = new HazelcastTestCluster(3);
    }

    @AfterAll
    static void stopCluster() {
        shared.close();
    }

    @BeforeEach
    void useSharedCluster() {
        cluster = shared;
    }

    @AfterEach
    void closeRegistries() throws Exception {
        registries.values().forEach(RunningJobInfoRegistry::close);
        for (JobInfoStore s : stores) {
            s.close();
        }
        if (cluster == shared) {
            cluster.master().getDistributedObjects().forEach(DistributedObject::destroy);
        } else {
            cluster.close();
        }
    }

    private RunningJobInfoRegistry<TestJob> registry(HazelcastInstance member, CacheConfig cache)
            throws JobInfoStoreException {
        LocalJobInfoStore store = LocalJobInfoStore.open(dir.resolve("store"), null, true, true);
        stores.add(store);
        RunningJobInfoRegistry<TestJob> r = RunningJobInfoRegistry.builder(member, store, CODEC)
                .mapName(map).cache(cache).restoreParallelism(8).build();
        registries.put(member, r);
        return r;
    }

    private RunningJobInfoRegistry<TestJob> registry(HazelcastInstance member)
            throws JobInfoStoreException {
        return registry(member, CacheConfig.defaults());
    }

    @Test
    void pointerSerializesToAtMost96Bytes() throws Exception {
        SerializationService ss = ((SerializationServiceSupport) cluster.master()).getSerializationService();
        TestJob job = GENERATOR.generate(Long.MIN_VALUE, 200_000);
        var header = io.jobinfo.store.envelope.BlobEnvelope.headerFor(job.jobId(), 1, CODEC.encode(job));
        JobInfoPointer longestStoreId = new JobInfoPointer(job.jobId(), Long.MAX_VALUE, "abcdefghijklmnop", header);
        JobInfoPointer derivedStoreId = new JobInfoPointer(job.jobId(), Long.MAX_VALUE, "1a2b3c4d", header);

        assertThat(ss.toData(longestStoreId).totalSize()).isLessThanOrEqualTo(96);
        assertThat(ss.toData(derivedStoreId).totalSize()).isLessThanOrEqualTo(96);
        assertThat((Object) ss.toObject(ss.toData(longestStoreId))).isEqualTo(longestStoreId);
    }

    @Test
    void everyJobSurvivesTheMastersCrashAndIsReadBackByteIdenticalOnAnotherMember() throws Exception {
        cluster = new HazelcastTestCluster(3);
        HazelcastInstance master = cluster.master();
        RunningJobInfoRegistry<TestJob> onMaster = registry(master);
        Map<Long, byte[]> submitted = new HashMap<>();
        for (long id = 1; id <= 40; id++) {
            TestJob job = GENERATOR.generate(id, 200_000);
            onMaster.submit(id, job);
            submitted.put(id, CODEC.encode(job));
        }

        registries.remove(master).close();
        cluster.terminate(master);
        HazelcastInstance newMaster = cluster.master();
        RunningJobInfoRegistry<TestJob> onNewMaster = registry(newMaster);

        Map<Long, byte[]> restored = new ConcurrentHashMap<>();
        RestoreReport report = onNewMaster.restoreAll((id, ts, job) -> restored.put(id, CODEC.encode(job)));

        assertThat(report.failed()).isEmpty();
        assertThat(report.restored()).containsExactlyInAnyOrderElementsOf(submitted.keySet());
        for (Map.Entry<Long, byte[]> e : submitted.entrySet()) {
            assertThat(restored.get(e.getKey())).as("job %d", e.getKey()).isEqualTo(e.getValue());
        }
        // the restore warmed the cache: reads are hits and make no call to the map
        long getsBefore = cluster.getOperations(map);
        long hitsBefore = onNewMaster.cacheStats().hitCount();
        for (long id : submitted.keySet()) {
            assertThat(CODEC.encode(onNewMaster.get(id).orElseThrow())).isEqualTo(submitted.get(id));
        }
        assertThat(onNewMaster.cacheStats().hitCount() - hitsBefore).isEqualTo(submitted.size());
        assertThat(cluster.getOperations(map)).isEqualTo(getsBefore);
    }

    @Test
    void theCacheNeverHoldsMoreThanItsBoundUnderConcurrentReaders() throws Exception {
        long bound = 1L << 20;
        RunningJobInfoRegistry<TestJob> r = registry(cluster.master(),
                CacheConfig.of(bound, 256 * 1024, Duration.ofMinutes(5)));
        int jobs = 40;
        int blob = 100_000;
        for (long id = 0; id < jobs; id++) {
            r.submit(id, GENERATOR.generate(id, blob));
        }
        AtomicLong highWater = new AtomicLong();
        ExecutorService readers = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int seed = t;
                futures.add(readers.submit(() -> {
                    Random random = new Random(seed);
                    for (int i = 0; i < 300; i++) {
                        long id = random.nextInt(jobs);
                        assertThat(r.get(id)).get().extracting(TestJob::jobId).isEqualTo(id);
                        highWater.accumulateAndGet(r.cachedBytes(), Math::max);
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(3, TimeUnit.MINUTES);
            }
        } finally {
            readers.shutdownNow();
        }
        assertThat(highWater.get()).isPositive().isLessThanOrEqualTo(bound + blob + 1024);
        assertThat(r.cacheStats().evictionCount()).isPositive();
    }

    @Test
    void aPointerEntryCostsAtLeast100TimesLessClusterMemoryThanAnInlineOne() throws Exception {
        RunningJobInfoRegistry<TestJob> r = registry(cluster.master());
        var inlineMap = cluster.master().<Long, Object>getMap("inline_runningJobInfo");
        int jobs = 20;
        for (long id = 0; id < jobs; id++) {
            TestJob job = GENERATOR.generate(id, 200_000);
            r.submit(id, job);
            inlineMap.put(id, new InlineJobInfo(System.currentTimeMillis(), CODEC.id(), CODEC.encode(job)));
        }
        long pointerCost = cluster.entryMemoryCost(map);
        long inlineCost = cluster.entryMemoryCost("inline_runningJobInfo");
        assertThat(inlineCost / jobs).as("inline bytes per job").isGreaterThan(400_000);
        assertThat(pointerCost / jobs).as("pointer bytes per job").isLessThanOrEqualTo(410);
        assertThat(inlineCost).isGreaterThanOrEqualTo(100 * pointerCost);
    }

    @Test
    void aSecondSubmitIsIdempotentWithTheSameJobAndAnErrorWithAnother() throws Exception {
        RunningJobInfoRegistry<TestJob> r = registry(cluster.master());
        TestJob job = GENERATOR.generate(7, 20_000);
        JobInfoPointer first = r.submit(7, 1000, job);
        assertThat(r.submit(7, 1000, job)).isEqualTo(first);
        assertThatThrownBy(() -> r.submit(7, 1000, GENERATOR.generate(8, 20_000)))
                .isInstanceOf(BlobAlreadyExistsException.class).hasMessageContaining("jobId=7");
        assertThat(r.registeredValue(7)).isEqualTo(first);
        assertThat(r.get(7)).contains(job);
    }

    @Test
    void aFailedSubmitLeavesNoPointer() throws Exception {
        RunningJobInfoRegistry<TestJob> r = registry(cluster.master());
        r.store().close(); // the store now refuses every write
        assertThatThrownBy(() -> r.submit(9, GENERATOR.generate(9, 10_000)))
                .isInstanceOf(JobInfoStoreException.class).hasMessageContaining("closed");
        assertThat(r.registeredValue(9)).isNull();
        assertThat(r.runningJobIds()).isEmpty();
    }

    @Test
    void oneBrokenBlobFailsItsJobAloneDuringRestore() throws Exception {
        RunningJobInfoRegistry<TestJob> onMaster = registry(cluster.master());
        for (long id = 1; id <= 10; id++) {
            onMaster.submit(id, GENERATOR.generate(id, 30_000));
        }
        LocalJobInfoStore store = (LocalJobInfoStore) onMaster.store();
        byte[] bytes = Files.readAllBytes(store.path(4));
        bytes[bytes.length - 100] ^= 0x10;
        Files.write(store.path(4), bytes);
        Files.delete(store.path(6));

        RunningJobInfoRegistry<TestJob> other = registry(cluster.nonMaster());
        List<Long> restored = new ArrayList<>();
        RestoreReport report = other.restoreAll((id, ts, job) -> {
            synchronized (restored) {
                restored.add(id);
            }
        });

        assertThat(report.failed()).containsOnlyKeys(4L, 6L);
        assertThat(report.failed().get(4L)).isInstanceOf(CorruptBlobException.class)
                .hasMessageContaining("jobId=4").hasMessageContaining(store.location(4).toString());
        assertThat(report.failed().get(6L)).hasMessageContaining("jobId=6").hasMessageContaining(store.location(6).toString());
        assertThat(restored).containsExactlyInAnyOrder(1L, 2L, 3L, 5L, 7L, 8L, 9L, 10L);
    }

    @Test
    void removeDeletesPointerThenBlobAndOtherMembersStopServingIt() throws Exception {
        RunningJobInfoRegistry<TestJob> onMaster = registry(cluster.master());
        RunningJobInfoRegistry<TestJob> other = registry(cluster.nonMaster());
        TestJob job = GENERATOR.generate(12, 20_000);
        onMaster.submit(12, job);
        assertThat(other.get(12)).contains(job); // now cached on the other member

        assertThat(onMaster.remove(12)).isTrue();
        assertThat(onMaster.remove(12)).isFalse();
        assertThat(onMaster.registeredValue(12)).isNull();
        assertThat(onMaster.store().list()).extracting(StoredBlob::jobId).doesNotContain(12L);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(other.get(12)).isEmpty());
    }

    @Test
    void inlineValuesAreReadAlongsidePointers() throws Exception {
        RunningJobInfoRegistry<TestJob> r = registry(cluster.master());
        TestJob inlineJob = GENERATOR.generate(20, 50_000);
        r.map().put(20L, new InlineJobInfo(123, CODEC.id(), CODEC.encode(inlineJob)));
        TestJob pointed = GENERATOR.generate(21, 50_000);
        r.submit(21, pointed);

        assertThat(r.get(20)).contains(inlineJob);
        assertThat(r.get(21)).contains(pointed);
        Map<Long, Long> timestamps = new ConcurrentHashMap<>();
        RestoreReport report = registry(cluster.nonMaster()).restoreAll((id, ts, job) -> timestamps.put(id, ts));
        assertThat(report.restored()).containsExactlyInAnyOrder(20L, 21L);
        assertThat(timestamps.get(20L)).isEqualTo(123L);
    }

    @Test
    void metricsReportSubmitsCacheAndRestores() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        LocalJobInfoStore store = LocalJobInfoStore.open(dir.resolve("metered"), null, true, true);
        stores.add(store);
        try (RunningJobInfoRegistry<TestJob> r = RunningJobInfoRegistry
                .builder(cluster.master(), store, CODEC).mapName("metered").meterRegistry(meters).build()) {
            for (long id = 0; id < 5; id++) {
                r.submit(id, GENERATOR.generate(id, 10_000));
            }
            OwnAddEvents.awaitArrived(r, 0, 1, 2, 3, 4);
            r.invalidateAll();
            r.get(1);
            r.get(1);
            r.restoreAll((id, ts, job) -> { });
            assertThat(meters.get("jobinfo.submit").timer().count()).isEqualTo(5);
            assertThat(meters.get("jobinfo.restore").timer().count()).isEqualTo(1);
            assertThat(meters.get("cache.gets").tag("result", "hit").functionCounter().count()).isGreaterThan(0);
            assertThat(meters.get("jobinfo.cache.weight.bytes").gauge().value()).isGreaterThan(40_000);
        }
    }
}
