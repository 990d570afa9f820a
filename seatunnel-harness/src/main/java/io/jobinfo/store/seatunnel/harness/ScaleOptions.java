package io.jobinfo.store.seatunnel.harness;

import java.util.Objects;

/**
 * What the running-job scenario ({@link EngineScenario}) adds to its {@link ScenarioSettings} for the scale report:
 * whether its clusters persist their {@code engine*} maps (SeaTunnel's IMap persistence, {@link ImapPersistence}),
 * and the drop-in's store: {@code storeName} ({@code local}, or the name of another store such as {@code s3}) and
 * its {@code jobinfo-storage:} section ({@code storageYaml}, lines under {@code seatunnel.engine}; null: a local
 * store under the variant's directory, 32 MiB cache).
 */
public record ScaleOptions(boolean imapPersistence, String storeName, String storageYaml) {

    /** No IMap persistence, local store: the scenario as the demo and the 3-job comparison run it. */
    public static final ScaleOptions DEFAULT = new ScaleOptions(false, "local", null);

    /**
     * @throws IllegalArgumentException if the store name is blank, or a store other than {@code local} has no
     *                                  storage section, or the section does not start with {@code jobinfo-storage:}
     */
    public ScaleOptions {
        Objects.requireNonNull(storeName, "storeName");
        if (storeName.isBlank()) {
            throw new IllegalArgumentException("the drop-in's store needs a name (local, s3, hdfs, ...)");
        }
        if (storageYaml == null && !storeName.equals("local")) {
            throw new IllegalArgumentException("the drop-in's store " + storeName + " needs its jobinfo-storage"
                    + " section (--dropin-storage-yaml)");
        }
        if (storageYaml != null && !storageYaml.startsWith("jobinfo-storage:")) {
            throw new IllegalArgumentException("the drop-in's storage section must start with 'jobinfo-storage:'"
                    + " (lines under seatunnel.engine), got: " + storageYaml.lines().findFirst().orElse(""));
        }
    }

    /** Whether the drop-in's store is the local one under the variant's directory. */
    public boolean localStore() {
        return storageYaml == null;
    }

    /** The drop-in's {@code jobinfo-storage} section: {@link #storageYaml()}, or a local store at {@code localStore}. */
    public String storageSection(java.nio.file.Path localStore) {
        return storageYaml != null ? storageYaml : localStorageYaml(localStore);
    }

    /** The {@code jobinfo-storage} section (under {@code seatunnel.engine}) of a local store with a 32 MiB cache. */
    public static String localStorageYaml(java.nio.file.Path namespace) {
        return """
                jobinfo-storage:
                  type: local
                  namespace: %s
                  cache:
                    max-bytes: 32MiB
                """.formatted(namespace);
    }
}
