package io.jobinfo.store.seatunnel.harness.partition;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Median, p99 (nearest rank), max and count of one figure of {@link PartitionHoldInterceptor}'s samples, in
 * microseconds; all zero for no samples.
 */
public record PartitionHoldStats(long count, double medianMicros, double p99Micros, double maxMicros) {

    /** The statistics of {@code nanos} (any order; not changed). */
    public static PartitionHoldStats of(List<Long> nanos) {
        List<Long> sorted = new ArrayList<>(nanos);
        sorted.sort(Comparator.naturalOrder());
        if (sorted.isEmpty()) {
            return new PartitionHoldStats(0, 0, 0, 0);
        }
        return new PartitionHoldStats(sorted.size(), sorted.get((sorted.size() - 1) / 2) / 1000.0,
                sorted.get((int) Math.ceil(0.99 * sorted.size()) - 1) / 1000.0,
                sorted.get(sorted.size() - 1) / 1000.0);
    }

    /** The statistics of the record-store spans ({@link PartitionHoldInterceptor.Sample#spanNanos}) of {@code samples}. */
    public static PartitionHoldStats ofSpans(List<PartitionHoldInterceptor.Sample> samples) {
        List<Long> nanos = new ArrayList<>();
        for (PartitionHoldInterceptor.Sample s : samples) {
            nanos.add(s.spanNanos());
        }
        return of(nanos);
    }

    /** As a map with the record's component names as keys (for the harness's JSON writer). */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", count);
        m.put("medianMicros", medianMicros);
        m.put("p99Micros", p99Micros);
        m.put("maxMicros", maxMicros);
        return m;
    }
}
