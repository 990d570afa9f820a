package io.jobinfo.store.seatunnel.harness.partition;

import com.hazelcast.core.EntryView;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.map.IMap;
import io.jobinfo.store.seatunnel.harness.ClusterClient;
import io.jobinfo.store.seatunnel.harness.Json;
import org.apache.seatunnel.engine.core.job.JobInfo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * Measures how long the operations a submit causes on {@code engine_runningJobInfo} hold a Hazelcast partition
 * thread, on a running cluster, per job size: the inline {@code put} SeaTunnel's coordinator makes
 * ({@code put/inline}) and, with the drop-in, the mover's {@code get} of that value ({@code get/inline}) and its
 * compare-and-set {@code replace} with the reference ({@code put/reference}), and the job end's {@code remove}
 * ({@code remove/reference}; stock: {@code remove/inline}). Each round puts a real job's
 * {@code JobImmutableInformation} (the bytes of a job submitted earlier) as a new {@link JobInfo} under a job id of
 * its own, from the client exactly as SeaTunnel's coordinator puts it, waits (drop-in) until the drop-in has replaced
 * it by a reference, and removes it. The partition-thread time is taken by {@link PartitionHoldInterceptor}.
 *
 * <p>Used by seatunnel-it's drop-in tests ({@link #run}: the interceptor added for the measurement and removed after
 * it, a report written) and by the harness's partition-hold scenario ({@link #intercept}, {@link #puts},
 * {@link #gets}, {@link #removes}, {@link #collect}, each phase's samples taken on their own). Nothing here asserts
 * anything about time. Failures: a value the drop-in does not replace within 60 s, or a blob not deleted within
 * 60 s, throws {@link AssertionError} naming the entry ({@link ClusterClient#await}); a member that does not answer the collection fails
 * it ({@link ClusterClient#onEveryMember}).
 */
public final class PartitionHoldMeasurement {

    /** Job ids of the measurement's own entries: far above SeaTunnel's snowflake ids of this decade. */
    public static final long FIRST_ID = 0x7A00_0000_0000_0000L;
    /** The operations of a drop-in submit and job end, in the order of the report. */
    private static final String[][] OPS = {{"put", "inline"}, {"get", "inline"}, {"put", "reference"},
        {"remove", "reference"}};

    private PartitionHoldMeasurement() {}

    /** What one run measured: every sample by size label, and the rows of the report. */
    public record Result(Map<String, List<PartitionHoldInterceptor.Sample>> samples, List<Map<String, Object>> rows) {
    }

    /**
     * Adds the interceptor to {@code engine_runningJobInfo} (Hazelcast copies it to every member) after forgetting
     * every sample the members still hold; returns its registration id.
     */
    public static String intercept(ClusterClient client) {
        collect(client);
        return client.runningJobInfo().addInterceptor(new PartitionHoldInterceptor());
    }

    /** Takes (and forgets) the samples every member recorded since the last collection. */
    public static List<PartitionHoldInterceptor.Sample> collect(ClusterClient client) {
        List<PartitionHoldInterceptor.Sample> taken = new ArrayList<>();
        for (List<PartitionHoldInterceptor.Sample> s : client.onEveryMember(new PartitionHoldReport()).values()) {
            taken.addAll(s);
        }
        return taken;
    }

    /**
     * The drop-in tests' measurement: {@code rounds} rounds for every job of {@code jobs} (size label -> the job's
     * bytes as Data) with the interceptor added for it, then waits until the store no longer holds the entries' blobs
     * and writes {@code partition-hold-<backend>.json} and {@code .md} to {@code reportDir}.
     *
     * @param blobExists whether the store still holds a blob for a job id (the measurement waits until its own are
     *                   deleted)
     * @throws UncheckedIOException if the report cannot be written
     */
    public static Result run(ClusterClient client, String backend, String setting, Map<String, Data> jobs, int rounds,
                             LongPredicate blobExists, Path reportDir) {
        IMap<Long, JobInfo> map = client.runningJobInfo();
        String interceptor = intercept(client);
        Map<String, List<PartitionHoldInterceptor.Sample>> samples = new LinkedHashMap<>();
        List<Long> ids = new ArrayList<>();
        try {
            long id = FIRST_ID;
            for (Map.Entry<String, Data> job : jobs.entrySet()) {
                for (int r = 0; r < rounds; r++) {
                    List<Long> one = puts(client, job.getValue(), id++, 1, true);
                    removes(client, one);
                    ids.addAll(one);
                }
                samples.put(job.getKey(), collect(client));
            }
        } finally {
            map.removeInterceptor(interceptor);
        }
        for (long key : ids) {
            ClusterClient.await(() -> !blobExists.test(key), Duration.ofSeconds(60),
                    () -> "the blob of measurement entry " + key + " was not deleted");
        }
        List<Map<String, Object>> rows = rows(samples, jobs);
        write(reportDir, backend, setting, rounds, rows);
        return new Result(samples, rows);
    }

    /**
     * Puts {@code job} as a new {@link JobInfo} under {@code count} ids from {@code firstId} on, one after the other,
     * as SeaTunnel's coordinator puts a submitted job; with {@code awaitMove}, after each put waits until the drop-in
     * has replaced the value by its reference (the entry's cost, not its value, is read: a get would be measured).
     * Returns the ids.
     *
     * @throws AssertionError if a value is not replaced within 60 s ({@link ClusterClient#await})
     */
    public static List<Long> puts(ClusterClient client, Data job, long firstId, int count, boolean awaitMove) {
        IMap<Long, JobInfo> map = client.runningJobInfo();
        List<Long> ids = new ArrayList<>();
        for (int r = 0; r < count; r++) {
            long key = firstId + r;
            ids.add(key);
            map.put(key, new JobInfo(System.currentTimeMillis(), job));
            if (awaitMove) {
                awaitMoved(client, key);
            }
        }
        return ids;
    }

    /**
     * Waits until the drop-in has replaced the value of {@code key} by its reference: the entry's cost is read, not
     * its value (a get would be one of the measured operations).
     *
     * @throws AssertionError if it is not replaced within 60 s ({@link ClusterClient#await})
     */
    public static void awaitMoved(ClusterClient client, long key) {
        IMap<Long, JobInfo> map = client.runningJobInfo();
        ClusterClient.await(() -> {
            EntryView<Long, JobInfo> v = map.getEntryView(key);
            return v != null && v.getCost() < 1000;
        }, Duration.ofSeconds(60), () -> "entry " + key + " was not moved to the store");
    }

    /** Gets every id of {@code ids} from the client once, as SeaTunnel's REST job-info and a restore do. */
    public static void gets(ClusterClient client, List<Long> ids) {
        IMap<Long, JobInfo> map = client.runningJobInfo();
        for (long key : ids) {
            map.get(key);
        }
    }

    /** Removes every id of {@code ids}, as SeaTunnel's job end does. */
    public static void removes(ClusterClient client, List<Long> ids) {
        IMap<Long, JobInfo> map = client.runningJobInfo();
        for (long key : ids) {
            map.remove(key);
        }
    }

    /**
     * The samples of {@code samples} by operation ({@code op/kind}, such as {@code put/inline}), in the order first
     * seen; values of kind {@code none} (a get of an absent key) are left out.
     */
    public static Map<String, List<PartitionHoldInterceptor.Sample>> byOperation(
            List<PartitionHoldInterceptor.Sample> samples) {
        Map<String, List<PartitionHoldInterceptor.Sample>> out = new LinkedHashMap<>();
        for (PartitionHoldInterceptor.Sample s : samples) {
            if (!s.kind().equals("none")) {
                out.computeIfAbsent(s.op() + "/" + s.kind(), k -> new ArrayList<>()).add(s);
            }
        }
        return out;
    }

    private static List<Map<String, Object>> rows(Map<String, List<PartitionHoldInterceptor.Sample>> samples,
                                                  Map<String, Data> jobs) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Map.Entry<String, List<PartitionHoldInterceptor.Sample>> e : samples.entrySet()) {
            long jobBytes = jobs.get(e.getKey()).totalSize();
            for (String[] op : OPS) {
                List<PartitionHoldInterceptor.Sample> mine = new ArrayList<>();
                for (PartitionHoldInterceptor.Sample s : e.getValue()) {
                    // the job's own operations: inline values of this size, references of any job
                    boolean inlineOfThisJob = s.kind().equals("inline") && s.valueBytes() == jobBytes;
                    if (s.op().equals(op[0]) && s.kind().equals(op[1])
                            && (op[1].equals("reference") || inlineOfThisJob)) {
                        mine.add(s);
                    }
                }
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("job", e.getKey());
                row.put("jobBytes", jobBytes);
                row.put("operation", op[0] + "/" + op[1]);
                // the drop-in puts no interceptor on the map: the hold is the record store's work; the chain is the
                // cost the instrument's own interceptor adds, reported beside it (what the join guard cost on this map)
                row.put("total", PartitionHoldStats.ofSpans(mine));
                row.put("recordStore", PartitionHoldStats.ofSpans(mine));
                row.put("interceptorChainSerialization", chain(mine));
                row.put("threads", mine.stream().map(s -> s.thread().replaceAll("[0-9]+", "#")).distinct().toList());
                rows.add(row);
            }
        }
        return rows;
    }

    /** The statistics of the interceptor chain's (de)serialization ({@code chainNanos}) of {@code samples}. */
    public static PartitionHoldStats chain(List<PartitionHoldInterceptor.Sample> samples) {
        List<Long> nanos = new ArrayList<>();
        for (PartitionHoldInterceptor.Sample s : samples) {
            nanos.add(s.chainNanos());
        }
        return PartitionHoldStats.of(nanos);
    }

    private static void write(Path dir, String backend, String setting, int rounds, List<Map<String, Object>> rows) {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("backend", backend);
        report.put("setting", setting);
        report.put("roundsPerJob", rounds);
        report.put("unit", "microseconds of one partition thread per operation");
        List<Map<String, Object>> jsonRows = new ArrayList<>();
        for (Map<String, Object> row : rows) {
            Map<String, Object> j = new LinkedHashMap<>(row);
            j.replaceAll((k, v) -> v instanceof PartitionHoldStats s ? s.toMap() : v);
            jsonRows.add(j);
        }
        report.put("rows", jsonRows);
        StringBuilder md = new StringBuilder();
        md.append("## Partition-thread hold per operation: ").append(backend).append("\n\n").append(setting)
                .append("; ").append(rounds).append(" rounds per job; microseconds, total = the record store's work (the"
                        + " drop-in puts no interceptor on the map); chain = the (de)serialization any interceptor on the"
                        + " map would add (the measuring one's, not the drop-in's)\n\n");
        md.append("| job | bytes | operation | n | median | p99 | max | an interceptor's chain (median) |\n");
        md.append("|---|---:|---|---:|---:|---:|---:|---:|\n");
        for (Map<String, Object> row : rows) {
            PartitionHoldStats t = (PartitionHoldStats) row.get("total");
            PartitionHoldStats c = (PartitionHoldStats) row.get("interceptorChainSerialization");
            md.append(String.format(Locale.ROOT, "| %s | %d | %s | %d | %.0f | %.0f | %.0f | %.0f |%n", row.get("job"),
                    (Long) row.get("jobBytes"), row.get("operation"), t.count(), t.medianMicros(), t.p99Micros(),
                    t.maxMicros(), c.medianMicros()));
        }
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("partition-hold-" + backend + ".json"), Json.write(report),
                    StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("partition-hold-" + backend + ".md"), md, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the partition-hold report to " + dir, e);
        }
    }
}
