package io.jobinfo.store.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.jobinfo.store.cli.ByteSizeConverter;
import io.jobinfo.store.cli.JobInfoStoreCli;
import io.jobinfo.store.cli.ops.StorageConfigFile;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.config.ByteSize;
import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.demo.embedded.InJvmCluster;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.demo.model.JobImmutableInformationSerializer;
import io.jobinfo.store.lifecycle.InlineJobInfo;
import io.jobinfo.store.service.RestoreReport;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The main job: an embedded cluster, realistic jobs submitted through the registry, the master crashed, every job
 * restored and verified on the new master, and the figures that matter side by side.
 */
@Command(name = "demo", resourceBundle = "io.jobinfo.store.demo.DemoCommand",
        header = "Runs the main job: an embedded cluster fails over and restores every job from the store.",
        mixinStandardHelpOptions = true, sortOptions = false,
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every job was restored byte-identical and no blob of an ended job was left",
            "1:a job failed to restore or differed from what was submitted, or a blob was left behind",
            "2:invalid arguments or configuration; nothing was started",
            "3:the store could not be reached",
            "4:internal error (a bug: please report it)"})
final class DemoCommand implements Callable<Integer> {

    static final String POINTER_MAP = RunningJobInfoRegistry.DEFAULT_MAP_NAME;
    static final String INLINE_MAP = "demo_inline_runningJobInfo";
    /** First port of the demo's members (tests use 5801+, the benchmarks 6001+). */
    static final int DEMO_PORT = 5901;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--jobs", defaultValue = "200", paramLabel = "N")
    int jobs;

    @Option(names = "--blob-size", defaultValue = "200KiB", paramLabel = "SIZE", converter = ByteSizeConverter.class)
    long blobSize;

    @Option(names = "--store", defaultValue = "local", paramLabel = "TYPE")
    StoreType store;

    @Option(names = "--store-dir", paramLabel = "DIR")
    Path storeDir;

    @Option(names = "--storage-config", paramLabel = "FILE")
    Path storageConfig;

    @Option(names = "--s3-endpoint", paramLabel = "URL")
    java.net.URI s3Endpoint;

    @Option(names = "--s3-bucket", defaultValue = "jobinfo-demo", paramLabel = "NAME")
    String s3Bucket;

    @Option(names = "--fs-default-fs", paramLabel = "URI")
    java.net.URI fsDefaultFs;

    @Option(names = "--members", defaultValue = "3", paramLabel = "N")
    int members;

    @Option(names = "--restore-parallelism", defaultValue = "8", paramLabel = "N")
    int restoreParallelism;

    @Option(names = "--cache-max-bytes", defaultValue = "64MiB", paramLabel = "SIZE", converter = ByteSizeConverter.class)
    long cacheMaxBytes;

    @Option(names = "--json")
    boolean json;

    @Option(names = "--engine", defaultValue = "embedded", paramLabel = "ENGINE")
    Engine engine;

    @Option(names = "--job-sizes", paramLabel = "LIST")
    String jobSizes;

    @Option(names = "--work-dir", paramLabel = "DIR")
    Path workDir;

    enum StoreType { local, s3, hdfs }

    enum Engine { embedded, seatunnel }

    @Override
    public Integer call() throws Exception {
        if (engine == Engine.seatunnel) {
            String problems = SeaTunnelEngineDemo.problems(this);
            if (!problems.isEmpty()) {
                throw new CommandLine.ParameterException(spec.commandLine(), problems.strip());
            }
            return new SeaTunnelEngineDemo(this).run();
        }
        validate();
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        KryoJobInfoCodec<JobImmutableInformation> codec = JobImmutableInformationSerializer.codec();
        JobGenerator generator = new JobGenerator(42);
        CacheConfig cache = CacheConfig.of(cacheMaxBytes, Math.min(cacheMaxBytes, CacheConfig.DEFAULT_MAX_ENTRY_BYTES
                * 16), CacheConfig.DEFAULT_EXPIRE_AFTER_ACCESS);

        try (DemoBackend backend = openBackend()) {
            err.printf("starting %d Hazelcast members and the %s store (%s)%n", members, store, backend.describe());
            try (InJvmCluster cluster = new InJvmCluster(members, DEMO_PORT, "jobinfo-demo");
                 JobInfoStore masterStore = JobInfoStores.open(backend.config())) {
                HazelcastInstance master = cluster.master();
                Map<Long, byte[]> digests = new ConcurrentHashMap<>();
                long[] submitNanos = new long[jobs];
                long inlineBytesPerJob;
                long pointerBytesPerJob;
                try (RunningJobInfoRegistry<JobImmutableInformation> coordinator =
                             RunningJobInfoRegistry.builder(master, masterStore, codec).cache(cache).build()) {
                    IMap<Long, Object> inline = master.getMap(INLINE_MAP);
                    Progress progress = new Progress(err, "submitted", jobs);
                    for (int i = 0; i < jobs; i++) {
                        long jobId = 1_000_000L + i;
                        JobImmutableInformation job = generator.generate(jobId, (int) blobSize);
                        byte[] encoded = codec.encode(job);
                        digests.put(jobId, sha256(encoded));
                        long start = System.nanoTime();
                        coordinator.submit(jobId, job);
                        submitNanos[i] = System.nanoTime() - start;
                        inline.set(jobId, new InlineJobInfo(System.currentTimeMillis(), codec.id(), encoded));
                        progress.step(i + 1);
                    }
                    inlineBytesPerJob = cluster.entryMemoryCost(INLINE_MAP) / jobs;
                    pointerBytesPerJob = cluster.entryMemoryCost(POINTER_MAP) / jobs;
                    inline.destroy(); // the inline copy was only the baseline; it would slow the failover down
                }

                err.println("killing the master (terminate, no graceful leave)");
                long crashAt = System.nanoTime();
                cluster.crash(master);
                HazelcastInstance newMaster = cluster.master();
                long failoverMillis = (System.nanoTime() - crashAt) / 1_000_000;

                try (JobInfoStore newMasterStore = JobInfoStores.open(backend.config());
                     RunningJobInfoRegistry<JobImmutableInformation> restored = RunningJobInfoRegistry
                             .builder(newMaster, newMasterStore, codec).cache(cache)
                             .restoreParallelism(restoreParallelism).build()) {
                    err.printf("restoring %d jobs on the new master with %d loaders%n", jobs, restoreParallelism);
                    AtomicInteger mismatches = new AtomicInteger();
                    RestoreReport report = restored.restoreAll((id, ts, job) -> {
                        if (!Arrays.equals(digests.get(id), sha256(codec.encode(job)))) {
                            mismatches.incrementAndGet();
                            throw new IllegalStateException("job " + id + " differs from what was submitted");
                        }
                    });
                    long hitsBefore = restored.cacheStats().hitCount();
                    long missesBefore = restored.cacheStats().missCount();
                    for (long id : digests.keySet()) {
                        restored.get(id);
                    }
                    long hits = restored.cacheStats().hitCount() - hitsBefore;
                    long misses = restored.cacheStats().missCount() - missesBefore;

                    long cachedBytes = restored.cachedBytes();

                    // job end: pointer first, then blob, as a coordinator does when each job finishes
                    err.printf("ending all %d jobs (pointer, then blob)%n", jobs);
                    long removeStart = System.nanoTime();
                    int removed = 0;
                    for (long id : digests.keySet()) {
                        removed += restored.remove(id) ? 1 : 0;
                    }
                    long removeMillis = (System.nanoTime() - removeStart) / 1_000_000;
                    long blobsLeft = newMasterStore.list().stream().filter(b -> !b.incomplete()
                            && digests.containsKey(b.jobId())).count();

                    Map<String, Object> summary = new LinkedHashMap<>();
                    summary.put("store", masterStore.type());
                    summary.put("members", members);
                    summary.put("jobs", jobs);
                    summary.put("blobBytes", blobSize);
                    summary.put("restored", report.restored().size());
                    summary.put("failed", report.failed().size());
                    summary.put("mismatched", mismatches.get());
                    summary.put("inlineBytesPerJob", inlineBytesPerJob);
                    summary.put("pointerBytesPerJob", pointerBytesPerJob);
                    summary.put("memoryRatio", pointerBytesPerJob == 0 ? 0
                            : round((double) inlineBytesPerJob / pointerBytesPerJob, 1));
                    summary.put("submitP50Millis", round(percentile(submitNanos, 0.50) / 1e6, 3));
                    summary.put("submitP99Millis", round(percentile(submitNanos, 0.99) / 1e6, 3));
                    summary.put("submitMaxMillis", round(percentile(submitNanos, 1.0) / 1e6, 3));
                    summary.put("failoverMillis", failoverMillis);
                    summary.put("restoreMillis", report.duration().toMillis());
                    summary.put("restoreParallelism", restoreParallelism);
                    summary.put("cacheHitRatio", hits + misses == 0 ? 0 : round((double) hits / (hits + misses), 3));
                    summary.put("removed", removed);
                    summary.put("blobsLeftAfterRemoval", blobsLeft);
                    summary.put("removeMillis", removeMillis);
                    summary.put("cachedBytes", cachedBytes);
                    summary.put("cacheMaxBytes", cacheMaxBytes);
                    if (json) {
                        out.println(new ObjectMapper().disable(SerializationFeature.INDENT_OUTPUT)
                                .writeValueAsString(summary));
                    } else {
                        printTable(out, summary, backend.describe());
                    }
                    out.flush();
                    for (var failure : report.failed().values()) {
                        err.println("FAILED: " + failure.getMessage());
                    }
                    if (report.restored().size() + report.failed().size() != jobs) {
                        err.printf("FAILED: the new master found %d of the %d submitted jobs in the map%n",
                                report.restored().size() + report.failed().size(), jobs);
                    }
                    if (removed != jobs) {
                        err.printf("FAILED: only %d of %d jobs were registered when they were ended%n", removed, jobs);
                    }
                    if (blobsLeft != 0) {
                        err.printf("FAILED: %d blobs of ended jobs are still stored%n", blobsLeft);
                    }
                    return report.complete() && report.restored().size() == jobs && mismatches.get() == 0
                            && removed == jobs && blobsLeft == 0
                            ? JobInfoStoreCli.EXIT_OK
                            : JobInfoStoreCli.EXIT_PROBLEMS;
                }
            }
        }
    }

    private void validate() {
        StringBuilder problems = new StringBuilder();
        if (jobs < 1 || jobs > 100_000) {
            problems.append("--jobs must be between 1 and 100000, got ").append(jobs).append('\n');
        }
        if (blobSize < 1024 || blobSize > (256L << 20)) {
            problems.append("--blob-size must be between 1KiB and 256MiB, got ").append(ByteSize.format(blobSize))
                    .append('\n');
        }
        if (members < 2 || members > 7) {
            problems.append("--members must be between 2 and 7 (a master and someone to take over), got ")
                    .append(members).append('\n');
        }
        if (restoreParallelism < 1 || restoreParallelism > 256) {
            problems.append("--restore-parallelism must be between 1 and 256, got ").append(restoreParallelism)
                    .append('\n');
        }
        if (cacheMaxBytes < 0) {
            problems.append("--cache-max-bytes must not be negative\n");
        }
        if (storeDir != null && store != StoreType.local) {
            problems.append("--store-dir applies to --store local only\n");
        }
        if (s3Endpoint != null && store != StoreType.s3) {
            problems.append("--s3-endpoint applies to --store s3 only\n");
        }
        if (fsDefaultFs != null && store != StoreType.hdfs) {
            problems.append("--fs-default-fs applies to --store hdfs only\n");
        }
        if (storageConfig != null && (s3Endpoint != null || fsDefaultFs != null)) {
            problems.append("give either --storage-config or --s3-endpoint/--fs-default-fs, not both\n");
        }
        if (storageConfig != null && storeDir != null) {
            problems.append("give either --storage-config or --store-dir, not both\n");
        }
        if (jobSizes != null || workDir != null) {
            problems.append("--job-sizes and --work-dir apply to --engine seatunnel only\n");
        }
        if (problems.length() > 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), problems.toString().strip());
        }
    }

    private DemoBackend openBackend() throws Exception {
        if (storageConfig != null) {
            return DemoBackend.configured(StorageConfigFile.read("--storage-config", storageConfig), storageConfig);
        }
        return switch (store) {
            case local -> DemoBackend.local(storeDir);
            case s3 -> s3Endpoint == null ? DemoBackend.inJvmS3() : DemoBackend.given(
                    io.jobinfo.store.config.JobInfoStorageConfig.builder("s3")
                            .namespace("jobinfo-demo/" + java.util.UUID.randomUUID())
                            .option("s3.endpoint", s3Endpoint.toString())
                            .option("s3.bucket", s3Bucket).build(),
                    "S3 bucket " + s3Bucket + " at " + s3Endpoint);
            case hdfs -> fsDefaultFs == null ? DemoBackend.inJvmHdfs() : DemoBackend.given(
                    io.jobinfo.store.config.JobInfoStorageConfig.builder("hdfs")
                            .namespace("/tmp/jobinfo-demo-" + java.util.UUID.randomUUID())
                            .option("fs.defaultFS", fsDefaultFs.toString()).build(),
                    "HDFS " + fsDefaultFs);
        };
    }

    private static void printTable(PrintWriter out, Map<String, Object> s, String where) {
        out.println();
        out.printf("JobInfo Store demo: %s jobs of %s on %s members, store: %s%n", s.get("jobs"),
                ByteSize.format((Long) s.get("blobBytes")), s.get("members"), where);
        out.println("+----------------------------------------+----------------+----------------+");
        out.printf("| %-38s | %14s | %14s |%n", "", "inline IMap", "pointer+store");
        out.println("+----------------------------------------+----------------+----------------+");
        out.printf("| %-38s | %14s | %14s |%n", "cluster IMap bytes per job (2 copies)", s.get("inlineBytesPerJob"),
                s.get("pointerBytesPerJob"));
        out.printf("| %-38s | %14s | %14s |%n", "ratio", s.get("memoryRatio") + "x", "1x");
        out.println("+----------------------------------------+----------------+----------------+");
        out.printf("| %-38s | %31s |%n", "submit p50 / p99 / max (ms)", s.get("submitP50Millis") + " / "
                + s.get("submitP99Millis") + " / " + s.get("submitMaxMillis"));
        out.printf("| %-38s | %31s |%n", "master crash -> new master (ms)", s.get("failoverMillis"));
        out.printf("| %-38s | %31s |%n", "restore all, verified (ms)", s.get("restoreMillis") + " with "
                + s.get("restoreParallelism") + " loaders");
        out.printf("| %-38s | %31s |%n", "restored / failed / mismatched", s.get("restored") + " / "
                + s.get("failed") + " / " + s.get("mismatched"));
        out.printf("| %-38s | %31s |%n", "cache hit ratio after restore", s.get("cacheHitRatio"));
        out.printf("| %-38s | %31s |%n", "jobs ended / blobs left after", s.get("removed") + " / "
                + s.get("blobsLeftAfterRemoval") + " (" + s.get("removeMillis") + " ms)");
        out.printf("| %-38s | %31s |%n", "cache bytes / bound", ByteSize.format((Long) s.get("cachedBytes")) + " / "
                + ByteSize.format((Long) s.get("cacheMaxBytes")));
        out.println("+----------------------------------------+---------------------------------+");
    }

    static double percentile(long[] values, double p) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int index = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Progress on standard error: a line per 10%. */
    static final class Progress {
        private final PrintWriter err;
        private final String what;
        private final int total;
        private final long start = System.nanoTime();
        private int lastDecile = -1;

        Progress(PrintWriter err, String what, int total) {
            this.err = err;
            this.what = what;
            this.total = total;
        }

        void step(int done) {
            int decile = (int) ((long) done * 10 / total);
            if (decile != lastDecile) {
                lastDecile = decile;
                double secs = Duration.ofNanos(System.nanoTime() - start).toMillis() / 1000.0;
                err.printf("  %s %d/%d (%.1f s)%n", what, done, total, secs);
                err.flush();
            }
        }
    }
}
