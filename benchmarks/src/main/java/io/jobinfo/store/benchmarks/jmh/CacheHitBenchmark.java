package io.jobinfo.store.benchmarks.jmh;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.demo.model.JobImmutableInformationSerializer;
import io.jobinfo.store.lifecycle.JobInfoSerialization;
import io.jobinfo.store.service.CacheLookup;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Item 4: {@code RunningJobInfoRegistry.get(jobId)} on a cache hit against {@code ConcurrentHashMap.get} on the same
 * keys, plus a bare Caffeine cache built like the registry's (to tell the registry's own cost from Caffeine's). The
 * registry runs on a real Hazelcast member with a local store; every measured call is a hit (checked in set-up). The
 * registry's benchmarks run once per {@link CacheLookup} ({@link Registry#lookup}, each in forks of its own, so the
 * JIT sees one lookup per JVM): the mirrored default and Caffeine's own lookup, side by side in one run.
 * The {@code TwoThreads} variants run the registry and its anchor on two threads ({@code @Threads(2)}; JMH reports the
 * sum of both threads' throughput); the others run on one thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CacheHitBenchmark {

    @Param("256")
    public int jobs;

    @Param("204800")
    public int jobBytes;

    private HazelcastInstance member;
    private JobInfoStore store;
    private Path dir;
    private ConcurrentHashMap<Long, JobImmutableInformation> map;
    private Cache<Long, JobImmutableInformation> caffeine;
    private long[] ids;
    private Long[] boxed;
    private int mask;

    /** The registry under test, built with {@link #lookup}. */
    @State(Scope.Benchmark)
    public static class Registry {
        @Param({"MIRRORED", "CAFFEINE"})
        public CacheLookup lookup;

        private RunningJobInfoRegistry<JobImmutableInformation> registry;

        @Setup(Level.Trial)
        public void setUp(CacheHitBenchmark b) throws Exception {
            registry = RunningJobInfoRegistry.builder(b.member, b.store, JobImmutableInformationSerializer.codec())
                    .mapName("jobinfo-jmh-" + lookup).cache(CacheConfig.defaults()).cacheLookup(lookup).build();
            JobGenerator generator = new JobGenerator(42);
            for (long id : b.ids) {
                registry.submit(id, generator.generate(id, b.jobBytes));
            }
            // the map's entry events invalidate this member's own submits asynchronously: let them pass, then load
            Thread.sleep(1000);
            for (long id : b.ids) {
                registry.get(id);
            }
            long hitsBefore = registry.cacheStats().hitCount();
            for (long id : b.ids) {
                registry.get(id);
            }
            long hits = registry.cacheStats().hitCount() - hitsBefore;
            if (hits != b.jobs) {
                throw new IllegalStateException("only " + hits + " of " + b.jobs + " warm gets were cache hits");
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            registry.close();
        }
    }

    @State(Scope.Thread)
    public static class Cursor {
        int i;

        /** Each thread starts elsewhere in the keys, so two threads do not walk the same entries in step. */
        @Setup(Level.Trial)
        public void start() {
            i = (int) (Thread.currentThread().getId() * 97);
        }
    }

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        if (Integer.bitCount(jobs) != 1) {
            throw new IllegalArgumentException("jobs must be a power of two");
        }
        mask = jobs - 1;
        Config config = JmhSupport.memberConfig("jobinfo-jmh-" + UUID.randomUUID(), 6101);
        member = Hazelcast.newHazelcastInstance(config);
        dir = Files.createTempDirectory("jobinfo-jmh-cache-");
        store = JobInfoStores.open(JobInfoStorageConfig.builder("local").namespace(dir.toString())
                .option("local.fsync", "false").build());
        map = new ConcurrentHashMap<>();
        caffeine = Caffeine.newBuilder().maximumWeight(CacheConfig.DEFAULT_MAX_BYTES)
                .weigher((Long k, JobImmutableInformation v) -> v.logicalDagLength() + 256)
                .expireAfterAccess(CacheConfig.DEFAULT_EXPIRE_AFTER_ACCESS).recordStats()
                .build();
        ids = new long[jobs];
        boxed = new Long[jobs];
        JobGenerator generator = new JobGenerator(42);
        for (int i = 0; i < jobs; i++) {
            long id = 990_000_000_000_000L + i * 7919L;
            ids[i] = id;
            boxed[i] = id;
            JobImmutableInformation job = generator.generate(id, jobBytes);
            map.put(id, job);
            caffeine.put(id, job);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        member.getLifecycleService().terminate();
        store.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Benchmark
    public Object registryGet(Registry r, Cursor c) throws Exception {
        return r.registry.get(ids[c.i++ & mask]);
    }

    @Benchmark
    public Object concurrentHashMapGet(Cursor c) {
        return map.get(boxed[c.i++ & mask]);
    }

    /** {@link #registryGet} on two threads at once (the score is the sum of both). */
    @Benchmark
    @Threads(2)
    public Object registryGetTwoThreads(Registry r, Cursor c) throws Exception {
        return r.registry.get(ids[c.i++ & mask]);
    }

    /** {@link #concurrentHashMapGet} on two threads at once: the anchor of {@link #registryGetTwoThreads}. */
    @Benchmark
    @Threads(2)
    public Object concurrentHashMapGetTwoThreads(Cursor c) {
        return map.get(boxed[c.i++ & mask]);
    }

    @Benchmark
    public Object caffeineGetIfPresent(Cursor c) {
        return caffeine.getIfPresent(boxed[c.i++ & mask]);
    }
}
