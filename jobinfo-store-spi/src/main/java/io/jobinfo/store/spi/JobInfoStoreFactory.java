package io.jobinfo.store.spi;

import io.jobinfo.store.config.JobInfoStorageConfig;
import java.util.List;
import java.util.Map;

/**
 * Creates stores of one backend type. Implementations are listed in
 * {@code META-INF/services/io.jobinfo.store.spi.JobInfoStoreFactory} and found by {@link #identifier()} through
 * {@link JobInfoStores}. Factories are stateless; every {@link #create} returns a new, independent store.
 */
public interface JobInfoStoreFactory {

    /** The {@code type} this factory serves in the {@code jobinfo-storage} section: {@code local}, {@code hdfs}, ... */
    String identifier();

    /**
     * Every plugin-config key this backend understands, with its meaning and default, for documentation and for
     * reporting unknown keys. Keys of a pass-through prefix (for example {@code seatunnel.hadoop.}) end with a dot.
     */
    Map<String, String> describeOptions();

    /**
     * Checks {@code config} without touching the backend. Returns every problem found (empty if none), each naming
     * the key and saying what to do.
     */
    List<String> validate(JobInfoStorageConfig config);

    /**
     * Opens a store. The caller has already passed {@code config} through {@link #validate}. Implementations check
     * at this point that the backend is reachable and usable, so that a wrong endpoint or credential fails at
     * start-up, not at the first job. The config's maps are never modified.
     *
     * @throws JobInfoStoreException the backend cannot be reached or does not offer what the store needs
     */
    JobInfoStore create(JobInfoStorageConfig config) throws JobInfoStoreException;
}
