package io.jobinfo.store.seatunnel.harness;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.impl.HeapData;
import io.jobinfo.store.seatunnel.harness.ScenarioSettings.Variant;
import io.jobinfo.store.seatunnel.harness.partition.PartitionHoldInterceptor.Sample;
import io.jobinfo.store.seatunnel.harness.partition.PartitionHoldMeasurement;
import io.jobinfo.store.seatunnel.harness.partition.PartitionHoldStats;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Partition-thread time per operation on a real SeaTunnel 2.3.8 cluster of member processes, for one {@link Variant}
 * (issue 28 item 2): stock, or the drop-in on a local store or on the store of {@link ScaleOptions#storageYaml()}.
 * {@link io.jobinfo.store.seatunnel.harness.partition.PartitionHoldInterceptor} is added to
 * {@code engine_runningJobInfo} through the client before anything runs (Hazelcast copies it to every member), then,
 * each phase's samples taken on their own:
 * <ol>
 *   <li>{@code submit}: {@code jobs} real streaming FakeSource -> Console jobs submitted with SeaTunnel's client
 *   (sizes taking turns), each until RUNNING and, with the drop-in, moved; then {@code repeats} puts per size of the
 *   real jobs' bytes under ids of the measurement's own, as SeaTunnel's coordinator puts a job (drop-in: each until
 *   moved, so the mover's get and replace are in the phase);</li>
 *   <li>{@code get}: one client get of each of those entries (what REST job-info and a restore read);</li>
 *   <li>{@code jobEnd}: their removal;</li>
 *   <li>{@code restore}: {@code kill -9} of the master, and what the interceptor sees on the surviving members until
 *   every real job is RUNNING again: the new master's restore reads each job with {@code IMap.get} (SeaTunnel 2.3.8's
 *   {@code CoordinatorService.restoreJobFromMasterActiveSwitch}); its {@code entrySet()} scan of the map calls no
 *   interceptor and so is not in the figures.</li>
 * </ol>
 * Per phase and operation ({@code put/inline}, {@code get/reference}, ...): count, median, p99, max of the record
 * store's span in microseconds (the drop-in adds no interceptor to the map; the measuring interceptor's own
 * (de)serialization, {@code chainMedianMicros}, is reported beside it). The members are always stopped at the end.
 *
 * <p>Failures: a cluster that does not form, a submit that fails, or a value the drop-in does not move within 60 s
 * ends the run with an exception naming what to read; jobs not RUNNING again after the kill do not: they are listed
 * under {@code masterKill.notRunning}, and the restore figures are what was seen until the restore timeout.
 */
public final class PartitionHoldScenario {

    /** The phases, in the order of the report. */
    public static final List<String> PHASES = List.of("submit", "get", "restore", "jobEnd");
    /** Puts per job size in the submit phase by default. */
    public static final int DEFAULT_REPEATS = 20;

    private final ScenarioSettings settings;
    private final int repeats;
    private final ScaleOptions options;
    private final PrintStream progress;

    /**
     * @param options the drop-in's store (its IMap persistence must be off)
     * @throws IllegalArgumentException if {@code repeats} is not 1..1000, or {@code options} turn IMap persistence on
     */
    public PartitionHoldScenario(ScenarioSettings settings, int repeats, ScaleOptions options, PrintStream progress) {
        if (repeats < 1 || repeats > 1000) {
            throw new IllegalArgumentException("--repeats must be 1..1000, got " + repeats);
        }
        if (options.imapPersistence()) {
            throw new IllegalArgumentException("the partition-hold scenario runs without IMap persistence");
        }
        this.settings = settings;
        this.repeats = repeats;
        this.options = options;
        this.progress = progress;
    }

    /** Runs every variant of the settings, in order, one cluster at a time; returns variant id -> figures. */
    public Map<String, Object> runAll() throws IOException {
        return settings.runEach(this::run);
    }

    /** Runs one variant on a fresh cluster; returns its figures. */
    public Map<String, Object> run(Variant variant) throws IOException {
        Path dir = settings.workDir().resolve("partition-hold-" + variant.id());
        Path store = dir.resolve("store").toAbsolutePath();
        ClusterSpec spec = EngineScenario.spec(settings, variant, options.storageSection(store), "");
        String tag = "[partition-hold " + variant.id() + "] ";
        boolean dropIn = variant == Variant.DROPIN;
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("variant", variant.id());
        r.put("store", dropIn ? options.storeName() : "none");
        r.put("members", settings.members());
        r.put("memberHeap", settings.memberHeap());
        r.put("repeatsPerSize", repeats);
        EngineScenario.onCluster(spec, dir, variant, settings.members(), tag, r, (cluster, client) -> {
            PartitionHoldMeasurement.intercept(client);
            List<Long> jobs = new ArrayList<>();
            Map<JobSize, Long> firstOfSize = new EnumMap<>(JobSize.class);
            submitReal(client, dir, dropIn, jobs, firstOfSize);
            List<Sample> submit = new ArrayList<>(PartitionHoldMeasurement.collect(client));
            Map<JobSize, Data> bytes = new EnumMap<>(JobSize.class);
            firstOfSize.forEach((size, id) -> bytes.put(size, jobData(client, id, dropIn)));
            PartitionHoldMeasurement.collect(client); // the reads of the jobs' bytes are no phase's
            List<Long> ids = new ArrayList<>();
            long next = PartitionHoldMeasurement.FIRST_ID;
            for (Data d : bytes.values()) {
                ids.addAll(PartitionHoldMeasurement.puts(client, d, next, repeats, dropIn));
                next += repeats;
            }
            submit.addAll(PartitionHoldMeasurement.collect(client));
            PartitionHoldMeasurement.gets(client, ids);
            List<Sample> get = PartitionHoldMeasurement.collect(client);
            long deletedBefore = dropIn ? client.dropInTotal("blobsDeleted") : 0;
            PartitionHoldMeasurement.removes(client, ids);
            List<Sample> jobEnd = PartitionHoldMeasurement.collect(client);
            if (dropIn) {
                awaitBlobsDeleted(client, deletedBefore, ids.size(), tag);
            }
            PartitionHoldMeasurement.collect(client);
            progress.printf("%s%d real jobs RUNNING, %d puts, gets and removes measured; kill -9 of the master%n",
                    tag, jobs.size(), ids.size());
            List<Sample> restore = new ArrayList<>();
            r.put("masterKill", killMaster(cluster, client, jobs, restore));
            Map<String, List<Sample>> phases = new LinkedHashMap<>();
            phases.put("submit", submit);
            phases.put("get", get);
            phases.put("restore", restore);
            phases.put("jobEnd", jobEnd);
            Map<String, Object> figures = new LinkedHashMap<>();
            phases.forEach((phase, samples) -> figures.put(phase, figures(samples)));
            r.put("phases", figures);
            progress.printf("%spartition-thread p99 (us): %s%n", tag, p99s(figures));
        });
        r.put("logs", dir.toString());
        return r;
    }

    /** Submits the real jobs, each until RUNNING and (drop-in) moved, recording their ids. */
    private void submitReal(ClusterClient client, Path dir, boolean dropIn, List<Long> jobs,
                            Map<JobSize, Long> firstOfSize) {
        Map<JobSize, Path> files = new EnumMap<>(JobSize.class);
        for (int i = 0; i < settings.jobs(); i++) {
            JobSize size = settings.sizeOf(i);
            Path file = files.computeIfAbsent(size, s -> FakeJobs.write(dir.resolve("jobs"), "fake-" + s.id(),
                    s.tables(), s.columns(), true, settings.checkpointMillis()));
            long id = client.submit(file, "partition-hold-" + size.id() + "-" + i);
            client.awaitStatus(id, "RUNNING", Duration.ofSeconds(120));
            if (dropIn) {
                PartitionHoldMeasurement.awaitMoved(client, id);
            }
            jobs.add(id);
            firstOfSize.putIfAbsent(size, id);
        }
    }

    /** A real job's bytes: stock's inline value, or the drop-in's blob payload (read on the master). */
    private static Data jobData(ClusterClient client, long jobId, boolean dropIn) {
        if (!dropIn) {
            return client.runningJobInfo().get(jobId).getJobImmutableInformation();
        }
        return new HeapData(client.onMember(client.masterPort(), new JobPayloadProbe(jobId), Duration.ofSeconds(60)));
    }

    /**
     * Waits up to 60 s until the members' drop-ins have deleted {@code count} more blobs than {@code before} (the
     * measurement entries' blobs, deleted off the partition threads after their removal), so that those deletions do
     * not run during the restore; then goes on whatever is left, with a line on the progress stream if some are not
     * deleted yet. Read from the drop-in's counters, so the same on every store.
     */
    private void awaitBlobsDeleted(ClusterClient client, long before, int count, String tag) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        long deleted;
        do {
            deleted = client.dropInTotal("blobsDeleted") - before;
            if (deleted >= count) {
                return;
            }
            EngineScenario.sleep(200);
        } while (System.nanoTime() < deadline);
        progress.printf("%s%d of the %d measurement entries' blobs not deleted yet 60 s after their removal%n",
                tag, count - deleted, count);
    }

    /** Kills the master, waits until every job is RUNNING again, adds what the survivors sampled to {@code restore}. */
    private Map<String, Object> killMaster(SeaTunnelProcessCluster cluster, ClusterClient client, List<Long> jobs,
                                           List<Sample> restore) {
        int oldMaster = cluster.indexOfPort(client.masterPort());
        Map<String, Object> k = new LinkedHashMap<>();
        k.put("killedMember", oldMaster);
        k.put("jobs", jobs.size());
        long t0 = System.nanoTime();
        cluster.kill(oldMaster);
        client.awaitClusterSize(settings.members() - 1, Duration.ofSeconds(90));
        Map<Long, String> notRunning = EngineScenario.awaitAllRunning(client, jobs,
                t0 + settings.restoreTimeout().toNanos());
        k.put("killToAllRunningMillis", notRunning.isEmpty() ? EngineScenario.millisSince(t0) : null);
        Map<String, Object> listed = new LinkedHashMap<>();
        notRunning.forEach((id, s) -> listed.put(Long.toString(id), s));
        k.put("notRunning", listed);
        restore.addAll(PartitionHoldMeasurement.collect(client));
        return k;
    }

    /**
     * One phase's figures: {@code all} (every sample of the phase) and {@code operations} (by {@code op/kind}), each
     * the span's count, median, p99 and max plus the interceptor chain's median; {@code offPartitionThread}: samples
     * taken on a thread that is not a partition thread (0 when the instrument measured what it claims).
     */
    static Map<String, Object> figures(List<Sample> samples) {
        Map<String, Object> f = new LinkedHashMap<>();
        List<Sample> all = samples.stream().filter(s -> !s.kind().equals("none")).toList();
        f.put("all", stats(all));
        Map<String, Object> ops = new LinkedHashMap<>();
        PartitionHoldMeasurement.byOperation(all).forEach((op, s) -> ops.put(op, stats(s)));
        f.put("operations", ops);
        f.put("offPartitionThread", all.stream().filter(s -> !s.thread().contains(".partition-operation.thread-"))
                .count());
        return f;
    }

    private static Map<String, Object> stats(List<Sample> samples) {
        Map<String, Object> m = PartitionHoldStats.ofSpans(samples).toMap();
        m.put("chainMedianMicros", PartitionHoldMeasurement.chain(samples).medianMicros());
        return m;
    }

    private static Map<String, Object> p99s(Map<String, Object> figures) {
        Map<String, Object> out = new LinkedHashMap<>();
        figures.forEach((phase, f) -> out.put(phase, ((Map<?, ?>) ((Map<?, ?>) f).get("all")).get("p99Micros")));
        return out;
    }
}
