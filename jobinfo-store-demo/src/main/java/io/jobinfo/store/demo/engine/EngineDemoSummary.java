package io.jobinfo.store.demo.engine;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of one real-engine scenario run (the JSON the harness wrote), stock and drop-in side by side: cluster
 * bytes of {@code engine_runningJobInfo} per job for each size (median owned + backup {@code LocalMapStats}), submit
 * p50/p99, kill -9 of the master -> new master and -> every job RUNNING again, and, where the harness measured them,
 * map bytes per job over all jobs, the members' live heap after a full GC and REST latency on a non-master member;
 * each as a drop-in/stock ratio.
 */
public final class EngineDemoSummary {

    public static final String STOCK = "stock";
    public static final String DROPIN = "dropin";
    /** The sizes in the harness's order, with their labels. */
    public static final Map<String, String> SIZES = Map.of("small", "~10 KB", "medium", "~200 KB", "large", "~1.8 MB");
    public static final List<String> SIZE_ORDER = List.of("small", "medium", "large");

    private EngineDemoSummary() {}

    /**
     * The summary of {@code result}: keys {@code members}, {@code jobs}, {@code sizes}, one map per variant
     * ({@code stock}, {@code dropin}) and {@code ratios}; {@code allRunning} is true only if both variants ran and
     * every job of each was RUNNING again after the kill.
     */
    public static Map<String, Object> of(JsonNode result) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("engine", "SeaTunnel 2.3.8");
        s.put("members", result.path("members").asInt());
        s.put("jobs", result.path("jobs").asInt());
        List<String> sizes = new ArrayList<>();
        result.path("sizes").forEach(n -> sizes.add(n.asText()));
        s.put("sizes", sizes);
        boolean allRunning = true;
        JsonNode variants = result.path("variants");
        for (String v : List.of(STOCK, DROPIN)) {
            JsonNode r = variants.path(v);
            if (r.isMissingNode()) {
                allRunning = false;
                continue;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            Map<String, Object> bytes = new LinkedHashMap<>();
            for (String size : SIZE_ORDER) {
                JsonNode b = r.path("bySize").path(size);
                if (!b.isMissingNode()) {
                    bytes.put(size, b.path("medianOwnedPlusBackupBytes").asLong());
                }
            }
            m.put("bytesPerJob", bytes);
            for (String key : List.of("mapBytesPerJob", "liveHeapBytes")) {
                if (r.path(key).isNumber()) {
                    m.put(key, r.path(key).asLong());
                }
            }
            if (r.path("rest").isObject()) {
                m.put("restRunningJobsP50Millis", r.path("rest").path("runningJobsP50Millis").asDouble());
                m.put("restJobInfoP50Millis", r.path("rest").path("jobInfoP50Millis").asDouble());
            }
            m.put("submitP50Millis", r.path("submitP50Millis").asDouble());
            m.put("submitP99Millis", r.path("submitP99Millis").asDouble());
            JsonNode k = r.path("masterKill");
            m.put("killToNewMasterMillis", k.path("killToNewMasterMillis").asLong());
            m.put("killToAllRunningMillis", k.path("killToAllRunningMillis").isNumber()
                    ? k.path("killToAllRunningMillis").asLong() : null);
            m.put("jobsRunningAgain", k.path("running").asInt());
            m.put("jobsAtKill", k.path("jobs").asInt());
            Map<String, String> notRunning = new LinkedHashMap<>();
            k.path("notRunning").fields().forEachRemaining(e -> notRunning.put(e.getKey(), e.getValue().asText()));
            m.put("notRunning", notRunning);
            if (k.has("newMasterStoreReads")) {
                m.put("newMasterStoreReads", k.path("newMasterStoreReads").asLong());
                m.put("newMasterReadFailures", k.path("newMasterReadFailures").asLong());
            }
            allRunning &= notRunning.isEmpty() && m.get("killToAllRunningMillis") != null
                    && k.path("jobs").asInt() > 0;
            m.put("logs", r.path("logs").asText());
            s.put(v, m);
        }
        if (s.get(STOCK) instanceof Map<?, ?> stock && s.get(DROPIN) instanceof Map<?, ?> dropin) {
            Map<String, Object> ratios = new LinkedHashMap<>();
            Map<?, ?> sb = (Map<?, ?>) stock.get("bytesPerJob");
            Map<?, ?> db = (Map<?, ?>) dropin.get("bytesPerJob");
            Map<String, Object> bytes = new LinkedHashMap<>();
            for (String size : SIZE_ORDER) {
                if (sb.get(size) instanceof Long a && db.get(size) instanceof Long b) {
                    bytes.put(size, ratio(b, a));
                }
            }
            ratios.put("bytesPerJob", bytes);
            for (String key : List.of("submitP50Millis", "submitP99Millis", "killToAllRunningMillis",
                    "mapBytesPerJob", "liveHeapBytes", "restRunningJobsP50Millis", "restJobInfoP50Millis")) {
                ratios.put(key, stock.get(key) instanceof Number a && dropin.get(key) instanceof Number b
                        ? ratio(b.doubleValue(), a.doubleValue()) : null);
            }
            s.put("ratiosDropInOverStock", ratios);
        }
        s.put("allRunning", allRunning);
        return s;
    }

    /** {@code a / b} to four significant places; null if {@code b} is 0. */
    public static Double ratio(double a, double b) {
        if (b == 0) {
            return null;
        }
        double r = a / b;
        double scale = Math.pow(10, Math.max(0, 3 - (int) Math.floor(Math.log10(Math.abs(r) == 0 ? 1 : Math.abs(r)))));
        return Math.round(r * scale) / scale;
    }
}
