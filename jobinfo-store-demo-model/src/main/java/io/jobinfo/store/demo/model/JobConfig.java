package io.jobinfo.store.demo.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The job-level configuration SeaTunnel keeps in {@code JobImmutableInformation.jobConfig}: a name and the
 * {@code env} options. Option values are strings, numbers ({@code Long}, {@code Integer}, {@code Double}) or
 * booleans; anything else is refused, so the codec never has to name a class.
 */
public final class JobConfig {
    private final String name;
    private final Map<String, Object> envOptions;

    public JobConfig(String name, Map<String, Object> envOptions) {
        this.name = Objects.requireNonNull(name, "name");
        Map<String, Object> copy = new LinkedHashMap<>();
        envOptions.forEach((k, v) -> {
            Objects.requireNonNull(k, "env option key");
            if (!(v instanceof String || v instanceof Long || v instanceof Integer || v instanceof Double
                    || v instanceof Boolean)) {
                throw new IllegalArgumentException("env option '" + k + "' has a value of type "
                        + (v == null ? "null" : v.getClass().getSimpleName())
                        + "; use a string, Long, Integer, Double or Boolean");
            }
            copy.put(k, v);
        });
        this.envOptions = Collections.unmodifiableMap(copy);
    }

    public String name() {
        return name;
    }

    public Map<String, Object> envOptions() {
        return envOptions;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof JobConfig)) {
            return false;
        }
        JobConfig c = (JobConfig) o;
        return name.equals(c.name) && envOptions.equals(c.envOptions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, envOptions);
    }

    @Override
    public String toString() {
        return "JobConfig{name=" + name + ", envOptions=" + envOptions + '}';
    }
}
