package io.jobinfo.store.local;

import io.jobinfo.store.config.Durations;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStoreFactory;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Type {@code local}: a directory on a local disk or an NFS mount; the namespace is that directory. */
public final class LocalJobInfoStoreFactory implements JobInfoStoreFactory {

    public static final String FSYNC = "local.fsync";
    public static final String CREATE_DIRECTORIES = "local.create-directories";
    public static final String WRITE_TIMEOUT = "local.write-timeout";
    /** {@value}: a create of at most a few MiB that takes longer is on a disk or NFS server that is not answering. */
    static final String DEFAULT_WRITE_TIMEOUT = "30s";

    @Override
    public String identifier() {
        return "local";
    }

    @Override
    public Map<String, String> describeOptions() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put(FSYNC, "true (default): fsync every blob and its directory before a create returns; false only"
                + " for throw-away test stores");
        options.put(CREATE_DIRECTORIES, "true (default): create the namespace directory if it is missing");
        options.put(WRITE_TIMEOUT, DEFAULT_WRITE_TIMEOUT + " (default): how long a create waits for the disk at most;"
                + " past it the create fails with nothing stored (" + Durations.FORMS + "; 0: as long as the disk"
                + " takes)");
        return options;
    }

    @Override
    public List<String> validate(JobInfoStorageConfig config) {
        List<String> problems = new ArrayList<>();
        try {
            Path dir = Paths.get(config.namespace());
            if (!dir.isAbsolute()) {
                problems.add("jobinfo-storage.namespace: '" + config.namespace() + "' must be an absolute directory"
                        + " for the local store (every member must resolve it to the same place)");
            }
        } catch (InvalidPathException e) {
            problems.add("jobinfo-storage.namespace: '" + config.namespace() + "' is not a valid path: "
                    + e.getReason());
        }
        for (String key : Arrays.asList(FSYNC, CREATE_DIRECTORIES)) {
            String v = config.option(key);
            if (v != null && !v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
                problems.add("jobinfo-storage.plugin-config." + key + ": '" + v + "' must be true or false");
            }
        }
        String timeout = config.option(WRITE_TIMEOUT);
        if (timeout != null) {
            try {
                Durations.parse(timeout);
            } catch (IllegalArgumentException e) {
                problems.add("jobinfo-storage.plugin-config." + WRITE_TIMEOUT + ": " + e.getMessage());
            }
        }
        return problems;
    }

    @Override
    public JobInfoStore create(JobInfoStorageConfig config) throws JobInfoStoreException {
        boolean fsync = !"false".equalsIgnoreCase(config.option(FSYNC));
        boolean mkdirs = !"false".equalsIgnoreCase(config.option(CREATE_DIRECTORIES));
        String timeout = config.option(WRITE_TIMEOUT);
        long timeoutMillis = Durations.parse(timeout != null ? timeout : DEFAULT_WRITE_TIMEOUT).toMillis();
        return LocalJobInfoStore.open(Paths.get(config.namespace()), config.storeId(), fsync, mkdirs, timeoutMillis);
    }
}
