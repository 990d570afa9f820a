package io.jobinfo.store.seatunnel.harness;

import io.jobinfo.store.seatunnel.harness.ScenarioSettings.Variant;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * Finished jobs' history at scale on a real SeaTunnel 2.3.8 cluster of member processes, for one {@link Variant}
 * (issue 27's goals): stock, or the drop-in with {@code jobinfo-dropin: history: all}. Two real 1 x 2 batch jobs run to
 * FINISHED (the templates), {@value #WARM_UP_JOBS} copies of them are retained and removed again (the baseline is a
 * cluster that has run, {@link #warmUp}); then, for each count of {@code retained} in turn (cumulative), the master retains that many
 * finished jobs in all ({@link HistoryCopyProbe}: the templates' values under new ids with a TTL of
 * {@value #TTL_MINUTES} minutes, as SeaTunnel's {@code JobHistoryService} puts them), and once the drop-in has moved
 * every value (references only) the scenario takes: the three maps' owned + backup bytes per retained job, each
 * member's live heap after a full GC against the same members with only the two templates retained, then REST
 * {@code finished-jobs} and {@code job-info/<id>} timed on a member that is not the master, and the heap after them
 * (what the listing left in the members' caches). The members are always stopped at the end.
 *
 * <p>Failures: a cluster that does not form, a template job that does not finish or values that are not moved within
 * {@value #MOVE_MINUTES} minutes end the run with an exception naming what to read.
 */
public final class HistoryScenario {

    public static final List<String> MAPS = List.of("engine_finishedJobMetrics", "engine_finishedJobState",
            "engine_finishedJobVertexInfo");
    /** The retained jobs' ids start here, far above the ids SeaTunnel draws (about 9e17 today). */
    static final long FIRST_ID = 7_000_000_000_000_000_000L;
    static final int TEMPLATE_JOBS = 2;
    /** Jobs retained and removed before the baseline ({@link #warmUp}): about 4 per partition and map. */
    static final int WARM_UP_JOBS = 1000;
    static final long WARM_UP_FIRST_ID = FIRST_ID - 10_000_000;
    static final long TTL_MINUTES = 240;
    static final long MOVE_MINUTES = 30;
    /** Cluster bytes of a reference entry, owned plus backup, with room (191 + 191 measured). */
    static final long REFERENCE_BYTES = 512;
    /** How many classes of the master's heap growth a count's row names. */
    static final int GROWTH_CLASSES = 6;

    private final ScenarioSettings settings;
    private final List<Integer> retained;
    private final PrintStream progress;

    /**
     * @param retained counts of retained finished jobs, ascending, each at least 1
     * @throws IllegalArgumentException if {@code retained} is empty or not ascending
     */
    public HistoryScenario(ScenarioSettings settings, List<Integer> retained, PrintStream progress) {
        this.settings = settings;
        this.retained = List.copyOf(retained);
        this.progress = progress;
        int last = 0;
        for (int n : this.retained) {
            if (n <= last || n > 100_000) {
                throw new IllegalArgumentException("retained counts must be ascending, 1..100000, got " + retained);
            }
            last = n;
        }
        if (last == 0) {
            throw new IllegalArgumentException("at least one retained count");
        }
    }

    /** Runs every variant of the settings, in order, one cluster at a time; returns variant id -> figures. */
    public Map<String, Object> runAll() throws IOException {
        return settings.runEach(this::run);
    }

    /** Runs one variant on a fresh cluster; returns its figures. */
    public Map<String, Object> run(Variant variant) throws IOException {
        Path dir = settings.workDir().resolve("history-" + variant.id());
        ClusterSpec spec = EngineScenario.spec(settings, variant, dir.resolve("store").toAbsolutePath(), """
                jobinfo-dropin:
                  history: all
                """);
        String tag = "[history " + variant.id() + "] ";
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("variant", variant.id());
        r.put("members", settings.members());
        r.put("memberHeap", settings.memberHeap());
        EngineScenario.onCluster(spec, dir, variant, settings.members(), tag, r, (cluster, client) -> {
            long[] templates = templates(client, dir, tag);
            awaitSettled(client, variant, TEMPLATE_JOBS, tag + "the template jobs' history");
            int masterPort = client.masterPort();
            warmUp(client, variant, masterPort, templates, tag);
            MapFigures before = figures(client);
            List<Map<String, Object>> heapBefore = MemberHeaps.of(client, cluster);
            int restPort = client.members().stream().mapToInt(m -> m.getAddress().getPort())
                    .filter(p -> p != masterPort).findFirst().orElseThrow();
            r.put("heapWithTemplatesOnly", heapBefore);
            ClassHistogram baseline = histogram(client, masterPort, dir, 0);
            List<Map<String, Object>> rows = new ArrayList<>();
            int done = 0;
            for (int target : retained) {
                long t0 = System.nanoTime();
                client.onMember(masterPort, new HistoryCopyProbe(templates, FIRST_ID + done, target - done,
                        TTL_MINUTES * 60_000), Duration.ofMinutes(20));
                long copyMillis = EngineScenario.millisSince(t0);
                done = target;
                awaitSettled(client, variant, TEMPLATE_JOBS + target, tag + target + " retained jobs");
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("retained", target);
                row.put("putMillis", copyMillis);
                row.put("settledMillis", EngineScenario.millisSince(t0));
                MapFigures now = figures(client);
                row.put("bytesPerRetainedJob", (now.totalBytes() - before.totalBytes()) / target);
                Map<String, Long> byMap = new LinkedHashMap<>();
                for (String map : MAPS) {
                    byMap.put(map, client.mapFigures(map).totalBytes() / (TEMPLATE_JOBS + target));
                }
                row.put("bytesPerEntryByMap", byMap);
                List<Map<String, Object>> heap = MemberHeaps.of(client, cluster);
                row.put("liveHeap", heap);
                row.put("liveHeapBytes", MemberHeaps.total(heap));
                row.put("liveHeapBytesPerRetainedJob", (MemberHeaps.total(heap) - MemberHeaps.total(heapBefore))
                        / target);
                row.put("masterLiveHeapBytes", masterHeap(heap));
                row.put("masterHeapGrowthByClass", growth(histogram(client, masterPort, dir, target), baseline));
                row.put("masterLiveHeapRatio", EngineScenario.round(1000.0 * masterHeap(heap)
                        / masterHeap(heapBefore)) / 1000.0);
                long missesBefore = variant == Variant.DROPIN ? storeReads(client) : 0;
                row.put("rest", new RestTimer(restPort).measureFinished(FIRST_ID + target - 1, target
                        + TEMPLATE_JOBS, settings.restSamples()));
                if (variant == Variant.DROPIN) {
                    // every member's history reads that missed its cache, over the listings and job-info GETs
                    row.put("restStoreReadsPerListedJob", EngineScenario.round(100.0 * (storeReads(client)
                            - missesBefore) / ((double) settings.restSamples() * (target + TEMPLATE_JOBS))) / 100.0);
                }
                row.put("liveHeapBytesAfterRest", MemberHeaps.total(MemberHeaps.of(client, cluster)));
                rows.add(row);
                progress.printf("%s%d retained: %s B of the maps per job, master live heap %.3fx of the"
                                + " templates-only cluster, finished-jobs %s ms on member %d%n", tag, target,
                        row.get("bytesPerRetainedJob"), row.get("masterLiveHeapRatio"),
                        ((Map<?, ?>) row.get("rest")).get("finishedJobsP50Millis"), cluster.indexOfPort(restPort));
            }
            r.put("counts", rows);
        });
        r.put("logs", dir.toString());
        return r;
    }

    /**
     * Retains {@value #WARM_UP_JOBS} jobs and removes them again, so that the baseline is a cluster that has run:
     * Hazelcast creates a map's record store in a partition at its first entry or lock there (about 5 KB each, 271
     * partitions per map), which the three history maps and, with the drop-in, their claim maps would otherwise add
     * to the first count's heap (seen: 1,994 more record stores on the drop-in's master after 1,000 jobs, 792 on
     * stock's). The removal's events delete the drop-in's blobs.
     */
    private void warmUp(ClusterClient client, Variant variant, int masterPort, long[] templates, String tag) {
        client.onMember(masterPort, new HistoryCopyProbe(templates, WARM_UP_FIRST_ID, WARM_UP_JOBS,
                TTL_MINUTES * 60_000), Duration.ofMinutes(10));
        awaitSettled(client, variant, TEMPLATE_JOBS + WARM_UP_JOBS, tag + "the warm-up jobs' history");
        for (String name : MAPS) {
            com.hazelcast.map.IMap<Long, Object> map = client.seaTunnelClient().getHazelcastInstance().getMap(name);
            for (int i = 0; i < WARM_UP_JOBS; i++) {
                map.delete(WARM_UP_FIRST_ID + i);
            }
        }
        awaitSettled(client, variant, TEMPLATE_JOBS, tag + "the warm-up jobs' removal");
        progress.printf("%s%d warm-up jobs retained and removed%n", tag, WARM_UP_JOBS);
    }

    /** Runs {@value #TEMPLATE_JOBS} real 1 x 2 batch jobs to FINISHED, one after the other; returns their ids. */
    private long[] templates(ClusterClient client, Path dir, String tag) {
        Path file = FakeJobs.write(dir.resolve("jobs"), "history-template", 1, 2, false);
        long[] ids = new long[TEMPLATE_JOBS];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = client.submit(file, "history-template-" + i);
            client.awaitStatus(ids[i], "FINISHED", Duration.ofSeconds(180));
        }
        progress.printf("%s%d template batch jobs FINISHED%n", tag, ids.length);
        return ids;
    }

    /**
     * Waits until each history map holds {@code entries} entries and, with the drop-in, until every one is a
     * reference ({@value #REFERENCE_BYTES} B per entry at most).
     */
    private static void awaitSettled(ClusterClient client, Variant variant, int entries, String what) {
        IntPredicate settled = i -> {
            MapFigures f = client.mapFigures(MAPS.get(i));
            return f.ownedEntries() == entries
                    && (variant != Variant.DROPIN || f.totalBytes() <= REFERENCE_BYTES * entries);
        };
        java.util.function.Supplier<String> state = () -> what + ": not settled after " + MOVE_MINUTES + " min: "
                + MAPS.stream().map(m -> m + " " + client.mapFigures(m)).toList()
                + (variant == Variant.DROPIN ? ", drop-in counters " + client.dropInMetrics() : "");
        ClusterClient.await(() -> settled.test(0) && settled.test(1) && settled.test(2),
                Duration.ofMinutes(MOVE_MINUTES), state);
        if (variant == Variant.DROPIN) {
            // the bound is met while the last few percent of values are still being moved: wait until the maps'
            // bytes stop falling (two readings 2 s apart equal), so that no value still inline is counted
            long[] last = {-1};
            ClusterClient.await(() -> {
                long now = figures(client).totalBytes();
                boolean same = now == last[0];
                last[0] = now;
                if (!same) {
                    EngineScenario.sleep(2000);
                }
                return same;
            }, Duration.ofMinutes(MOVE_MINUTES), state);
        }
    }

    /**
     * The master's class histogram (live objects, after a full GC); with {@code -Djobinfo.history.histogram=true}
     * its whole text also goes to {@code <dir>/master-histogram-<retained>.txt}.
     */
    private static ClassHistogram histogram(ClusterClient client, int masterPort, Path dir, int retained)
            throws IOException {
        String text = client.onMember(masterPort, new HeapHistogramProbe(Integer.MAX_VALUE), Duration.ofMinutes(2));
        if (Boolean.getBoolean("jobinfo.history.histogram")) {
            java.nio.file.Files.writeString(dir.resolve("master-histogram-" + retained + ".txt"), text);
        }
        return ClassHistogram.parse(text);
    }

    /** The classes the master's live heap grew most by since the baseline, as JSON rows. */
    private static List<Map<String, Object>> growth(ClassHistogram now, ClassHistogram baseline) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (ClassHistogram.Row r : now.grownSince(baseline, GROWTH_CLASSES)) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("class", r.className());
            row.put("instances", r.instances());
            row.put("bytes", r.bytes());
            out.add(row);
        }
        return out;
    }

    /** History reads that missed the members' caches (went to the store), summed over one reading of the members. */
    private static long storeReads(ClusterClient client) {
        long misses = 0;
        for (Map<String, Long> member : client.dropInMetrics().values()) {
            misses += member.getOrDefault("reads", 0L) - member.getOrDefault("cacheHits", 0L);
        }
        return misses;
    }

    private static MapFigures figures(ClusterClient client) {
        MapFigures sum = MapFigures.ZERO;
        for (String map : MAPS) {
            sum = sum.plus(client.mapFigures(map));
        }
        return sum;
    }

    private static long masterHeap(List<Map<String, Object>> heap) {
        return heap.stream().filter(row -> Boolean.TRUE.equals(row.get("master")))
                .mapToLong(row -> ((Number) row.get("liveHeapBytes")).longValue()).findFirst().orElse(-1);
    }
}
