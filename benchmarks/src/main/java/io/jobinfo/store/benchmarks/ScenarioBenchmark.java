package io.jobinfo.store.benchmarks;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.demo.embedded.InJvmCluster;
import io.jobinfo.store.demo.model.JobImmutableInformationSerializer;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.ReadVerification;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.lifecycle.InlineJobInfo;
import io.jobinfo.store.service.RestoreReport;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Items 1-3 of the report, side by side in every round: the inline baseline ({@code IMap<Long, InlineJobInfo>}, one
 * synchronous backup) and pointer + store on each backend, each on a fresh cluster of its own, with the anchors
 * (bare durable write, raw read of the same bytes) measured in the same round.
 */
final class ScenarioBenchmark {

    static final String INLINE_MAP = "bench_inline_runningJobInfo";
    /** The map of the composite anchor's bare puts (durable write, then {@code putIfAbsent}). */
    static final String ANCHOR_PUT_MAP = "bench_anchor_puts";
    /** The size of the composite anchor's value: about a serialized pointer (384 bytes per job with the backup). */
    static final int POINTER_BYTES = 160;

    private final BenchOptions o;
    private final Metrics m;
    private final List<Variant> variants = new ArrayList<>();
    private final Path workDir;
    private final KryoJobInfoCodec<JobImmutableInformation> codec = JobImmutableInformationSerializer.codec();
    private final Map<Long, JobImmutableInformation> jobs = new LinkedHashMap<>();
    private final long[] ids;
    private long envelopeBytes;
    private long payloadBytes;

    ScenarioBenchmark(BenchOptions o, Metrics m, List<Backend> backends, Path workDir) {
        this.o = o;
        this.m = m;
        for (Backend b : backends) {
            boolean delayed = b.name().startsWith("s3-delay");
            variants.add(new Variant(b.name(), b, ReadVerification.FULL));
            if (o.variants && !delayed && o.verifications.contains("crc32c")) {
                variants.add(new Variant(b.name() + "-crc32c", b, ReadVerification.CRC32C));
            }
        }
        this.workDir = workDir;
        JobGenerator generator = new JobGenerator(42);
        ids = new long[o.jobs];
        for (int i = 0; i < o.jobs; i++) {
            long id = 880_000_000_000_000L + i * 7919L;
            JobImmutableInformation job = generator.generate(id, o.blobBytes);
            jobs.put(id, job);
            ids[i] = id;
            int len = codec.encode(job).length;
            payloadBytes += len;
            envelopeBytes += EnvelopeHeader.LENGTH + len;
        }
        m.add("jobs.payloadBytesPerJob", "bytes", (double) payloadBytes / o.jobs);
    }

    void run() throws Exception {
        for (int r = 1; r <= o.rounds; r++) {
            log("round %d/%d: inline baseline", r, o.rounds);
            inlineRound();
            for (Variant v : variants) {
                log("round %d/%d: pointer + %s store (%s verification)", r, o.rounds, v.backend().name(),
                        v.verification());
                pointerRound(r, v);
            }
        }
    }

    private void inlineRound() {
        try (InJvmCluster cluster = new InJvmCluster(o.members, BenchmarkMain.CLUSTER_PORT, "jobinfo-bench")) {
            HazelcastInstance master = cluster.master();
            HazelcastInstance successor = cluster.successor();
            IMap<Long, InlineJobInfo> map = master.getMap(INLINE_MAP);
            gc();
            long[] lat = new long[ids.length];
            for (int i = 0; i < ids.length; i++) {
                JobImmutableInformation job = jobs.get(ids[i]);
                long t0 = System.nanoTime();
                byte[] encoded = codec.encode(job);
                map.put(ids[i], new InlineJobInfo(System.currentTimeMillis(), codec.id(), encoded));
                lat[i] = System.nanoTime() - t0;
            }
            latencies("submit.inline", lat);
            m.add("memory.inline", "bytes/job", (double) cluster.entryMemoryCost(INLINE_MAP) / ids.length);

            gc();
            Member killed = master.getCluster().getLocalMember();
            long t0 = System.nanoTime();
            master.getLifecycleService().terminate();
            long detected = awaitRemoved(successor, killed);
            IMap<Long, InlineJobInfo> survivor = successor.getMap(INLINE_MAP);
            long bytes = 0;
            int count = 0;
            for (Map.Entry<Long, InlineJobInfo> e : survivor.entrySet()) {
                bytes += e.getValue().encodedLength();
                count++;
            }
            double took = (System.nanoTime() - t0) / 1e6;
            if (count != ids.length || bytes != payloadBytes) {
                throw new IllegalStateException("inline baseline: " + count + " entries of " + bytes
                        + " bytes after the kill, expected " + ids.length + " of " + payloadBytes);
            }
            m.add("restore.inline.killToAll", "ms", took);
            m.add("restore.inline.detect", "ms", (detected - t0) / 1e6);
            m.add("restore.inline.afterDetect", "ms", took - (detected - t0) / 1e6);
            log("  inline: %.0f bytes/job, put p99 %.2f ms, kill -> entrySet %.0f ms (failure detected after %.0f ms)",
                    m.values("memory.inline").get(m.values("memory.inline").size() - 1),
                    last("submit.inline.p99"), took, (detected - t0) / 1e6);
        }
    }

    /** One pointer variant: a backend and the registry's read verification; {@code name} keys its metrics. */
    record Variant(String name, Backend backend, ReadVerification verification) {
    }

    /** The names of the pointer variants, in run order (backends first, each followed by its extra variants). */
    List<String> variantNames() {
        return variants.stream().map(Variant::name).toList();
    }

    private void pointerRound(int round, Variant variant) throws Exception {
        String ns = "round-" + round;
        String name = variant.name();
        Backend backend = variant.backend();
        // the re-based submit target's anchor (issue 28 item 3), on every plain backend at full verification
        boolean anchored = variant.verification() == ReadVerification.FULL && !(backend instanceof DelayedS3Backend);
        PointerCluster.run(o.members, "jobinfo-bench", backend, ns, c -> {
            SubmitPhases phases = new SubmitPhases(ids.length);
            RunningJobInfoRegistry<JobImmutableInformation> registry =
                    RunningJobInfoRegistry.builder(c.master(), c.masterStore(), codec).submitPhaseListener(phases)
                            .build();
            BareDurableWrite anchor = anchored ? BareDurableWrite.forStore(backend.config(ns),
                    workDir.resolve("anchor-" + round)) : null;
            gc();
            long[] lat = new long[ids.length];
            long[] anchorLat = new long[ids.length];
            long[] anchorPutLat = new long[ids.length];
            long[] anchorBothLat = new long[ids.length];
            IMap<Long, byte[]> bareMap = c.master().getMap(ANCHOR_PUT_MAP);
            for (int i = 0; i < ids.length; i++) {
                JobImmutableInformation job = jobs.get(ids[i]);
                if (anchor != null) {
                    // the same bytes, the bare system calls, interleaved job by job with the real submits; then a
                    // bare putIfAbsent of a pointer-sized value on the same cluster: the floor of any design that
                    // makes the blob durable before it publishes the pointer
                    byte[] envelope = BlobEnvelope.wrap(ids[i], codec.id(), codec.encode(job));
                    byte[] pointerSized = new byte[POINTER_BYTES];
                    anchorLat[i] = anchor.write(envelope);
                    long p0 = System.nanoTime();
                    bareMap.putIfAbsent(ids[i], pointerSized);
                    anchorPutLat[i] = System.nanoTime() - p0;
                    anchorBothLat[i] = anchorLat[i] + anchorPutLat[i];
                }
                phases.start(i);
                registry.submit(ids[i], job);
                lat[i] = phases.end();
            }
            latencies("submit." + name, lat);
            double[] tail = phases.tailMeans(lat, 0.01);
            StringBuilder sb = new StringBuilder();
            for (int j = 0; j < SubmitPhases.PARTS.length; j++) {
                double p99 = phases.quantile(j, 0.99) / 1e6;
                m.add("submit." + name + ".tail." + SubmitPhases.PARTS[j], "ms", tail[j] / 1e6);
                m.add("submit." + name + ".p99." + SubmitPhases.PARTS[j], "ms", p99);
                sb.append(String.format(" %s %.2f (p99 %.2f)", SubmitPhases.PARTS[j], tail[j] / 1e6, p99));
            }
            log("  %s: slowest 1%% of submits, mean ms:%s", name, sb);
            if (anchor != null) {
                String a = anchorPrefix(name);
                latencies(a + "durableWrite", anchorLat);
                latencies(a + "putAfterWrite", anchorPutLat);
                latencies(a + "durableWriteThenPut", anchorBothLat);
                anchor.close();
            }
            m.add("memory." + name, "bytes/job", (double) c.cluster().entryMemoryCost(
                    RunningJobInfoRegistry.DEFAULT_MAP_NAME) / ids.length);

            // kill the master; the successor's coordinator starts cold and restores every job
            gc();
            Map<Long, JobImmutableInformation> restored = new ConcurrentHashMap<>();
            Member killed = c.master().getCluster().getLocalMember();
            long t0 = System.nanoTime();
            c.master().getLifecycleService().terminate();
            long detected = awaitRemoved(c.successor(), killed);
            RunningJobInfoRegistry.Builder<JobImmutableInformation> nb = RunningJobInfoRegistry
                    .builder(c.successor(), c.successorStore(), codec).readVerification(variant.verification());
            if (o.restoreParallelismGiven) {
                nb.restoreParallelism(o.restoreParallelism);
            }
            long buildStart = System.nanoTime();
            RunningJobInfoRegistry<JobImmutableInformation> newMaster = nb.build();
            double buildMs = (System.nanoTime() - buildStart) / 1e6;
            RestoreReport report = newMaster.restoreAll((id, ts, job) -> restored.put(id, job));
            double took = (System.nanoTime() - t0) / 1e6;
            m.add("restore." + name + ".registryBuild", "ms", buildMs);
            m.add("restore." + name + ".restoreAll", "ms", report.duration().toNanos() / 1e6);
            newMaster.close();
            verify(name, report, restored);
            m.add("restore." + name + ".killToAll", "ms", took);
            m.add("restore." + name + ".loaders", "threads", newMaster.restoreParallelism());
            m.add("restore." + name + ".detect", "ms", (detected - t0) / 1e6);
            m.add("restore." + name + ".afterDetect", "ms", took - (detected - t0) / 1e6);
            log("  %s: %.0f bytes/job, submit p99 %.2f ms%s, kill -> restored %.0f ms (detected after %.0f ms,"
                    + " registry built in %.0f ms, restoreAll %.0f ms)", name, last("memory." + name),
                    last("submit." + name + ".p99"), anchored ? String.format(" (bare durable write p99 %.2f ms)",
                            last(anchorPrefix(name) + "durableWrite.p99")) : "", took, (detected - t0) / 1e6, buildMs,
                    report.duration().toNanos() / 1e6);

            c.cluster().awaitSize(o.members - 1);
            new RestoreSweep(o, m, codec, ids, envelopeBytes, this::verify).run(c, variant, restored);
        });
    }

    /**
     * Waits until {@code survivor} has dropped {@code killed} from its member list: the moment a coordinator learns
     * that it is the new master (SeaTunnel reacts to that membership change). Returns that moment in nanoTime.
     */
    static long awaitRemoved(HazelcastInstance survivor, Member killed) {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (survivor.getCluster().getMembers().contains(killed)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the survivors never noticed the killed master");
            }
            LockSupport.parkNanos(100_000);
        }
        return System.nanoTime();
    }

    private void verify(String name, RestoreReport report, Map<Long, JobImmutableInformation> restored) {
        if (!report.failed().isEmpty() || report.restored().size() != ids.length || restored.size() != ids.length) {
            throw new IllegalStateException(name + ": restored " + report.restored().size() + " of " + ids.length
                    + ", failed " + report.failed());
        }
        for (long id : ids) {
            if (!jobs.get(id).equals(restored.get(id))) {
                throw new IllegalStateException(name + ": job " + id + " differs from what was submitted");
            }
        }
    }

    /** The metric prefix of a variant's bare-write anchor: {@code anchor.<variant>.}. */
    static String anchorPrefix(String variant) {
        return "anchor." + variant + ".";
    }

    private void latencies(String prefix, long[] nanos) {
        m.add(prefix + ".p50", "ms", Metrics.percentileMillis(nanos, 0.50));
        m.add(prefix + ".p99", "ms", Metrics.percentileMillis(nanos, 0.99));
        m.add(prefix + ".max", "ms", Metrics.percentileMillis(nanos, 1.0));
    }

    private double last(String key) {
        List<Double> v = m.values(key);
        return v.isEmpty() ? Double.NaN : v.get(v.size() - 1);
    }

    long envelopeBytes() {
        return envelopeBytes;
    }

    /**
     * Milliseconds this JVM's garbage collectors have spent so far: their {@code getCollectionTime}, summed (on
     * JDK 17 the collectors' pauses; concurrent work only where a collector's bean counts it).
     */
    static long gcMillis() {
        long t = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            t += Math.max(0, b.getCollectionTime());
        }
        return t;
    }

    static void gc() {
        System.gc();
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    static void log(String format, Object... args) {
        System.out.printf(format + "%n", args);
        System.out.flush();
    }
}
