package io.jobinfo.store.seatunnel.harness;

import io.jobinfo.store.seatunnel.harness.ScenarioSettings.Variant;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The main job on a real SeaTunnel 2.3.8 cluster of member processes, for one {@link Variant}: start the members,
 * submit real streaming FakeSource -> Console jobs with SeaTunnel's own client, measure what each job adds to
 * {@code engine_runningJobInfo} (owned + backup {@code LocalMapStats} of every member, before/after each submit, once
 * the job is RUNNING and, with the drop-in, once its value is the small reference), {@code kill -9} the master and
 * time until every job is RUNNING again on the new master. The members are always stopped at the end.
 *
 * <p>Failures: a cluster that does not form or a submit that fails ends the run with an exception (the member logs
 * under the work directory say why); a job that is not RUNNING again within the restore timeout does not: the result
 * lists it under {@code masterKill.notRunning} with its last status.
 *
 * <p>With IMap persistence on ({@link ScaleOptions#imapPersistence()}) every {@code engine*}
 * map is written through to SeaTunnel's {@code imap-storage-file} log under {@code <variant>/imap}, configured as
 * SeaTunnel documents ({@link ImapPersistence}): the stock cluster with SeaTunnel's {@code FileMapStoreFactory}, the
 * drop-in with its {@code DropInMapStoreFactory} (same properties); the result's {@code wal} holds what the measured
 * jobs added to it ({@link WalMeter}). {@link ScaleOptions#storageYaml()} gives the drop-in another store than the
 * local one (an S3 or HDFS server the members reach over loopback; the scenario does not start it).
 */
public final class EngineScenario {

    /** Ports are picked free; the first SeaTunnel submit of a JVM loads many classes, so one uncounted job first. */
    static final JobSize WARM_UP = JobSize.SMALL;

    private final ScenarioSettings settings;
    private final PrintStream progress;
    private final ScaleOptions options;

    /** The scenario without IMap persistence (SeaTunnel's default), the drop-in on a local store. */
    public EngineScenario(ScenarioSettings settings, PrintStream progress) {
        this(settings, progress, ScaleOptions.DEFAULT);
    }

    /** With IMap persistence and the drop-in's store as {@code options} say (see the class comment). */
    public EngineScenario(ScenarioSettings settings, PrintStream progress, ScaleOptions options) {
        this.settings = settings;
        this.progress = progress;
        this.options = options;
    }

    /** Runs every variant of the settings, in order, one cluster at a time; returns variant id -> figures. */
    public Map<String, Object> runAll() throws IOException {
        return settings.runEach(this::run);
    }

    /**
     * Runs one variant on a fresh cluster and returns its figures.
     *
     * @throws IllegalStateException if the cluster does not form, the drop-in does not become active, or a submit
     *                               fails; the message names the member log to read
     */
    public Map<String, Object> run(Variant variant) throws IOException {
        Path dir = settings.workDir().resolve(variant.id());
        Path store = dir.resolve("store").toAbsolutePath();
        ClusterSpec plain = spec(settings, variant, options.storageSection(store), "");
        WalMeter wal = options.imapPersistence() ? new WalMeter(dir.resolve("imap").toAbsolutePath(), plain.clusterName()) : null;
        ClusterSpec spec = wal == null ? plain : plain.withHazelcastYaml(ImapPersistence.hazelcastYaml(wal.namespace(),
                plain.clusterName(), variant == Variant.DROPIN ? ImapPersistence.DROP_IN_FACTORY
                        : ImapPersistence.SEATUNNEL_FACTORY));
        String tag = "[" + variant.id() + "] ";
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("variant", variant.id());
        r.put("engine", "SeaTunnel 2.3.8" + (variant == Variant.DROPIN ? " + jobinfo-store-seatunnel-plugin ("
                + options.storeName() + " store)" : " (stock)"));
        if (variant == Variant.DROPIN) {
            r.put("store", options.storeName());
        }
        r.put("members", settings.members());
        r.put("backupCount", 1);
        r.put("maxNoHeartbeatSeconds", spec.maxNoHeartbeatSeconds());
        r.put("memberHeap", settings.memberHeap());
        r.put("checkpointMillis", settings.checkpointMillis());
        r.put("imapPersistence", wal != null);
        progress.printf("%sstarting %d SeaTunnel 2.3.8 member processes on 127.0.0.1 ports %s%n", tag,
                settings.members(), Arrays.toString(spec.ports()));
        long t0 = System.nanoTime();
        onCluster(spec, dir, variant, settings.members(), tag, r, (cluster, client) -> {
            r.put("startMillis", millisSince(t0));
            progress.printf("%s%d members up after %.1f s%n", tag, settings.members(), (System.nanoTime() - t0) / 1e9);

            Map<JobSize, Path> files = new EnumMap<>(JobSize.class);
            for (JobSize s : JobSize.values()) {
                files.put(s, FakeJobs.write(dir.resolve("jobs"), "fake-" + s.id(), s.tables(), s.columns(), true,
                        settings.checkpointMillis()));
            }
            List<Long> all = new ArrayList<>();
            long warmUp = client.submit(files.get(WARM_UP), variant.id() + "-warm-up");
            client.awaitStatus(warmUp, "RUNNING", Duration.ofSeconds(90));
            all.add(warmUp);
            MapFigures mapBefore = client.mapFigures(ClusterClient.RUNNING_JOB_INFO);
            List<Map<String, Object>> heapBefore = MemberHeaps.of(client, cluster);
            if (wal != null) {
                wal.start();
            }

            List<Map<String, Object>> jobs = new ArrayList<>();
            double[] submitMillis = new double[settings.jobs()];
            for (int i = 0; i < settings.jobs(); i++) {
                JobSize size = settings.sizeOf(i);
                jobs.add(submitOne(client, variant, size, files.get(size), i, submitMillis, store, wal));
                all.add((Long) jobs.get(i).get("jobId"));
                progress.printf("%ssubmitted %d/%d (%s, %s ms, %s B in the map)%n", tag, i + 1, settings.jobs(),
                        size.label(), jobs.get(i).get("submitMillis"), jobs.get(i).get("ownedPlusBackupBytes"));
            }
            r.put("jobs", jobs);
            r.put("warmUpJobs", 1);
            r.put("submitP50Millis", round(percentile(submitMillis, 0.50)));
            r.put("submitP99Millis", round(percentile(submitMillis, 0.99)));
            r.put("bySize", bySize(jobs));
            if (wal != null) {
                r.put("wal", wal.figures(jobs.size()));
            }
            costAtCount(r, client, cluster, mapBefore, heapBefore, jobs, tag);
            r.put("masterKill", killMaster(cluster, client, variant, all, tag));
        });
        r.put("logs", dir.toString());
        return r;
    }

    /**
     * What the cluster holds for its jobs, once every job is RUNNING: {@code engine_runningJobInfo}'s owned + backup
     * bytes per job and each member's live heap after a full GC (before the measured jobs, after the warm-up job,
     * and now), then SeaTunnel's REST running-jobs and job-info (one job of each size) timed on a member that is not
     * the master (after the heap, so that what REST decodes is not counted there).
     */
    private void costAtCount(Map<String, Object> r, ClusterClient client, SeaTunnelProcessCluster cluster,
                             MapFigures mapBefore, List<Map<String, Object>> heapBefore,
                             List<Map<String, Object>> jobs, String tag) {
        int n = jobs.size();
        r.put("mapBytesPerJob", client.mapFigures(ClusterClient.RUNNING_JOB_INFO).minus(mapBefore).totalBytes() / n);
        List<Map<String, Object>> heap = MemberHeaps.of(client, cluster);
        r.put("liveHeapBefore", heapBefore);
        r.put("liveHeap", heap);
        r.put("liveHeapBytes", MemberHeaps.total(heap));
        r.put("liveHeapBytesPerJob", (MemberHeaps.total(heap) - MemberHeaps.total(heapBefore)) / n);
        int masterPort = client.masterPort();
        int restPort = client.members().stream().mapToInt(m -> m.getAddress().getPort()).filter(p -> p != masterPort)
                .findFirst().orElseThrow(() -> new IllegalStateException(tag + "no member besides the master"));
        List<Long> sample = new ArrayList<>();
        for (JobSize s : JobSize.values()) {
            jobs.stream().filter(j -> s.id().equals(j.get("size"))).findFirst()
                    .ifPresent(j -> sample.add((Long) j.get("jobId")));
        }
        r.put("rest", new RestTimer(restPort).measure(sample, settings.restSamples()));
        progress.printf("%s%d jobs: %d B of the map per job, live heap %d MiB over the members, REST running-jobs"
                        + " %s ms on member %d%n", tag, n, r.get("mapBytesPerJob"), MemberHeaps.total(heap) >> 20,
                ((Map<?, ?>) r.get("rest")).get("runningJobsP50Millis"), cluster.indexOfPort(restPort));
    }

    /**
     * The cluster of {@code variant}: stock, or with the plugin jar and a local store at {@code store} (32 MiB cache);
     * {@code dropInYaml} is added to the drop-in's engine yaml (for example a {@code jobinfo-dropin} section).
     */
    static ClusterSpec spec(ScenarioSettings settings, Variant variant, Path store, String dropInYaml) {
        return spec(settings, variant, ScaleOptions.DEFAULT.storageSection(store), dropInYaml);
    }

    /** The same with the drop-in's {@code jobinfo-storage} section {@code storageYaml}. */
    static ClusterSpec spec(ScenarioSettings settings, Variant variant, String storageYaml, String dropInYaml) {
        ClusterSpec spec = ClusterSpec.stock("st-demo-" + variant.id(), settings.members())
                .withJvmOptions(List.of("-Xmx" + settings.memberHeap()));
        if (variant == Variant.STOCK) {
            return spec;
        }
        return spec.withEngineYaml(storageYaml + (storageYaml.endsWith("\n") ? "" : "\n") + dropInYaml)
                .withExtraClasspath(List.of(settings.pluginJar().toAbsolutePath().toString()));
    }

    /** What a scenario measures on a formed cluster of one variant. */
    @FunctionalInterface
    interface Measurement {
        void on(SeaTunnelProcessCluster cluster, ClusterClient client) throws IOException;
    }

    /**
     * Starts the cluster of {@code spec} in {@code dir}, waits until it has formed ({@link #awaitFormed}), runs
     * {@code measurement}, puts the drop-in's counters into {@code r} (drop-in only), then kills every member: the
     * figures are taken, kill -9 is faster than a graceful stop, and nothing needs one.
     */
    static void onCluster(ClusterSpec spec, Path dir, Variant variant, int members, String tag, Map<String, Object> r,
                          Measurement measurement) throws IOException {
        try (SeaTunnelProcessCluster cluster = new SeaTunnelProcessCluster(spec, dir)) {
            cluster.start();
            try (ClusterClient client = new ClusterClient(spec)) {
                awaitFormed(cluster, client, members, variant, tag);
                measurement.on(cluster, client);
                if (variant == Variant.DROPIN) {
                    r.put("dropInCounters", client.dropInMetrics());
                }
            }
            for (int i : cluster.aliveMembers()) {
                cluster.kill(i);
            }
        }
    }

    /**
     * Waits until the cluster has its {@code n} members and, for the drop-in, until the drop-in is active on every one.
     *
     * @throws IllegalStateException naming the member log to read if a member exited or the cluster did not form
     */
    static void awaitFormed(SeaTunnelProcessCluster cluster, ClusterClient client, int n, Variant variant,
                            String tag) {
        Duration timeout = Duration.ofSeconds(120);
        long deadline = System.nanoTime() + timeout.toNanos();
        ClusterClient.await(() -> client.members().size() == n || cluster.aliveMembers().size() < n
                || System.nanoTime() > deadline, timeout.plusSeconds(5), () -> "");
        if (client.members().size() != n) {
            int dead = -1;
            for (int i = 0; i < n; i++) {
                if (!cluster.isAlive(i)) {
                    dead = i;
                }
            }
            int shown = Math.max(dead, 0);
            throw new IllegalStateException(tag + (dead >= 0 ? "member " + dead + " exited during start-up"
                    : "the cluster has " + client.members().size() + " members, not " + n + ", after " + timeout)
                    + "; its log, " + cluster.log(shown) + ", ends with:\n" + cluster.logTail(shown, 3000));
        }
        if (variant == Variant.DROPIN) {
            client.awaitDropInActive(Duration.ofSeconds(60));
        }
    }

    private Map<String, Object> submitOne(ClusterClient client, Variant variant, JobSize size, Path file, int i,
                                          double[] submitMillis, Path store, WalMeter wal) throws IOException {
        MapFigures before = client.mapFigures(ClusterClient.RUNNING_JOB_INFO);
        if (wal != null) {
            wal.beforeJob();
        }
        long t0 = System.nanoTime();
        long jobId = client.submit(file, variant.id() + "-" + size.id() + "-" + i);
        submitMillis[i] = (System.nanoTime() - t0) / 1e6;
        client.awaitStatus(jobId, "RUNNING", Duration.ofSeconds(90));
        if (variant == Variant.DROPIN) {
            ClusterClient.await(() -> {
                long bytes = client.storedJobBytes(jobId);
                return bytes > 0 && bytes < 200;
            }, Duration.ofSeconds(60), () -> "job " + jobId + " is still inline in the map after 60 s: "
                    + client.storedJobBytes(jobId) + " bytes; drop-in counters " + client.dropInMetrics());
        }
        MapFigures job = client.mapFigures(ClusterClient.RUNNING_JOB_INFO).minus(before);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("jobId", jobId);
        row.put("size", size.id());
        row.put("tables", size.tables());
        row.put("columns", size.columns());
        row.put("mapValueBytes", client.storedJobBytes(jobId));
        row.put("ownedBytes", job.ownedBytes());
        row.put("backupBytes", job.backupBytes());
        row.put("ownedPlusBackupBytes", job.totalBytes());
        if (variant == Variant.DROPIN && options.localStore()) {
            // StoreNaming.blobName's form: the scenario's JVM (the demo's) has no jobinfo-store-spi on its classpath
            Path blob = store.resolve(String.format("%016x.jobinfo", jobId));
            row.put("blobBytes", Files.exists(blob) ? Files.size(blob) : -1L);
        }
        if (wal != null) {
            row.put("walBytes", wal.afterJob());
        }
        row.put("submitMillis", round(submitMillis[i]));
        return row;
    }

    private Map<String, Object> killMaster(SeaTunnelProcessCluster cluster, ClusterClient client, Variant variant,
                                           List<Long> jobs, String tag) {
        int oldMasterPort = client.masterPort();
        int oldMaster = cluster.indexOfPort(oldMasterPort);
        if (oldMaster < 0) {
            throw new IllegalStateException(tag + "the master's port " + oldMasterPort + " is none of this cluster's");
        }
        Map<String, Object> k = new LinkedHashMap<>();
        k.put("killedMember", oldMaster);
        k.put("killedPid", cluster.pid(oldMaster));
        k.put("jobs", jobs.size());
        progress.printf("%skill -9 of the master (member %d, pid %d) with %d jobs running%n", tag, oldMaster,
                cluster.pid(oldMaster), jobs.size());
        long t0 = System.nanoTime();
        cluster.kill(oldMaster);
        client.awaitClusterSize(settings.members() - 1, Duration.ofSeconds(90));
        k.put("killToNewMasterMillis", millisSince(t0));
        int newMasterPort = client.masterPort();
        k.put("newMember", cluster.indexOfPort(newMasterPort));
        Map<Long, String> last = awaitAllRunning(client, jobs, t0 + settings.restoreTimeout().toNanos());
        long millis = millisSince(t0);
        k.put("running", jobs.size() - last.size());
        Map<String, Object> notRunning = new LinkedHashMap<>();
        last.forEach((id, s) -> notRunning.put(Long.toString(id), s));
        k.put("notRunning", notRunning);
        if (last.isEmpty()) {
            k.put("killToAllRunningMillis", millis);
            progress.printf("%severy job RUNNING again %.1f s after the kill%n", tag, millis / 1000.0);
        } else {
            k.put("killToAllRunningMillis", null);
            progress.printf("%s%d of %d jobs NOT running %.0f s after the kill: %s%n", tag, last.size(), jobs.size(),
                    millis / 1000.0, last);
        }
        if (variant == Variant.DROPIN) {
            Map<String, Long> counters = client.dropInMetrics().get(newMasterPort);
            k.put("newMasterStoreReads", counters == null ? -1L : counters.getOrDefault("reads", 0L));
            k.put("newMasterReadFailures", counters == null ? -1L : counters.getOrDefault("readFailures", 0L));
        }
        return k;
    }

    /**
     * Polls every job's status every 100 ms until each is RUNNING or {@code deadlineNanos} ({@link System#nanoTime})
     * has passed; returns the jobs that are not RUNNING with their last status (a status query that fails counts as
     * its exception's name), empty when all are. Never throws for a job's state.
     */
    static Map<Long, String> awaitAllRunning(ClusterClient client, List<Long> jobs, long deadlineNanos) {
        Map<Long, String> last = new LinkedHashMap<>();
        client.awaitEveryRunning(jobs, Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime())))
                .forEach((id, seen) -> {
                    if (!seen.isEmpty() && !"RUNNING".equals(seen.get(seen.size() - 1))) {
                        last.put(id, seen.get(seen.size() - 1));
                    }
                });
        return last;
    }

    /** Per size: jobs, median owned + backup bytes, median map value and blob bytes. */
    static Map<String, Object> bySize(List<Map<String, Object>> jobs) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (JobSize s : JobSize.values()) {
            List<Map<String, Object>> of = jobs.stream().filter(j -> s.id().equals(j.get("size"))).toList();
            if (of.isEmpty()) {
                continue;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("label", s.label());
            m.put("tables", s.tables());
            m.put("columns", s.columns());
            m.put("jobs", of.size());
            m.put("medianOwnedPlusBackupBytes", median(of, "ownedPlusBackupBytes"));
            m.put("medianMapValueBytes", median(of, "mapValueBytes"));
            if (of.get(0).containsKey("blobBytes")) {
                m.put("medianBlobBytes", median(of, "blobBytes"));
            }
            out.put(s.id(), m);
        }
        return out;
    }

    private static long median(List<Map<String, Object>> rows, String key) {
        long[] v = rows.stream().mapToLong(r -> ((Number) r.get(key)).longValue()).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** Nearest-rank percentile. */
    static double percentile(double[] values, double p) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int index = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    static long millisSince(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
