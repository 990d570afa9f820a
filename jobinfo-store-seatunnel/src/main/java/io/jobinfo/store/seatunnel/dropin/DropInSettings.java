package io.jobinfo.store.seatunnel.dropin;

import io.jobinfo.store.config.ConfigYaml;
import io.jobinfo.store.config.ByteSize;
import io.jobinfo.store.config.InvalidConfigurationException;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.spi.JobInfoStores;
import org.apache.seatunnel.engine.common.config.YamlSeaTunnelConfigLocator;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The drop-in's configuration: the {@code jobinfo-storage} section of the member's {@code seatunnel.yaml}, under
 * {@code seatunnel.engine} next to {@code checkpoint}, found the way SeaTunnel finds that file
 * ({@code -Dseatunnel.config}, then the working directory, then the classpath), plus tuning from system properties
 * ({@value #PREFIX}*). One file for the engine's settings, in the shape users of {@code checkpoint.storage} know;
 * SeaTunnel 2.3.8 only logs "Unrecognized element: jobinfo-storage" and otherwise ignores the section.
 *
 * <p>Failure: {@link #load} throws {@link DropInRefusedException} when the section is missing (a member with the
 * plugin jar must be configured: see {@link DropInService}) and {@link InvalidConfigurationException} listing every
 * problem of the section and of the tuning properties at once.
 */
public final class DropInSettings {

    public static final String PREFIX = "jobinfo.dropin.";
    /**
     * How long a read of a job retries a store that fails before the job's restore fails (seconds; 600 by default:
     * SeaTunnel 2.3.8 never retries a failed restore, so a store outage shorter than this across a master switch
     * ends with the jobs restored).
     */
    public static final String READ_TIMEOUT = PREFIX + "read-timeout-seconds";
    /**
     * How long a read holds a Hazelcast partition or operation thread at most (seconds; 5 by default); the read goes
     * on on a reader thread and a later call finds the job cached.
     */
    public static final String OPERATION_THREAD_WAIT = PREFIX + "operation-thread-wait-seconds";
    /** How often the member looks for inline values it owns and retries moves and deletes (seconds). */
    public static final String SWEEP_INTERVAL = PREFIX + "sweep-interval-seconds";
    /** How old a blob without a map entry must be before the master deletes it (seconds). */
    public static final String GC_GRACE = PREFIX + "gc-grace-seconds";
    /**
     * How long a member count below the largest one seen keeps deletes held (seconds): a member that is cut off, or
     * a cluster that lost members, sees only part of the map and must not take the blobs of jobs it cannot see for
     * orphans.
     */
    public static final String VIEW_WINDOW = PREFIX + "view-window-seconds";
    /** How often a member logs an INFO summary of its moves, deletes, gc and reads (seconds). */
    public static final String SUMMARY_INTERVAL = PREFIX + "summary-interval-seconds";
    /** Threads that write blobs and delete them, per member. */
    public static final String MOVE_THREADS = PREFIX + "move-threads";

    /** The mapping next to {@code jobinfo-storage} under {@code seatunnel.engine} that holds {@link #MODE_KEY}. */
    public static final String DROPIN_SECTION = "jobinfo-dropin";
    /** The drop-in's mode, {@code active} (default) or {@code passive}: see {@link Mode}. */
    public static final String MODE_KEY = "mode";

    /**
     * What the drop-in does on this member. Both read jobs stored by reference and delete a job's blob when SeaTunnel
     * removes its entry; only {@code ACTIVE} writes references.
     */
    public enum Mode {
        /**
         * Moves every job to the store (at submit, and inline jobs found by the sweep) once every member runs the
         * drop-in, and installs the {@link JoinGuardInterceptor} that keeps members without the plugin out.
         */
        ACTIVE,
        /**
         * Moves nothing and keeps no member out: it removes the join guard if an active member had installed it. For
         * the two rolling restarts of adoption and removal, where members without the plugin must be able to join
         * (and leave) a cluster whose jobs stay inline; {@code jobinfo-store migrate} or {@code migrate --rollback}
         * moves the jobs meanwhile.
         */
        PASSIVE
    }

    private final JobInfoStorageConfig storage;
    private final Mode mode;
    private final String source;
    private final long readTimeoutMillis;
    private final long sweepIntervalMillis;
    private final long gcGraceMillis;
    private final int moveThreads;
    private final long viewWindowMillis;
    private final long operationThreadWaitMillis;
    private final long summaryIntervalMillis;
    private final boolean telemetryMetrics;
    private List<String> historyMaps = Collections.emptyList();
    private long historyMaxRetained = HistoryRetention.UNBOUNDED;
    /** -1: the running jobs' cache bound ({@code jobinfo-storage.cache.max-bytes}). */
    private long historyCacheMaxBytes = -1;

    DropInSettings(JobInfoStorageConfig storage, Mode mode, String source, long readTimeoutMillis,
                   long sweepIntervalMillis, long gcGraceMillis, int moveThreads, long viewWindowMillis,
                   long operationThreadWaitMillis, long summaryIntervalMillis, boolean telemetryMetrics) {
        this.storage = storage;
        this.mode = mode;
        this.source = source;
        this.readTimeoutMillis = readTimeoutMillis;
        this.sweepIntervalMillis = sweepIntervalMillis;
        this.gcGraceMillis = gcGraceMillis;
        this.moveThreads = moveThreads;
        this.viewWindowMillis = viewWindowMillis;
        this.operationThreadWaitMillis = operationThreadWaitMillis;
        this.summaryIntervalMillis = summaryIntervalMillis;
        this.telemetryMetrics = telemetryMetrics;
    }

    /**
     * Finds and checks the configuration of this member.
     *
     * @throws DropInRefusedException        no seatunnel.yaml, or no {@code jobinfo-storage} section in it
     * @throws InvalidConfigurationException every problem of the section (core and backend keys) and of the tuning
     *                                       properties
     */
    public static DropInSettings load(Properties system) {
        YamlSeaTunnelConfigLocator locator = new YamlSeaTunnelConfigLocator();
        if (!locator.locateFromSystemProperty() && !locator.locateInWorkDirOrOnClasspath()) {
            throw new DropInRefusedException("the jobinfo-store drop-in is installed (its jar is on the classpath) but"
                    + " this member has no seatunnel.yaml (-Dseatunnel.config, the working directory or the classpath);"
                    + " add a jobinfo-storage section under seatunnel.engine, or remove the jar from every member");
        }
        String where = locator.getConfigurationFile() != null ? locator.getConfigurationFile().getAbsolutePath()
                : String.valueOf(locator.getConfigurationUrl());
        Map<?, ?> root;
        try (InputStream in = locator.getIn(); Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            Object parsed = new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
            root = parsed instanceof Map ? (Map<?, ?>) parsed : Collections.emptyMap();
        } catch (YAMLException e) {
            throw new InvalidConfigurationException(Collections.singletonList(where + ": is not valid YAML: "
                    + ConfigYaml.describeSafely(e)));
        } catch (IOException | RuntimeException e) {
            // not SnakeYAML's: an I/O failure; its class, not its message (which could quote the file)
            throw new InvalidConfigurationException(Collections.singletonList(where + ": cannot be read ("
                    + e.getClass().getSimpleName() + "); check the file and its permissions"));
        }
        return fromRoot(root, where, system);
    }

    /** Like {@link #load} for a parsed seatunnel.yaml ({@code where} names it in messages). */
    public static DropInSettings fromRoot(Map<?, ?> root, String where, Properties system) {
        Object section = sectionOf(root);
        if (section == null) {
            throw new DropInRefusedException("the jobinfo-store drop-in is installed (its jar is on the classpath) but "
                    + where + " has no " + JobInfoStorageConfig.SECTION + " section under seatunnel.engine; a member"
                    + " that cannot read the stored jobs must not join the cluster: add the section (the same on every"
                    + " member) or remove the jar from every member");
        }
        List<String> problems = new ArrayList<>();
        JobInfoStorageConfig storage = null;
        if (!(section instanceof Map)) {
            problems.add("seatunnel.engine." + JobInfoStorageConfig.SECTION + " in " + where
                    + ": must be a mapping of type, namespace, cache and plugin-config");
        } else {
            try {
                storage = JobInfoStores.checked((Map<?, ?>) section);
            } catch (InvalidConfigurationException e) {
                problems.addAll(e.problems());
            }
        }
        Mode mode = mode(root, where, problems);
        List<String> history = HistoryMaps.parse(dropInSection(root), "seatunnel.engine." + DROPIN_SECTION + "."
                + HistoryMaps.KEY, problems);
        long maxRetained = HistoryRetention.parse(dropInSection(root), "seatunnel.engine." + DROPIN_SECTION + "."
                + HistoryRetention.KEY, problems);
        long historyCache = historyCacheMaxBytes(dropInSection(root), problems);
        long readTimeout = number(system, READ_TIMEOUT, 600, 0, 86_400, problems) * 1000;
        long operationThreadWait = number(system, OPERATION_THREAD_WAIT, 5, 0, 600, problems) * 1000;
        long summaryInterval = number(system, SUMMARY_INTERVAL, 300, 1, 86_400, problems) * 1000;
        long sweep = number(system, SWEEP_INTERVAL, 10, 1, 86_400, problems) * 1000;
        long grace = number(system, GC_GRACE, 600, 1, 30L * 86_400, problems) * 1000;
        long threads = number(system, MOVE_THREADS, 2, 1, 64, problems);
        long viewWindow = number(system, VIEW_WINDOW, 600, 0, 30L * 86_400, problems) * 1000;
        if (!problems.isEmpty()) {
            List<String> named = new ArrayList<>();
            for (String p : problems) {
                named.add(p + " (" + where + ")");
            }
            throw new InvalidConfigurationException(named);
        }
        DropInSettings settings = new DropInSettings(storage, mode, where, readTimeout, sweep, grace, (int) threads,
                viewWindow, operationThreadWait, summaryInterval, telemetryMetrics(root));
        settings.historyMaps = history;
        settings.historyMaxRetained = maxRetained;
        settings.historyCacheMaxBytes = historyCache;
        return settings;
    }

    /** The key of {@link #historyCacheMaxBytes()} in {@code seatunnel.engine.jobinfo-dropin}. */
    static final String HISTORY_CACHE_MAX_BYTES = "history-cache-max-bytes";

    private static long historyCacheMaxBytes(Map<?, ?> section, List<String> problems) {
        Object value = section.get(HISTORY_CACHE_MAX_BYTES);
        if (value == null) {
            return -1;
        }
        try {
            long bytes = ByteSize.parse(value);
            if (bytes >= 0) {
                return bytes;
            }
        } catch (IllegalArgumentException bad) {
            // reported below
        }
        problems.add("seatunnel.engine." + DROPIN_SECTION + "." + HISTORY_CACHE_MAX_BYTES + ": '" + value + "' is not"
                + " a size; give bytes such as 64MiB or 512MiB (the one bound of the finished-job history all three"
                + " history maps share on a member), 0 for no history cache, or leave the key out for"
                + " jobinfo-storage.cache.max-bytes");
        return -1;
    }

    private static Map<?, ?> dropInSection(Map<?, ?> root) {
        Object seatunnel = root.get("seatunnel");
        Object engine = seatunnel instanceof Map ? ((Map<?, ?>) seatunnel).get("engine") : null;
        Object section = engine instanceof Map ? ((Map<?, ?>) engine).get(DROPIN_SECTION) : null;
        return section instanceof Map ? (Map<?, ?>) section : Collections.emptyMap();
    }

    /** {@code seatunnel.engine.jobinfo-dropin.mode}: active when absent; a problem for anything else. */
    private static Mode mode(Map<?, ?> root, String where, List<String> problems) {
        Object seatunnel = root.get("seatunnel");
        Object engine = seatunnel instanceof Map ? ((Map<?, ?>) seatunnel).get("engine") : null;
        Object section = engine instanceof Map ? ((Map<?, ?>) engine).get(DROPIN_SECTION) : null;
        if (section == null) {
            return Mode.ACTIVE;
        }
        String name = "seatunnel.engine." + DROPIN_SECTION;
        if (!(section instanceof Map)) {
            problems.add(name + ": must be a mapping such as {mode: passive}");
            return Mode.ACTIVE;
        }
        List<String> known = Arrays.asList(MODE_KEY, HistoryMaps.KEY, HistoryRetention.KEY, HISTORY_CACHE_MAX_BYTES);
        for (Object key : ((Map<?, ?>) section).keySet()) {
            if (!known.contains(String.valueOf(key))) {
                problems.add(name + "." + key + ": unknown key; known keys: " + known);
            }
        }
        Object value = ((Map<?, ?>) section).get(MODE_KEY);
        if (value == null) {
            return Mode.ACTIVE;
        }
        String v = String.valueOf(value).trim();
        if (v.equalsIgnoreCase("active")) {
            return Mode.ACTIVE;
        }
        if (v.equalsIgnoreCase("passive")) {
            return Mode.PASSIVE;
        }
        problems.add(name + "." + MODE_KEY + ": '" + v + "' is not a mode; use active (moves jobs to the store, keeps"
                + " members without the plugin out) or passive (moves nothing, admits members without the plugin)");
        return Mode.ACTIVE;
    }

    /**
     * {@code seatunnel.engine.telemetry.metric.enabled}, read as SeaTunnel 2.3.8 reads it (true only when it says
     * {@code true}; off when absent, SeaTunnel's default).
     */
    private static boolean telemetryMetrics(Map<?, ?> root) {
        Object seatunnel = root.get("seatunnel");
        Object engine = seatunnel instanceof Map ? ((Map<?, ?>) seatunnel).get("engine") : null;
        Object telemetry = engine instanceof Map ? ((Map<?, ?>) engine).get("telemetry") : null;
        Object metric = telemetry instanceof Map ? ((Map<?, ?>) telemetry).get("metric") : null;
        Object enabled = metric instanceof Map ? ((Map<?, ?>) metric).get("enabled") : null;
        return enabled != null && "true".equalsIgnoreCase(String.valueOf(enabled).trim());
    }

    private static Object sectionOf(Map<?, ?> root) {
        Object seatunnel = root.get("seatunnel");
        Object engine = seatunnel instanceof Map ? ((Map<?, ?>) seatunnel).get("engine") : null;
        return engine instanceof Map ? ((Map<?, ?>) engine).get(JobInfoStorageConfig.SECTION) : null;
    }

    /** A whole number between {@code min} and {@code max}, or {@code dflt} if unset; problems collected. */
    private static long number(Properties system, String key, long dflt, long min, long max, List<String> problems) {
        String value = system.getProperty(key);
        if (value == null) {
            return dflt;
        }
        try {
            long v = Long.parseLong(value.trim());
            if (v < min || v > max) {
                problems.add("-D" + key + "=" + value + ": must be between " + min + " and " + max);
                return dflt;
            }
            return v;
        } catch (NumberFormatException e) {
            problems.add("-D" + key + "=" + value + ": not a whole number");
            return dflt;
        }
    }

    public JobInfoStorageConfig storage() {
        return storage;
    }

    /** Active (moves jobs, keeps stock members out) or passive (moves nothing, admits them). */
    public Mode mode() {
        return mode;
    }

    /** The seatunnel.yaml the section came from. */
    public String source() {
        return source;
    }

    public long readTimeoutMillis() {
        return readTimeoutMillis;
    }

    public long sweepIntervalMillis() {
        return sweepIntervalMillis;
    }

    public long gcGraceMillis() {
        return gcGraceMillis;
    }

    public int moveThreads() {
        return moveThreads;
    }

    /** How often the INFO summary is logged ({@link #SUMMARY_INTERVAL}). */
    public long summaryIntervalMillis() {
        return summaryIntervalMillis;
    }

    /** How long a read holds a Hazelcast partition or operation thread at most ({@link #OPERATION_THREAD_WAIT}). */
    public long operationThreadWaitMillis() {
        return operationThreadWaitMillis;
    }

    /**
     * Whether SeaTunnel's telemetry metrics are on ({@code seatunnel.engine.telemetry.metric.enabled: true}): the
     * drop-in then adds its meters to SeaTunnel's Prometheus registry ({@link DropInTelemetry}).
     */
    public boolean telemetryMetrics() {
        return telemetryMetrics;
    }

    /**
     * The history maps whose values go to the store ({@code seatunnel.engine.jobinfo-dropin.history}, see
     * {@link HistoryMaps}); empty (off) by default.
     */
    public List<String> historyMaps() {
        return historyMaps;
    }

    /**
     * At most how many finished jobs SeaTunnel's history maps retain ({@code
     * seatunnel.engine.jobinfo-dropin.history-max-retained}, see {@link HistoryRetention}); {@link Long#MAX_VALUE}
     * (no bound: {@code history-job-expire-minutes} alone decides) by default.
     */
    public long historyMaxRetained() {
        return historyMaxRetained;
    }

    /**
     * The one bound, in payload bytes, of the history values a member keeps decoded-ready in memory, shared by the
     * three history maps ({@code seatunnel.engine.jobinfo-dropin.history-cache-max-bytes}; 0: none); by default
     * {@code jobinfo-storage.cache.max-bytes}, the running jobs' bound (before, each history map had a cache of that
     * size of its own).
     */
    public long historyCacheMaxBytes() {
        return historyCacheMaxBytes >= 0 ? historyCacheMaxBytes : storage.cache().maxBytes();
    }

    /** How long a member count below the largest seen holds deletes ({@link #VIEW_WINDOW}). */
    public long viewWindowMillis() {
        return viewWindowMillis;
    }
}
