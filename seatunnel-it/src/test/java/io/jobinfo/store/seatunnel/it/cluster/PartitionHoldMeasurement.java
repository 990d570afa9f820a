package io.jobinfo.store.seatunnel.it.cluster;

import io.jobinfo.store.seatunnel.harness.junit.SeaTunnelClusterExtension;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.map.IMap;
import io.jobinfo.store.seatunnel.harness.ClusterClient;
import org.apache.seatunnel.engine.core.job.JobInfo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * Measures how long the operations a submit causes on {@code engine_runningJobInfo} hold a Hazelcast partition
 * thread, on a running drop-in cluster, per job size: the inline {@code put} SeaTunnel's coordinator makes
 * ({@code put/inline}), the mover's {@code get} of that value ({@code get/inline}) and its compare-and-set
 * {@code replace} with the reference ({@code put/reference}), and the job end's {@code remove}
 * ({@code remove/reference}). Each round puts a real job's {@code JobImmutableInformation} (the bytes of a job the
 * test submitted earlier) as a new {@link JobInfo} under a job id of its own, from the client exactly as SeaTunnel's
 * coordinator puts it, waits until the drop-in has replaced it by a reference, and removes it. The partition-thread
 * time is taken by {@link PartitionHoldInterceptor}, added for the measurement and removed after it.
 *
 * <p>Writes {@code target/seatunnel-it/partition-hold-<backend>.json} and {@code .md}; asserts nothing about time.
 */
public final class PartitionHoldMeasurement {

    /** Job ids of the measurement's own entries: far above SeaTunnel's snowflake ids of this decade. */
    static final long FIRST_ID = 0x7A00_0000_0000_0000L;

    private PartitionHoldMeasurement() {}

    /** Median, p99 (nearest rank), max and count of one figure, in microseconds. */
    public record Stats(long count, double medianMicros, double p99Micros, double maxMicros) {
        static Stats of(List<Long> nanos) {
            List<Long> sorted = new ArrayList<>(nanos);
            sorted.sort(Comparator.naturalOrder());
            if (sorted.isEmpty()) {
                return new Stats(0, 0, 0, 0);
            }
            return new Stats(sorted.size(), sorted.get((sorted.size() - 1) / 2) / 1000.0,
                    sorted.get((int) Math.ceil(0.99 * sorted.size()) - 1) / 1000.0,
                    sorted.get(sorted.size() - 1) / 1000.0);
        }
    }

    /** What one run measured: every sample by size label, and the rows of the report. */
    public record Result(Map<String, List<PartitionHoldInterceptor.Sample>> samples, List<Map<String, Object>> rows) {
    }

    /**
     * Runs {@code rounds} rounds for every job of {@code jobs} (size label -> the job's bytes as Data) and writes the
     * report.
     *
     * @param blobExists whether the store still holds a blob for a job id (the measurement waits until its own are
     *                   deleted)
     */
    public static Result run(ClusterClient client, String backend, String setting, Map<String, Data> jobs, int rounds,
                             java.util.function.LongPredicate blobExists) {
        IMap<Long, JobInfo> map = client.runningJobInfo();
        client.onEveryMember(new PartitionHoldReport());
        String interceptor = map.addInterceptor(new PartitionHoldInterceptor());
        Map<String, List<PartitionHoldInterceptor.Sample>> samples = new LinkedHashMap<>();
        List<Long> ids = new ArrayList<>();
        try {
            long id = FIRST_ID;
            for (Map.Entry<String, Data> job : jobs.entrySet()) {
                for (int r = 0; r < rounds; r++) {
                    long key = id++;
                    ids.add(key);
                    map.put(key, new JobInfo(System.currentTimeMillis(), job.getValue()));
                    // the entry's cost, not its value: a get here would be measured as one of the mover's gets
                    ClusterClient.await(() -> {
                        com.hazelcast.core.EntryView<Long, JobInfo> v = map.getEntryView(key);
                        return v != null && v.getCost() < 1000;
                    }, Duration.ofSeconds(60), () -> "measurement entry " + key + " was not moved to the store");
                    map.remove(key);
                }
                List<PartitionHoldInterceptor.Sample> taken = new ArrayList<>();
                for (List<PartitionHoldInterceptor.Sample> s : client.onEveryMember(new PartitionHoldReport())
                        .values()) {
                    taken.addAll(s);
                }
                samples.put(job.getKey(), taken);
            }
        } finally {
            map.removeInterceptor(interceptor);
        }
        for (long key : ids) {
            ClusterClient.await(() -> !blobExists.test(key), Duration.ofSeconds(60),
                    () -> "the blob of measurement entry " + key + " was not deleted");
        }
        List<Map<String, Object>> rows = rows(samples, jobs);
        write(backend, setting, rounds, rows);
        return new Result(samples, rows);
    }

    private static List<Map<String, Object>> rows(Map<String, List<PartitionHoldInterceptor.Sample>> samples,
                                                  Map<String, Data> jobs) {
        List<Map<String, Object>> rows = new ArrayList<>();
        String[][] ops = {{"put", "inline"}, {"get", "inline"}, {"put", "reference"}, {"remove", "reference"}};
        for (Map.Entry<String, List<PartitionHoldInterceptor.Sample>> e : samples.entrySet()) {
            long jobBytes = jobs.get(e.getKey()).totalSize();
            for (String[] op : ops) {
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
                // the drop-in puts no interceptor on the map: the hold is the record store's work; the chain is the cost
                // the instrument's own interceptor adds, reported beside it (what the join guard cost on this map)
                row.put("total", Stats.of(nanos(mine, PartitionHoldInterceptor.Sample::spanNanos)));
                row.put("recordStore", Stats.of(nanos(mine, PartitionHoldInterceptor.Sample::spanNanos)));
                row.put("interceptorChainSerialization", Stats.of(nanos(mine,
                        PartitionHoldInterceptor.Sample::chainNanos)));
                row.put("threads", mine.stream().map(s -> s.thread().replaceAll("[0-9]+", "#")).distinct().toList());
                rows.add(row);
            }
        }
        return rows;
    }

    private static List<Long> nanos(List<PartitionHoldInterceptor.Sample> samples,
                                    ToLongFunction<PartitionHoldInterceptor.Sample> f) {
        List<Long> out = new ArrayList<>();
        for (PartitionHoldInterceptor.Sample s : samples) {
            out.add(f.applyAsLong(s));
        }
        return out;
    }

    private static void write(String backend, String setting, int rounds, List<Map<String, Object>> rows) {
        Path dir = SeaTunnelClusterExtension.TARGET;
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("backend", backend);
        report.put("setting", setting);
        report.put("roundsPerJob", rounds);
        report.put("unit", "microseconds of one partition thread per operation");
        report.put("rows", rows);
        StringBuilder md = new StringBuilder();
        md.append("## Partition-thread hold per operation: ").append(backend).append("\n\n").append(setting)
                .append("; ").append(rounds).append(" rounds per job; microseconds, total = the record store's work (the"
                        + " drop-in puts no interceptor on the map); chain = the (de)serialization any interceptor on the"
                        + " map would add (the measuring one's, not the drop-in's)\n\n");
        md.append("| job | bytes | operation | n | median | p99 | max | an interceptor's chain (median) |\n");
        md.append("|---|---:|---|---:|---:|---:|---:|---:|\n");
        for (Map<String, Object> row : rows) {
            Stats t = (Stats) row.get("total");
            Stats c = (Stats) row.get("interceptorChainSerialization");
            md.append(String.format(Locale.ROOT, "| %s | %d | %s | %d | %.0f | %.0f | %.0f | %.0f |%n", row.get("job"),
                    (Long) row.get("jobBytes"), row.get("operation"), t.count(), t.medianMicros(), t.p99Micros(),
                    t.maxMicros(), c.medianMicros()));
        }
        try {
            Files.createDirectories(dir);
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValue(dir.resolve("partition-hold-" + backend + ".json").toFile(), report);
            Files.writeString(dir.resolve("partition-hold-" + backend + ".md"), md);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the partition-hold report", e);
        }
    }
}
