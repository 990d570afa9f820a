package io.jobinfo.store.spi;

import io.jobinfo.store.config.InvalidConfigurationException;
import io.jobinfo.store.config.JobInfoStorageConfig;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Finds {@link JobInfoStoreFactory} implementations through {@link ServiceLoader} and opens stores. Nothing is cached
 * JVM-wide: each call looks the factories up again with the given (or the context) class loader.
 */
public final class JobInfoStores {

    private JobInfoStores() {
    }

    /** Every factory visible to {@code classLoader}, by identifier. */
    public static Map<String, JobInfoStoreFactory> factories(ClassLoader classLoader) {
        Map<String, JobInfoStoreFactory> byId = new TreeMap<>();
        for (JobInfoStoreFactory factory : ServiceLoader.load(JobInfoStoreFactory.class, classLoader)) {
            JobInfoStoreFactory previous = byId.putIfAbsent(factory.identifier(), factory);
            if (previous != null && previous.getClass() != factory.getClass()) {
                throw new IllegalStateException("Two store factories claim the type '" + factory.identifier() + "': "
                        + previous.getClass().getName() + " and " + factory.getClass().getName()
                        + "; remove one of them from the classpath");
            }
        }
        return byId;
    }

    /**
     * The factory for {@code type}.
     *
     * @throws InvalidConfigurationException no factory serves that type; the message lists the known ones
     */
    public static JobInfoStoreFactory factory(String type, ClassLoader classLoader) {
        Map<String, JobInfoStoreFactory> all = factories(classLoader);
        JobInfoStoreFactory factory = all.get(type);
        if (factory == null) {
            throw new InvalidConfigurationException(Collections.singletonList(
                    "jobinfo-storage.type: unknown store type '" + type
                    + "'; known types: " + all.keySet() + " (add the jar of the backend to the classpath)"));
        }
        return factory;
    }

    /**
     * Validates {@code config} completely (core and backend keys), then opens the store.
     *
     * @throws InvalidConfigurationException listing every problem at once
     * @throws JobInfoStoreException         the backend cannot be reached or used
     */
    public static JobInfoStore open(JobInfoStorageConfig config) throws JobInfoStoreException {
        JobInfoStoreFactory factory = factory(config.type(), contextLoader());
        List<String> problems = backendProblems(factory, config);
        if (!problems.isEmpty()) {
            throw new InvalidConfigurationException(problems);
        }
        return factory.create(config);
    }

    /**
     * Reads a {@code jobinfo-storage} section (see {@link JobInfoStorageConfig#fromMap}) and opens the store. Core and
     * backend problems are reported together in one {@link InvalidConfigurationException}.
     */
    public static JobInfoStore open(Map<?, ?> section) throws JobInfoStoreException {
        return open(checked(section));
    }

    /**
     * Checks a {@code jobinfo-storage} section completely, core and backend keys, without opening anything.
     *
     * @throws InvalidConfigurationException listing every problem at once
     */
    public static JobInfoStorageConfig checked(Map<?, ?> section) {
        JobInfoStorageConfig.Parsed parsed = JobInfoStorageConfig.parse(section);
        List<String> problems = new ArrayList<>(parsed.problems());
        JobInfoStorageConfig config = parsed.config();
        if (config != null && !config.type().isEmpty()) {
            Map<String, JobInfoStoreFactory> all = factories(contextLoader());
            JobInfoStoreFactory factory = all.get(config.type());
            if (factory == null) {
                problems.add("jobinfo-storage.type: unknown store type '" + config.type() + "'; known types: "
                        + all.keySet() + " (add the jar of the backend to the classpath)");
            } else if (!config.namespace().isEmpty()) {
                problems.addAll(backendProblems(factory, config));
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidConfigurationException(problems);
        }
        return config;
    }

    private static List<String> backendProblems(JobInfoStoreFactory factory, JobInfoStorageConfig config) {
        List<String> problems = new ArrayList<>(factory.validate(config));
        for (String key : config.pluginConfig().keySet()) {
            if (!isKnownKey(factory.describeOptions(), key)) {
                problems.add("jobinfo-storage.plugin-config." + key + ": not an option of the '" + factory.identifier()
                        + "' store; known options: " + factory.describeOptions().keySet());
            }
        }
        return problems;
    }

    private static ClassLoader contextLoader() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return loader != null ? loader : JobInfoStores.class.getClassLoader();
    }

    private static boolean isKnownKey(Map<String, String> options, String key) {
        if (options.containsKey(key)) {
            return true;
        }
        for (String option : options.keySet()) {
            if (option.endsWith(".") && key.startsWith(option) && key.length() > option.length()) {
                return true;
            }
        }
        return false;
    }
}
