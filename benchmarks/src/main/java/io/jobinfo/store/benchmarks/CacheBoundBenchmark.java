package io.jobinfo.store.benchmarks;

import com.hazelcast.core.HazelcastInstance;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.demo.embedded.Directories;
import io.jobinfo.store.demo.embedded.InJvmCluster;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.demo.model.JobImmutableInformationSerializer;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStores;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;

/**
 * Item 6: many readers over many more jobs than the cache holds. The cache's weight is sampled by a sampler thread
 * and after every read; the heap's live set is sampled by forced full collections while the readers run.
 */
final class CacheBoundBenchmark {

    /** One point of the weight/heap timeline (seconds since the readers started). */
    record Sample(double seconds, long cacheBytes, long liveHeapBytes) {
    }

    private final BenchOptions o;
    private final Metrics m;
    private final Path workDir;
    final List<Sample> timeline = new ArrayList<>();

    CacheBoundBenchmark(BenchOptions o, Metrics m, Path workDir) {
        this.o = o;
        this.m = m;
        this.workDir = workDir;
    }

    void run() throws Exception {
        KryoJobInfoCodec<JobImmutableInformation> codec = JobImmutableInformationSerializer.codec();
        Path dir = workDir.resolve("cache-bound-store");
        // fsync off: this scenario is about the read side; the writes are set-up only
        JobInfoStorageConfig config = JobInfoStorageConfig.builder("local").namespace(dir.toString())
                .option("local.fsync", "false").build();
        long[] ids = new long[o.cacheJobs];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = 770_000_000_000_000L + i * 7919L;
        }
        try (InJvmCluster cluster = new InJvmCluster(o.members, BenchmarkMain.CLUSTER_PORT, "jobinfo-bench");
             JobInfoStore store = JobInfoStores.open(config)) {
            HazelcastInstance writerMember = cluster.master();
            HazelcastInstance readerMember = cluster.successor();
            ScenarioBenchmark.log("cache bound: submitting %d jobs of %d bytes", ids.length, o.blobBytes);
            AtomicLong maxPayload = new AtomicLong();
            try (RunningJobInfoRegistry<JobImmutableInformation> writer = RunningJobInfoRegistry
                    .builder(writerMember, store, codec).cache(CacheConfig.of(0, 0, Duration.ofMinutes(1))).build()) {
                JobGenerator generator = new JobGenerator(7);
                AtomicInteger next = new AtomicInteger();
                runThreads(2, () -> {
                    int i;
                    while ((i = next.getAndIncrement()) < ids.length) {
                        JobImmutableInformation job = generator.generate(ids[i], o.blobBytes);
                        long len = writer.submit(ids[i], job).payloadLength();
                        maxPayload.accumulateAndGet(len, Math::max);
                    }
                    return null;
                });
            }
            long bound = o.cacheMaxBytes;
            long oneEntry = maxPayload.get() + 256; // the registry's weight of the largest entry
            CacheConfig cacheConfig = CacheConfig.of(bound, Math.min(bound, CacheConfig.DEFAULT_MAX_ENTRY_BYTES),
                    CacheConfig.DEFAULT_EXPIRE_AFTER_ACCESS);
            try (RunningJobInfoRegistry<JobImmutableInformation> reader = RunningJobInfoRegistry
                    .builder(readerMember, store, codec).cache(cacheConfig).build()) {
                MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
                long liveBefore = liveHeap(memory);
                HeapPools.resetPeaks();
                LongAccumulator maxWeight = new LongAccumulator(Math::max, 0);
                AtomicLong gets = new AtomicLong();
                AtomicLong wrong = new AtomicLong();
                long start = System.nanoTime();
                long deadline = start + (long) (o.cacheSeconds * 1e9);
                ExecutorService readers = Executors.newFixedThreadPool(o.cacheReaders);
                List<Future<?>> fs = new ArrayList<>();
                for (int t = 0; t < o.cacheReaders; t++) {
                    int seed = t;
                    fs.add(readers.submit(() -> {
                        SplittableRandom random = new SplittableRandom(seed);
                        while (System.nanoTime() < deadline) {
                            long id = ids[random.nextInt(ids.length)];
                            Optional<JobImmutableInformation> job = reader.get(id);
                            if (job.isEmpty() || job.get().jobId() != id) {
                                wrong.incrementAndGet();
                            }
                            maxWeight.accumulate(reader.cachedBytes());
                            gets.incrementAndGet();
                        }
                        return null;
                    }));
                }
                // sampler: the weight every millisecond, the live heap (after a full collection) every ~10% of the run
                long liveMax = liveBefore;
                long nextGc = start + (long) (o.cacheSeconds * 1e8);
                while (System.nanoTime() < deadline) {
                    long w = reader.cachedBytes();
                    maxWeight.accumulate(w);
                    long live = -1;
                    if (System.nanoTime() >= nextGc) {
                        live = liveHeap(memory);
                        liveMax = Math.max(liveMax, live);
                        nextGc = System.nanoTime() + (long) (o.cacheSeconds * 1e8);
                    }
                    synchronized (timeline) {
                        if (live >= 0 || timeline.isEmpty()
                                || (System.nanoTime() - start) / 1e9 - timeline.get(timeline.size() - 1).seconds() > 0.05) {
                            timeline.add(new Sample((System.nanoTime() - start) / 1e9, w, live));
                        }
                    }
                    Thread.sleep(1);
                }
                for (Future<?> f : fs) {
                    f.get();
                }
                readers.shutdownNow();
                double secs = (System.nanoTime() - start) / 1e9;
                long liveAfter = liveHeap(memory);
                liveMax = Math.max(liveMax, liveAfter);
                if (wrong.get() > 0) {
                    throw new IllegalStateException(wrong.get() + " reads returned no job or the wrong job");
                }
                var stats = reader.cacheStats();
                m.add("cache.bound", "bytes", bound);
                m.add("cache.oneEntry", "bytes", oneEntry);
                m.add("cache.maxWeight", "bytes", maxWeight.get());
                m.add("cache.finalWeight", "bytes", reader.cachedBytes());
                m.add("cache.liveHeapGrowthMax", "bytes", liveMax - liveBefore);
                m.add("cache.peakHeapUsed", "bytes", HeapPools.peakHeapUsed());
                m.add("cache.liveHeapBefore", "bytes", liveBefore);
                m.add("cache.gets", "gets", gets.get());
                m.add("cache.getsPerSecond", "gets/s", gets.get() / secs);
                m.add("cache.hitRatio", "", stats.hitRate());
                m.add("cache.evictions", "entries", stats.evictionCount());
                m.add("cache.jobs", "jobs", ids.length);
                m.add("cache.readers", "threads", o.cacheReaders);
                ScenarioBenchmark.log("cache bound: %d gets in %.1f s, max weight %d of bound %d (+ one entry %d),"
                        + " live heap growth max %.1f MiB, hit ratio %.3f", gets.get(), secs, maxWeight.get(), bound,
                        oneEntry, (liveMax - liveBefore) / 1048576.0, stats.hitRate());
            }
        } finally {
            Directories.deleteRecursively(dir);
        }
    }

    private static long liveHeap(MemoryMXBean memory) {
        System.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }

    interface Task {
        Object call() throws Exception;
    }

    static void runThreads(int n, Task task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<Object>> fs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                fs.add(pool.submit(task::call));
            }
            for (Future<Object> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
