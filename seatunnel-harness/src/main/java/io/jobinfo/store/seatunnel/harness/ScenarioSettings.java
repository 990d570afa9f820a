package io.jobinfo.store.seatunnel.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One run of the real-engine scenario: {@code members} member processes per cluster, {@code jobs} measured jobs whose
 * sizes take turns through {@code sizes}, the variants in the order given (each on a cluster of its own, one after the
 * other), files under {@code workDir}, the drop-in's shaded jar, and how long every job may take to be RUNNING again
 * after the master was killed; each member's maximum heap ({@code -Xmx}, such as {@code 640m}), the jobs' checkpoint
 * interval and how many times each REST endpoint is timed.
 */
public record ScenarioSettings(int members, int jobs, List<JobSize> sizes, List<Variant> variants, Path workDir,
                               Path pluginJar, Duration restoreTimeout, String memberHeap, int checkpointMillis,
                               int restSamples) {

    /** At most this many measured jobs per cluster. */
    public static final int MAX_JOBS = 300;

    /** The settings of the 3-job comparison: 640 MiB members, 5 s checkpoints, 3 samples per REST endpoint. */
    public ScenarioSettings(int members, int jobs, List<JobSize> sizes, List<Variant> variants, Path workDir,
                            Path pluginJar, Duration restoreTimeout) {
        this(members, jobs, sizes, variants, workDir, pluginJar, restoreTimeout, "640m", 5000, 3);
    }

    public ScenarioSettings {
        Objects.requireNonNull(workDir, "workDir");
        sizes = List.copyOf(sizes);
        variants = List.copyOf(variants);
        if (members < 2 || members > 7) {
            throw new IllegalArgumentException("members must be 2..7 (a master and a member to take over), got "
                    + members);
        }
        if (jobs < 1 || jobs > MAX_JOBS) {
            throw new IllegalArgumentException("jobs must be 1.." + MAX_JOBS + " (every job runs on the real engine),"
                    + " got " + jobs);
        }
        if (memberHeap == null || !memberHeap.matches("[1-9][0-9]*[mMgG]")) {
            throw new IllegalArgumentException("member heap must be a size such as 640m or 2g (java -Xmx), got '"
                    + memberHeap + "'");
        }
        if (checkpointMillis < 1000 || checkpointMillis > 600_000) {
            throw new IllegalArgumentException("checkpoint interval must be 1000..600000 ms, got " + checkpointMillis);
        }
        if (restSamples < 1 || restSamples > 100) {
            throw new IllegalArgumentException("REST samples must be 1..100, got " + restSamples);
        }
        if (sizes.isEmpty() || variants.isEmpty()) {
            throw new IllegalArgumentException("at least one job size and one variant");
        }
        if (variants.contains(Variant.DROPIN) && pluginJar == null) {
            throw new IllegalArgumentException("the drop-in variant needs the plugin jar (--plugin-jar)");
        }
    }

    /** A scenario's run of one variant on a fresh cluster: its figures. */
    @FunctionalInterface
    public interface VariantRun {
        Map<String, Object> run(Variant variant) throws IOException;
    }

    /** Runs every variant, in order, one cluster at a time; returns variant id -> figures. */
    public Map<String, Object> runEach(VariantRun run) throws IOException {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Variant v : variants) {
            out.put(v.id(), run.run(v));
        }
        return out;
    }

    /** The size of the {@code i}-th measured job (0-based): the sizes take turns. */
    public JobSize sizeOf(int i) {
        return sizes.get(i % sizes.size());
    }

    /** What runs on a cluster: SeaTunnel unchanged, or with the drop-in plugin and a local store. */
    public enum Variant {
        STOCK("stock"), DROPIN("dropin");

        private final String id;

        Variant(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }

        /**
         * Parses {@code stock} or {@code dropin}.
         *
         * @throws IllegalArgumentException naming the unknown variant
         */
        public static Variant parse(String s) {
            for (Variant v : values()) {
                if (v.id.equalsIgnoreCase(s.trim())) {
                    return v;
                }
            }
            throw new IllegalArgumentException("unknown variant '" + s + "': use stock and/or dropin");
        }
    }
}
