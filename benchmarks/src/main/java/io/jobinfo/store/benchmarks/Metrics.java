package io.jobinfo.store.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every figure of one run, by name, one value per round (or per JMH iteration). The report quotes medians of these and
 * ratios of medians measured in the same run; nothing is typed by hand.
 */
public final class Metrics {

    private final Map<String, List<Double>> values = new LinkedHashMap<>();
    private final Map<String, String> units = new LinkedHashMap<>();

    public synchronized void add(String name, String unit, double value) {
        values.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        units.putIfAbsent(name, unit);
    }

    public synchronized boolean has(String name) {
        return values.containsKey(name) && !values.get(name).isEmpty();
    }

    public synchronized List<Double> values(String name) {
        return List.copyOf(values.getOrDefault(name, List.of()));
    }

    public synchronized String unit(String name) {
        return units.getOrDefault(name, "");
    }

    /** The median across rounds, or NaN if never measured. */
    public synchronized double median(String name) {
        List<Double> v = values.get(name);
        return v == null || v.isEmpty() ? Double.NaN : median(v);
    }

    public synchronized double min(String name) {
        return values.getOrDefault(name, List.of()).stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    public synchronized double max(String name) {
        return values.getOrDefault(name, List.of()).stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    public synchronized Map<String, List<Double>> all() {
        Map<String, List<Double>> copy = new LinkedHashMap<>();
        values.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        return copy;
    }

    public static double median(List<Double> v) {
        double[] a = v.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(a);
        int n = a.length;
        return n % 2 == 1 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
    }

    /** Nearest-rank percentile of nanosecond samples, in milliseconds. */
    public static double percentileMillis(long[] nanos, double p) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int index = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1e6;
    }
}
