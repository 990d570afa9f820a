package io.jobinfo.store.benchmarks;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.demo.embedded.InJvmCluster;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.demo.model.JobImmutableInformationSerializer;
import io.jobinfo.store.lifecycle.InlineJobInfo;
import io.jobinfo.store.service.RestoreReport;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import java.lang.management.ManagementFactory;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Item 7 of the report: the kill scenario of items 1-3 at several job counts (default 1,000, 3,000 and 10,000 jobs of
 * the run's blob size), {@code --scale-rounds} rounds of every count (medians): cluster IMap bytes per job, submit p99, kill -> every job restored, and
 * the heap the restore needs. Inline runs only at counts whose map fits this JVM's heap ({@link #inlineFits}); the
 * pointer variants run on the stores of {@code --scale-stores}.
 *
 * <p>Jobs are generated per id (the generator is deterministic), never all held at once: the submit side keeps the
 * SHA-256 of each encoded job, and every restored job is re-encoded and compared with it after the clock stopped. The
 * restored jobs are held until then, as a coordinator holds its running jobs.
 *
 * <p>Heap: all members run in this JVM, so the heap figures are the JVM's: <em>retained</em> is the live heap (after
 * a full GC) with every restored job held, minus the same just before the kill; <em>high-water</em> is the sum of the
 * heap pools' peaks from the kill to the last job restored (garbage included) minus the live heap before the kill.
 * For the pointer variants the other members hold pointers only, so both are the restoring side's.
 *
 * <p>Failures: a job that is not restored or differs from what was submitted stops the run with an exception naming
 * the variant and the job.
 */
final class ScaleBenchmark {

    private final BenchOptions o;
    private final Metrics m;
    private final List<Backend> backends;
    private final KryoJobInfoCodec<JobImmutableInformation> codec = JobImmutableInformationSerializer.codec();

    ScaleBenchmark(BenchOptions o, Metrics m, List<Backend> backends) {
        this.o = o;
        this.m = m;
        this.backends = backends;
    }

    /** Metric key prefix of one variant at one job count, e.g. {@code scale.local.3000}. */
    static String key(String variant, int jobs) {
        return "scale." + variant + "." + jobs;
    }

    /**
     * Whether the inline map of {@code jobs} jobs fits: two copies in the cluster, the copy {@code entrySet()}
     * materialises and one more in flight while partitions migrate after the kill, within 60% of the max heap.
     */
    static boolean inlineFits(int jobs, int blobBytes) {
        return 4.0 * jobs * blobBytes < 0.6 * Runtime.getRuntime().maxMemory();
    }

    void run() throws Exception {
        for (int round = 1; round <= o.scaleRounds(); round++) {
            for (int n : o.scaleJobs) {
                count(n, round);
            }
        }
    }

    private void count(int n, int round) throws Exception {
        if (inlineFits(n, o.blobBytes)) {
            ScenarioBenchmark.log("scale %d jobs, round %d: inline baseline", n, round);
            inline(n);
        } else if (round == 1) {
            ScenarioBenchmark.log("scale %d jobs: inline skipped (the map would not fit %d MiB of heap)", n,
                    Runtime.getRuntime().maxMemory() >> 20);
            m.add("scale.inline." + n + ".skipped", "", 1);
        }
        for (Backend b : backends) {
            if (o.scaleStores.contains(b.name())) {
                ScenarioBenchmark.log("scale %d jobs, round %d: pointer + %s", n, round, b.name());
                pointer(n, b);
            }
        }
    }

    private long[] ids(int n) {
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = 660_000_000_000_000L + i * 7919L;
        }
        return ids;
    }

    private void inline(int n) throws Exception {
        long[] ids = ids(n);
        byte[][] digests = new byte[n][];
        JobGenerator generator = new JobGenerator(42);
        try (InJvmCluster cluster = new InJvmCluster(o.members, BenchmarkMain.CLUSTER_PORT, "jobinfo-scale")) {
            HazelcastInstance master = cluster.master();
            HazelcastInstance successor = cluster.successor();
            IMap<Long, InlineJobInfo> map = master.getMap(ScenarioBenchmark.INLINE_MAP);
            ScenarioBenchmark.gc();
            long[] lat = new long[n];
            for (int i = 0; i < n; i++) {
                JobImmutableInformation job = generator.generate(ids[i], o.blobBytes);
                long t0 = System.nanoTime();
                byte[] encoded = codec.encode(job);
                map.put(ids[i], new InlineJobInfo(System.currentTimeMillis(), codec.id(), encoded));
                lat[i] = System.nanoTime() - t0;
                digests[i] = sha256(encoded);
            }
            String k = key("inline", n);
            m.add(k + ".submitP99", "ms", Metrics.percentileMillis(lat, 0.99));
            m.add(k + ".clusterBytesPerJob", "bytes/job", (double) cluster.entryMemoryCost(
                    ScenarioBenchmark.INLINE_MAP) / n);

            MasterKill kill = new MasterKill(master, successor);
            IMap<Long, InlineJobInfo> survivor = successor.getMap(ScenarioBenchmark.INLINE_MAP);
            List<Map.Entry<Long, InlineJobInfo>> all = new ArrayList<>(survivor.entrySet());
            kill.restored();
            if (all.size() != n) {
                throw new IllegalStateException("scale inline " + n + ": " + all.size() + " entries after the kill");
            }
            for (Map.Entry<Long, InlineJobInfo> e : all) {
                int i = Arrays.binarySearch(ids, e.getKey());
                if (i < 0 || !Arrays.equals(digests[i], sha256(e.getValue().encodedJob()))) {
                    throw new IllegalStateException("scale inline " + n + ": job " + e.getKey() + " differs");
                }
            }
            kill.record(k, n);
        }
    }

    private void pointer(int n, Backend backend) throws Exception {
        long[] ids = ids(n);
        byte[][] digests = new byte[n][];
        JobGenerator generator = new JobGenerator(42);
        String ns = "scale-" + n;
        PointerCluster.run(o.members, "jobinfo-scale", backend, ns, c -> {
            RunningJobInfoRegistry<JobImmutableInformation> registry =
                    RunningJobInfoRegistry.builder(c.master(), c.masterStore(), codec).build();
            ScenarioBenchmark.gc();
            long[] lat = new long[n];
            for (int i = 0; i < n; i++) {
                JobImmutableInformation job = generator.generate(ids[i], o.blobBytes);
                long t0 = System.nanoTime();
                registry.submit(ids[i], job);
                lat[i] = System.nanoTime() - t0;
                digests[i] = sha256(codec.encode(job));
            }
            String k = key(backend.name(), n);
            m.add(k + ".submitP99", "ms", Metrics.percentileMillis(lat, 0.99));
            m.add(k + ".clusterBytesPerJob", "bytes/job", (double) c.cluster().entryMemoryCost(
                    RunningJobInfoRegistry.DEFAULT_MAP_NAME) / n);

            AtomicReferenceArray<JobImmutableInformation> restored = new AtomicReferenceArray<>(n);
            MasterKill kill = new MasterKill(c.master(), c.successor());
            RestoreReport report;
            try (RunningJobInfoRegistry<JobImmutableInformation> newMaster = RunningJobInfoRegistry
                    .builder(c.successor(), c.successorStore(), codec).restoreParallelism(o.restoreParallelism)
                    .build()) {
                report = newMaster.restoreAll((id, ts, job) -> restored.set(Arrays.binarySearch(ids, id), job));
                kill.restored(); // the retained heap includes the registry's cache, as on a real master
                if (!report.failed().isEmpty() || report.restored().size() != n) {
                    throw new IllegalStateException("scale " + backend.name() + " " + n + ": restored "
                            + report.restored().size() + ", failed " + report.failed());
                }
                for (int i = 0; i < n; i++) {
                    JobImmutableInformation job = restored.get(i);
                    if (job == null || !Arrays.equals(digests[i], sha256(codec.encode(job)))) {
                        throw new IllegalStateException("scale " + backend.name() + " " + n + ": job " + ids[i]
                                + " differs from what was submitted");
                    }
                }
                kill.record(k, n);
            }
        });
    }

    /**
     * The kill of the master, timed from its terminate: the live heap before it, then the GC pauses and heap
     * high-water while the jobs come back, and what stays retained once they are.
     */
    private final class MasterKill {
        private final long liveBefore = liveHeap();
        private final long gc0;
        private final long t0;
        private double restoreMs;
        private long restoreGcMs;
        private long highWater;
        private long retained;

        /** Terminates {@code master} and waits until {@code successor} sees it gone; the clock starts first. */
        MasterKill(HazelcastInstance master, HazelcastInstance successor) {
            HeapPools.resetPeaks();
            Member killed = master.getCluster().getLocalMember();
            gc0 = ScenarioBenchmark.gcMillis();
            t0 = System.nanoTime();
            master.getLifecycleService().terminate();
            ScenarioBenchmark.awaitRemoved(successor, killed);
        }

        /** Stops the clock once every job is back and takes the heap readings (a full GC for the retained heap). */
        void restored() {
            restoreMs = (System.nanoTime() - t0) / 1e6;
            restoreGcMs = ScenarioBenchmark.gcMillis() - gc0;
            highWater = HeapPools.peakHeapUsed() - liveBefore;
            retained = liveHeap() - liveBefore;
        }

        /** Records the readings of {@link #restored()} under {@code k}, for {@code n} jobs, once they checked out. */
        void record(String k, int n) {
            m.add(k + ".restoreGcMs", "ms", restoreGcMs);
            ScaleBenchmark.this.record(k, n, restoreMs, highWater, retained);
        }
    }

    private void record(String k, int n, double restoreMs, long highWater, long retained) {
        m.add(k + ".restoreMs", "ms", restoreMs);
        m.add(k + ".heapHighWaterPerJob", "bytes/job", (double) highWater / n);
        m.add(k + ".heapRetainedPerJob", "bytes/job", (double) retained / n);
        ScenarioBenchmark.log("  %s: %.0f cluster bytes/job, submit p99 %.2f ms, kill -> restored %.0f ms, heap"
                + " high-water %.0f KiB/job, retained %.0f KiB/job", k, m.median(k + ".clusterBytesPerJob"),
                m.median(k + ".submitP99"), restoreMs, highWater / 1024.0 / n, retained / 1024.0 / n);
    }

    private static byte[] sha256(byte[] bytes) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(bytes);
    }

    private static long liveHeap() {
        ScenarioBenchmark.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
