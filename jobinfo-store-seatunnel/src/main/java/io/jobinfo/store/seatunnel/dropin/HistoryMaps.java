package io.jobinfo.store.seatunnel.dropin;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The setting {@code seatunnel.engine.jobinfo-dropin.history}: which of SeaTunnel's finished-job maps keep their
 * values on the store ({@link HistoryMover}). {@code off} (the default), {@code metrics}
 * ({@value #METRICS}: the one that grows with the job, ~348 KB for a 110 x 20 job) or {@code all} (also
 * {@value #STATE} and {@value #DAG}, ~3 KB each). Each map has a sub-namespace of its own under the store's namespace
 * ({@link #subNamespace}), so its blobs, keyed by job id as the running jobs' are, never collide with them.
 */
final class HistoryMaps {

    static final String KEY = "history";
    static final String METRICS = "engine_finishedJobMetrics";
    static final String STATE = "engine_finishedJobState";
    static final String DAG = "engine_finishedJobVertexInfo";

    private HistoryMaps() {
    }

    /** The maps named by the section's {@value #KEY} value; a problem (and none) for a value that is no choice. */
    static List<String> parse(Map<?, ?> section, String name, List<String> problems) {
        Object value = section.get(KEY);
        if (value == null) {
            return Collections.emptyList();
        }
        String v = String.valueOf(value).trim().toLowerCase(Locale.ROOT);
        if (v.equals("off") || v.equals("false")) {
            return Collections.emptyList();
        }
        if (v.equals("metrics")) {
            return Collections.singletonList(METRICS);
        }
        if (v.equals("all")) {
            return Collections.unmodifiableList(Arrays.asList(METRICS, STATE, DAG));
        }
        problems.add(name + ": '" + value + "' is not a choice; use off (the default: finished jobs' history stays in"
                + " the cluster as on the stock engine), metrics (" + METRICS + " on the store) or all (" + METRICS
                + ", " + STATE + " and " + DAG + ")");
        return Collections.emptyList();
    }

    /** The namespace of {@code map}'s blobs: {@code <namespace>/history/<map>}. */
    static String subNamespace(String namespace, String map) {
        String base = namespace.endsWith("/") ? namespace.substring(0, namespace.length() - 1) : namespace;
        return base + "/history/" + map;
    }
}
