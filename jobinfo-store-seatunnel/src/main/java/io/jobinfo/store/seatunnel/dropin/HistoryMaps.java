package io.jobinfo.store.seatunnel.dropin;

import io.jobinfo.store.config.JobInfoStorageConfig;

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
public final class HistoryMaps {

    static final String KEY = "history";
    public static final String METRICS = "engine_finishedJobMetrics";
    public static final String STATE = "engine_finishedJobState";
    public static final String DAG = "engine_finishedJobVertexInfo";
    /** The three maps, in the order of {@code history: all}. */
    public static final List<String> ALL = Collections.unmodifiableList(Arrays.asList(METRICS, STATE, DAG));

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
            return ALL;
        }
        problems.add(name + ": '" + value + "' is not a choice; use off (the default: finished jobs' history stays in"
                + " the cluster as on the stock engine), metrics (" + METRICS + " on the store) or all (" + METRICS
                + ", " + STATE + " and " + DAG + ")");
        return Collections.emptyList();
    }

    /**
     * The storage of {@code map}'s blobs: {@code main}'s type, cache and plugin-config over the sub-namespace
     * {@link #subNamespace}; what the members and the ops CLI's {@code gc --history} open.
     */
    public static JobInfoStorageConfig storageOf(JobInfoStorageConfig main, String map) {
        return JobInfoStorageConfig.builder(main.type())
                .namespace(subNamespace(main.namespace(), map))
                .cacheMaxBytes(main.cache().maxBytes()).cacheMaxEntryBytes(main.cache().maxEntryBytes())
                .options(main.pluginConfig()).build();
    }

    /**
     * The side map whose per-id locks claim {@code map}'s ids for deletes and moves (the drop-in's moves, expiry
     * deletes and gc, and the ops CLI's {@code gc --history}); it holds no value.
     */
    public static String claimsMap(String map) {
        return HistoryMover.CLAIMS_PREFIX + map;
    }

    /** The namespace of {@code map}'s blobs: {@code <namespace>/history/<map>}. */
    static String subNamespace(String namespace, String map) {
        String base = namespace.endsWith("/") ? namespace.substring(0, namespace.length() - 1) : namespace;
        return base + "/history/" + map;
    }
}
