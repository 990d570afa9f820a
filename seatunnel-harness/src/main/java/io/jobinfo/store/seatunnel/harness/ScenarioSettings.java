package io.jobinfo.store.seatunnel.harness;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One run of the real-engine scenario: {@code members} member processes per cluster, {@code jobs} measured jobs whose
 * sizes take turns through {@code sizes}, the variants in the order given (each on a cluster of its own, one after the
 * other), files under {@code workDir}, the drop-in's shaded jar, and how long every job may take to be RUNNING again
 * after the master was killed.
 */
public record ScenarioSettings(int members, int jobs, List<JobSize> sizes, List<Variant> variants, Path workDir,
                               Path pluginJar, Duration restoreTimeout) {

    public ScenarioSettings {
        Objects.requireNonNull(workDir, "workDir");
        sizes = List.copyOf(sizes);
        variants = List.copyOf(variants);
        if (members < 2 || members > 7) {
            throw new IllegalArgumentException("members must be 2..7 (a master and a member to take over), got "
                    + members);
        }
        if (jobs < 1 || jobs > 200) {
            throw new IllegalArgumentException("jobs must be 1..200 (every job runs on the real engine), got " + jobs);
        }
        if (sizes.isEmpty() || variants.isEmpty()) {
            throw new IllegalArgumentException("at least one job size and one variant");
        }
        if (variants.contains(Variant.DROPIN) && pluginJar == null) {
            throw new IllegalArgumentException("the drop-in variant needs the plugin jar (--plugin-jar)");
        }
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
