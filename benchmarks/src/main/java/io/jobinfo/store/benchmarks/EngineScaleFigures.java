package io.jobinfo.store.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The figures of the real-engine scale scenario ({@link SeaTunnelScaleBenchmark}), read from one variant's part of
 * the harness's JSON, and their growth per 10x jobs. A figure the JSON lacks is left out, never made up.
 */
final class EngineScaleFigures {

    private EngineScaleFigures() {}

    /** One figure: its metric key, its label in the report, how to print it and where it is in the JSON. */
    enum Figure {
        MAP_BYTES_PER_JOB("B", "mapBytesPerJob", "`engine_runningJobInfo` bytes per job (owned + backup)", "%.0f",
                r -> r.path("mapBytesPerJob")),
        LIVE_HEAP("MiB", "liveHeapMiB", "live heap after full GC, all members (MiB)", "%.1f",
                r -> mib(r.path("liveHeapBytes"))),
        MASTER_LIVE_HEAP("MiB", "masterLiveHeapMiB", "live heap after full GC, master (MiB)", "%.1f",
                r -> mib(master(r.path("liveHeap")))),
        LIVE_HEAP_PER_JOB("KiB", "liveHeapKiBPerJob", "live heap added per job, all members (KiB)", "%.0f",
                r -> kib(r.path("liveHeapBytesPerJob"))),
        SUBMIT_P50("ms", "submitP50", "submit p50 (ms)", "%.0f", r -> r.path("submitP50Millis")),
        SUBMIT_P99("ms", "submitP99", "submit p99 (ms)", "%.0f", r -> r.path("submitP99Millis")),
        KILL_TO_ALL_RUNNING("ms", "killToAllRunning", "kill -9 master -> every job RUNNING (ms)", "%.0f",
                r -> r.path("masterKill").path("killToAllRunningMillis")),
        REST_RUNNING_JOBS("ms", "restRunningJobs", "REST running-jobs on a non-master, p50 (ms)", "%.1f",
                r -> r.path("rest").path("runningJobsP50Millis")),
        REST_JOB_INFO_P50("ms", "restJobInfoP50", "REST job-info/<id> on a non-master, p50 (ms)", "%.1f",
                r -> r.path("rest").path("jobInfoP50Millis")),
        REST_JOB_INFO_P99("ms", "restJobInfoP99", "REST job-info/<id> on a non-master, p99 (ms)", "%.1f",
                r -> r.path("rest").path("jobInfoP99Millis")),
        WAL_BYTES_PER_JOB("B", "walBytesPerJob", "IMap persistence WAL bytes per job, `engine_runningJobInfo`",
                "%.0f", r -> r.path("wal").path("walBytesPerJob")),
        WAL_LARGEST_JOB("B", "walLargestJobBytes", "IMap persistence WAL bytes of the largest job,"
                + " `engine_runningJobInfo`", "%.0f", r -> r.path("wal").path("walLargestJobBytes")),
        WAL_ALL_MAPS_PER_JOB("B", "walAllMapsBytesPerJob", "IMap persistence WAL bytes per job, all `engine*` maps"
                + " during the submits", "%.0f", r -> r.path("wal").path("walAllMapsBytesPerJob"));

        /** The figures measured only with IMap persistence on: a report without them leaves their rows out. */
        static final java.util.Set<Figure> PERSISTENCE = java.util.EnumSet.of(WAL_BYTES_PER_JOB, WAL_LARGEST_JOB,
                WAL_ALL_MAPS_PER_JOB);

        final String unit;
        final String key;
        final String label;
        final String format;
        private final Function<JsonNode, JsonNode> path;

        Figure(String unit, String key, String label, String format, Function<JsonNode, JsonNode> path) {
            this.unit = unit;
            this.key = key;
            this.label = label;
            this.format = format;
            this.path = path;
        }
    }

    /** The figures present in {@code variantResult} (one entry of the JSON's {@code variants}), by figure. */
    static Map<Figure, Double> of(JsonNode variantResult) {
        Map<Figure, Double> out = new LinkedHashMap<>();
        for (Figure f : Figure.values()) {
            JsonNode v = f.path.apply(variantResult);
            if (v != null && v.isNumber()) {
                out.put(f, v.asDouble());
            }
        }
        return out;
    }

    /**
     * The factor a figure grows by per 10x jobs between the first and last of {@code counts} with a value
     * ({@code values}, same order; NaN for none): {@code (v2 / v1) ^ (1 / log10(n2 / n1))}. A figure that grows in
     * proportion to the jobs gives 10, one per job that stays flat 1. NaN if fewer than two counts have a positive
     * value.
     */
    static double growthPer10x(List<Integer> counts, List<Double> values) {
        int first = -1;
        int last = -1;
        for (int i = 0; i < counts.size(); i++) {
            double v = values.get(i);
            if (!Double.isNaN(v) && v > 0) {
                if (first < 0) {
                    first = i;
                }
                last = i;
            }
        }
        if (first < 0 || last == first) {
            return Double.NaN;
        }
        double decades = Math.log10((double) counts.get(last) / counts.get(first));
        return Math.pow(values.get(last) / values.get(first), 1 / decades);
    }

    private static JsonNode master(JsonNode members) {
        for (JsonNode m : members) {
            if (m.path("master").asBoolean()) {
                return m.path("liveHeapBytes");
            }
        }
        return null;
    }

    private static JsonNode mib(JsonNode bytes) {
        return bytes == null || !bytes.isNumber() ? null
                : com.fasterxml.jackson.databind.node.DoubleNode.valueOf(bytes.asDouble() / (1 << 20));
    }

    private static JsonNode kib(JsonNode bytes) {
        return bytes == null || !bytes.isNumber() ? null
                : com.fasterxml.jackson.databind.node.DoubleNode.valueOf(bytes.asDouble() / 1024);
    }
}
