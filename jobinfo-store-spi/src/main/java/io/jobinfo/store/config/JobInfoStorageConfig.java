package io.jobinfo.store.config;

import io.jobinfo.store.values.SetOnce;
import com.google.auto.value.AutoValue;
import io.jobinfo.store.values.Nullable;
import io.jobinfo.store.values.ValueLists;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code jobinfo-storage} section, shaped like SeaTunnel's {@code checkpoint.storage}:
 * <pre>
 * jobinfo-storage:
 *   type: local                 # local | hdfs | s3 (any installed backend)
 *   namespace: /seatunnel/jobinfo
 *   store-id: prod-a            # optional; default derived from type and namespace
 *   cache:
 *     max-bytes: 64MiB
 *     max-entry-bytes: 16MiB
 *     expire-after-access: 30m   # see Durations
 *     max-staleness: 5s          # a removed or replaced job is served at most this long (+100 ms)
 *   plugin-config:              # backend options, passed to the backend as strings
 *     s3.bucket: jobinfo
 * </pre>
 * Immutable. Parsing checks everything the core knows and reports every problem at once
 * ({@link InvalidConfigurationException}); backend keys are checked by the backend's factory when the store opens.
 * The maps given to {@link #fromMap} are copied, never modified.
 */
public final class JobInfoStorageConfig {

    public static final String SECTION = "jobinfo-storage";
    private static final Set<String> KEYS = Collections.unmodifiableSet(new LinkedHashSet<>(
            Arrays.asList("type", "namespace", "store-id", "cache", "plugin-config")));
    private static final Set<String> CACHE_KEYS = Collections.unmodifiableSet(new LinkedHashSet<>(
            Arrays.asList("max-bytes", "max-entry-bytes", "expire-after-access", "max-staleness")));
    private static final Pattern STORE_ID = Pattern.compile("[A-Za-z0-9_-]{1,16}");
    private static final Pattern TYPE = Pattern.compile("[a-z][a-z0-9-]*");

    private final String type;
    private final String namespace;
    private final String storeId;
    private final CacheConfig cache;
    private final Map<String, String> pluginConfig;

    private JobInfoStorageConfig(String type, String namespace, String storeId, CacheConfig cache,
                                 Map<String, String> pluginConfig) {
        this.type = type;
        this.namespace = namespace;
        this.storeId = storeId;
        this.cache = cache;
        this.pluginConfig = Collections.unmodifiableMap(new LinkedHashMap<>(pluginConfig));
    }

    /** Builder for programmatic use; validates like {@link #fromMap}. */
    public static Builder builder(String type) {
        return new Builder(type);
    }

    public String type() {
        return type;
    }

    /** The namespace: a directory (local), a path (hdfs) or a key prefix (s3). Never contains a {@code ..} segment. */
    public String namespace() {
        return namespace;
    }

    /** The explicit store id, or {@code null} to let the store derive one. */
    public String storeId() {
        return storeId;
    }

    public CacheConfig cache() {
        return cache;
    }

    /** Backend options, unmodifiable. */
    public Map<String, String> pluginConfig() {
        return pluginConfig;
    }

    /** A plugin-config value or {@code null}. */
    public String option(String key) {
        return pluginConfig.get(key);
    }

    /**
     * Parses YAML holding a {@code jobinfo-storage} section (or the section's contents alone), read by
     * {@link ConfigYaml}: at most 1 MiB, no duplicate keys, no tags, and messages that never quote the YAML.
     *
     * @throws InvalidConfigurationException listing every problem the core finds
     */
    public static JobInfoStorageConfig fromYaml(String yaml) {
        return fromMap(ConfigYaml.loadMapping(yaml));
    }

    /**
     * Like {@link #fromYaml(String)} for a UTF-8 file; a file larger than 1 MiB is refused before it is read.
     *
     * @throws IOException the file cannot be read
     */
    public static JobInfoStorageConfig fromYaml(Path file) throws IOException {
        return fromMap(ConfigYaml.loadMapping(file));
    }

    /** Like {@link #fromYaml(String)} for UTF-8 bytes; reads at most 1 MiB and does not close {@code in}. */
    public static JobInfoStorageConfig fromYaml(InputStream in) {
        return fromMap(ConfigYaml.loadMapping(in));
    }

    /**
     * Reads a map holding a {@code jobinfo-storage} key, or the section's contents directly. Also finds the section
     * nested up to three levels down (for example under {@code seatunnel.engine} in a {@code seatunnel.yaml}).
     */
    public static JobInfoStorageConfig fromMap(Map<?, ?> map) {
        Parsed parsed = parse(map);
        if (!parsed.problems().isEmpty()) {
            throw new InvalidConfigurationException(parsed.problems());
        }
        return parsed.config();
    }

    /**
     * The result of reading a section without failing: every problem the core found, and a configuration built from
     * whatever was valid (defaults elsewhere), so that a backend can check its own keys too and all problems are
     * reported at once. Used by {@link io.jobinfo.store.spi.JobInfoStores#open(Map)}.
     */
    @AutoValue
    public abstract static class Parsed {
        Parsed() {
        }

        /**
         * @param config     the configuration; only meaningful for backend validation when problems is not empty;
         *                   {@code null} when no section was found
         * @param problems   every problem the core found
         */
        public static Parsed of(@Nullable JobInfoStorageConfig config, List<String> problems) {
            return new AutoValue_JobInfoStorageConfig_Parsed(config, ValueLists.copyOf(problems));
        }

        /** The configuration read, or {@code null} when no section was found ({@link #problems()} says so). */
        @Nullable
        public abstract JobInfoStorageConfig config();

        public abstract List<String> problems();
    }

    /** Reads a section, collecting problems instead of failing. See {@link Parsed}. */
    public static Parsed parse(Map<?, ?> map) {
        Object section = map.containsKey("type") ? null : findSection(map, 3);
        if (section == null) {
            section = map;
        }
        if (!(section instanceof Map)) {
            return Parsed.of(null, Collections.singletonList(SECTION
                    + ": must be a mapping of type, namespace, cache"
                    + " and plugin-config"));
        }
        Map<?, ?> s = (Map<?, ?>) section;
        List<String> problems = new ArrayList<>();
        for (Object key : s.keySet()) {
            if (!KEYS.contains(String.valueOf(key))) {
                problems.add(SECTION + "." + key + ": unknown key; known keys: " + KEYS);
            }
        }
        Builder b = new Builder(s.get("type") == null ? null : String.valueOf(s.get("type")));
        b.namespace = s.get("namespace") == null ? null : String.valueOf(s.get("namespace"));
        b.storeId = s.get("store-id") == null ? null : String.valueOf(s.get("store-id"));
        Object cache = s.get("cache");
        if (cache != null) {
            if (cache instanceof Map) {
                for (Map.Entry<?, ?> e : ((Map<?, ?>) cache).entrySet()) {
                    String key = String.valueOf(e.getKey());
                    if (!CACHE_KEYS.contains(key)) {
                        problems.add(SECTION + ".cache." + key + ": unknown key; known keys: " + CACHE_KEYS);
                        continue;
                    }
                    b.rawCache.put(key, e.getValue());
                }
            } else {
                problems.add(SECTION + ".cache: must be a mapping such as {max-bytes: 64MiB}");
            }
        }
        Object plugin = s.get("plugin-config");
        if (plugin != null) {
            if (plugin instanceof Map) {
                for (Map.Entry<?, ?> e : ((Map<?, ?>) plugin).entrySet()) {
                    Object v = e.getValue();
                    if (v instanceof Map || v instanceof List) {
                        problems.add(SECTION + ".plugin-config." + e.getKey() + ": must be a single value, not "
                                + (v instanceof Map ? "a mapping" : "a list"));
                    } else {
                        b.pluginConfig.put(String.valueOf(e.getKey()), v == null ? "" : String.valueOf(v));
                    }
                }
            } else {
                problems.add(SECTION + ".plugin-config: must be a mapping of backend options");
            }
        }
        return b.parse(problems);
    }

    /** The {@code jobinfo-storage} value at most {@code depth} mappings down (for example in a seatunnel.yaml). */
    /**
     * Whether {@code map} holds a {@code jobinfo-storage} section where {@link #parse} looks for one (at the top or up
     * to three levels down), or is the section's contents itself (it has a {@code type} key).
     */
    public static boolean hasSection(Map<?, ?> map) {
        return map.containsKey("type") || findSection(map, 3) != null;
    }

    private static Object findSection(Map<?, ?> map, int depth) {
        Object here = map.get(SECTION);
        if (here != null || depth == 0) {
            return here;
        }
        for (Object value : map.values()) {
            if (value instanceof Map) {
                Object found = findSection((Map<?, ?>) value, depth - 1);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    /** Collects problems with the namespace; empty if fine. */
    static List<String> namespaceProblems(String namespace) {
        List<String> problems = new ArrayList<>();
        if (namespace == null || namespace.trim().isEmpty()) {
            problems.add(SECTION + ".namespace: missing; set the directory, path or key prefix that holds the blobs");
            return problems;
        }
        for (int i = 0; i < namespace.length(); i++) {
            char c = namespace.charAt(i);
            if (Character.isISOControl(c)) {
                problems.add(SECTION + ".namespace: contains the control character U+"
                        + String.format("%04X", (int) c) + "; remove it");
                break;
            }
        }
        if (namespace.indexOf('\\') >= 0) {
            problems.add(SECTION + ".namespace: contains a backslash; use '/' to separate path segments");
        }
        for (String segment : namespace.split("/", -1)) {
            if (segment.equals("..") || segment.equals(".")) {
                problems.add(SECTION + ".namespace: '" + namespace + "' contains a '" + segment
                        + "' segment; path traversal is not allowed, write the path without it");
                break;
            }
        }
        return problems;
    }

    @Override
    public String toString() {
        // plugin-config may hold credentials: only key names are shown.
        return "JobInfoStorageConfig{type=" + type + ", namespace=" + namespace + ", storeId=" + storeId
                + ", cache=" + cache + ", plugin-config keys=" + pluginConfig.keySet() + '}';
    }

    /**
     * Programmatic construction with the same checks as parsing. Namespace, store id and each cache setting can be
     * set once ({@link IllegalStateException} naming it on a second set); backend options are a map.
     */
    public static final class Builder {
        private final SetOnce properties = new SetOnce("JobInfoStorageConfig.Builder");
        private final String type;
        private String namespace;
        private String storeId;
        private final Map<String, Object> rawCache = new LinkedHashMap<>();
        private final Map<String, String> pluginConfig = new LinkedHashMap<>();

        private Builder(String type) {
            this.type = type;
        }

        public Builder namespace(String namespace) {
            this.namespace = properties.set("namespace", namespace);
            return this;
        }

        public Builder storeId(String storeId) {
            this.storeId = properties.set("storeId", storeId);
            return this;
        }

        public Builder cacheMaxBytes(long bytes) {
            rawCache.put("max-bytes", properties.set("cacheMaxBytes", bytes));
            return this;
        }

        public Builder cacheMaxEntryBytes(long bytes) {
            rawCache.put("max-entry-bytes", properties.set("cacheMaxEntryBytes", bytes));
            return this;
        }

        /**
         * A backend option ({@code plugin-config}), each key once.
         *
         * @throws IllegalStateException the key is already set: the message names the key, never a value (an option
         *                               may be a credential)
         */
        public Builder option(String key, String value) {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
            if (pluginConfig.containsKey(key)) {
                throw new IllegalStateException("JobInfoStorageConfig.Builder: option '" + key + "' is already set;"
                        + " each backend option can be set once (set it in one place; its values are not shown, an"
                        + " option may be a credential)");
            }
            pluginConfig.put(key, value);
            return this;
        }

        public Builder options(Map<String, String> options) {
            options.forEach(this::option);
            return this;
        }

        /** @throws InvalidConfigurationException listing every problem */
        public JobInfoStorageConfig build() {
            Parsed parsed = parse(new ArrayList<>());
            if (!parsed.problems().isEmpty()) {
                throw new InvalidConfigurationException(parsed.problems());
            }
            return parsed.config();
        }

        private Parsed parse(List<String> problems) {
            if (type == null || type.trim().isEmpty()) {
                problems.add(SECTION + ".type: missing; set local, hdfs or s3");
            } else if (!TYPE.matcher(type).matches()) {
                problems.add(SECTION + ".type: '" + type + "' is not a store type; use local, hdfs or s3");
            }
            problems.addAll(namespaceProblems(namespace));
            if (storeId != null && !STORE_ID.matcher(storeId).matches()) {
                problems.add(SECTION + ".store-id: '" + storeId + "' must be 1 to 16 letters, digits, '-' or '_'");
            }
            long maxBytes = CacheConfig.DEFAULT_MAX_BYTES;
            long maxEntry = CacheConfig.DEFAULT_MAX_ENTRY_BYTES;
            Duration expire = CacheConfig.DEFAULT_EXPIRE_AFTER_ACCESS;
            boolean entryGiven = rawCache.containsKey("max-entry-bytes");
            try {
                if (rawCache.containsKey("max-bytes")) {
                    maxBytes = ByteSize.parse(rawCache.get("max-bytes"));
                    if (maxBytes < 0) {
                        problems.add(SECTION + ".cache.max-bytes: must not be negative (0 disables the cache)");
                    }
                }
            } catch (IllegalArgumentException e) {
                problems.add(SECTION + ".cache.max-bytes: " + e.getMessage());
            }
            try {
                if (entryGiven) {
                    maxEntry = ByteSize.parse(rawCache.get("max-entry-bytes"));
                    if (maxEntry < 0) {
                        problems.add(SECTION + ".cache.max-entry-bytes: must not be negative");
                    }
                }
            } catch (IllegalArgumentException e) {
                problems.add(SECTION + ".cache.max-entry-bytes: " + e.getMessage());
            }
            if (entryGiven && maxEntry > maxBytes && maxBytes >= 0) {
                problems.add(SECTION + ".cache.max-entry-bytes: " + maxEntry + " exceeds cache.max-bytes " + maxBytes
                        + "; lower it or raise max-bytes");
            } else if (!entryGiven) {
                maxEntry = Math.min(maxEntry, Math.max(0, maxBytes));
            }
            if (rawCache.containsKey("expire-after-access")) {
                try {
                    expire = Durations.parse(rawCache.get("expire-after-access"));
                    if (expire.isZero()) {
                        problems.add(SECTION + ".cache.expire-after-access: must be positive, such as 30m");
                    }
                } catch (IllegalArgumentException e) {
                    problems.add(SECTION + ".cache.expire-after-access: " + e.getMessage());
                }
            }
            Duration staleness = CacheConfig.DEFAULT_MAX_STALENESS;
            if (rawCache.containsKey("max-staleness")) {
                try {
                    staleness = Durations.parse(rawCache.get("max-staleness"));
                } catch (IllegalArgumentException e) {
                    problems.add(SECTION + ".cache.max-staleness: " + e.getMessage() + " (0 confirms every read"
                            + " with the map)");
                }
            }
            if (maxBytes < 0 || maxEntry < 0 || expire.isNegative() || expire.isZero()) {
                CacheConfig d = CacheConfig.defaults();
                maxBytes = d.maxBytes();
                maxEntry = d.maxEntryBytes();
                expire = d.expireAfterAccess();
            }
            boolean usableType = type != null && TYPE.matcher(type).matches();
            return Parsed.of(new JobInfoStorageConfig(usableType ? type : "", namespace == null ? "" : namespace,
                    storeId, CacheConfig.of(maxBytes, Math.min(maxEntry, maxBytes), expire, staleness), pluginConfig),
                    problems);
        }
    }
}
