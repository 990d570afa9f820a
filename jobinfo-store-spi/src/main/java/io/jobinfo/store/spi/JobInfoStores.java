package io.jobinfo.store.spi;

import io.jobinfo.store.config.InvalidConfigurationException;
import io.jobinfo.store.config.JobInfoStorageConfig;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Finds {@link JobInfoStoreFactory} implementations through {@link ServiceLoader} and opens stores. Nothing is cached
 * JVM-wide: each call looks the factories up again with the given (or the context) class loader.
 */
public final class JobInfoStores {

    private JobInfoStores() {
    }

    /**
     * Every factory visible to {@code classLoader} that could be loaded, by identifier (one that cannot be loaded, for
     * want of a library it needs, is left out; {@link #factory} names it).
     */
    public static Map<String, JobInfoStoreFactory> factories(ClassLoader classLoader) {
        return lookup(classLoader).byId;
    }

    /**
     * The factory for {@code type}.
     *
     * @throws InvalidConfigurationException no factory serves that type; the message lists the known ones, and those
     *                                       that could not be loaded
     */
    public static JobInfoStoreFactory factory(String type, ClassLoader classLoader) {
        Lookup lookup = lookup(classLoader);
        JobInfoStoreFactory factory = lookup.byId.get(type);
        if (factory == null) {
            throw new InvalidConfigurationException(Collections.singletonList(lookup.unknownType(type)));
        }
        return factory;
    }

    /** The factories found, and the providers that could not be loaded (with why). */
    private static final class Lookup {
        final Map<String, JobInfoStoreFactory> byId = new TreeMap<>();
        final List<String> unloadable = new ArrayList<>();

        String unknownType(String type) {
            return "jobinfo-storage.type: unknown store type '" + type + "'; known types: " + byId.keySet()
                    + (unloadable.isEmpty() ? " (add the jar of the backend to the classpath)"
                    : "; store factories that could not be loaded here: " + unloadable);
        }
    }

    private static Lookup lookup(ClassLoader classLoader) {
        Lookup lookup = new Lookup();
        Iterator<JobInfoStoreFactory> it = ServiceLoader.load(JobInfoStoreFactory.class, classLoader).iterator();
        while (true) {
            JobInfoStoreFactory factory;
            try {
                if (!it.hasNext()) {
                    break;
                }
                factory = it.next();
            } catch (ServiceConfigurationError e) {
                lookup.unloadable.add(describe(e.getCause() != null ? e.getCause() : e) + " (" + e.getMessage() + ")");
                continue;
            }
            JobInfoStoreFactory previous = lookup.byId.putIfAbsent(factory.identifier(), factory);
            if (previous != null && previous.getClass() != factory.getClass()) {
                throw new IllegalStateException("Two store factories claim the type '" + factory.identifier() + "': "
                        + previous.getClass().getName() + " and " + factory.getClass().getName()
                        + "; remove one of them from the classpath");
            }
        }
        return lookup;
    }

    /**
     * The problem of a backend that cannot run in this process because a class it needs is missing (Hadoop's client
     * for {@code hdfs}, where the process does not have it).
     */
    static String missingLibrary(JobInfoStoreFactory factory, LinkageError e) {
        return "jobinfo-storage.type: the '" + factory.identifier() + "' store cannot run in this process: "
                + describe(e) + "; put the libraries it needs on the class path";
    }

    private static String describe(Throwable e) {
        return e.getClass().getSimpleName() + ": " + e.getMessage();
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
        try {
            return factory.create(config);
        } catch (LinkageError e) {
            throw new InvalidConfigurationException(Collections.singletonList(missingLibrary(factory, e)));
        }
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
            Lookup lookup = lookup(contextLoader());
            JobInfoStoreFactory factory = lookup.byId.get(config.type());
            if (factory == null) {
                problems.add(lookup.unknownType(config.type()));
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
        List<String> problems;
        Map<String, String> options;
        try {
            problems = new ArrayList<>(factory.validate(config));
            options = factory.describeOptions();
        } catch (LinkageError e) {
            return new ArrayList<>(Collections.singletonList(missingLibrary(factory, e)));
        }
        for (String key : config.pluginConfig().keySet()) {
            if (!isKnownKey(options, key)) {
                problems.add("jobinfo-storage.plugin-config." + key + ": not an option of the '" + factory.identifier()
                        + "' store; known options: " + options.keySet());
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
