package io.jobinfo.store.benchmarks;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.demo.embedded.Directories;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.spi.StoredBlob;
import java.nio.file.Path;

/**
 * Where the blobs of one scenario go: a store configuration (opened through {@link JobInfoStores#open}, as users do)
 * and whatever server the store needs, started in this JVM and stopped on close.
 */
interface Backend extends AutoCloseable {

    /** Short name used in metric keys and the report: local, hdfs, s3. */
    String name();

    /** One line for the report. */
    String describe();

    /** The configuration of a store in the sub-namespace {@code ns} (one per round, so rounds never collide). */
    JobInfoStorageConfig config(String ns);

    default JobInfoStore open(String ns) throws JobInfoStoreException {
        return JobInfoStores.open(config(ns));
    }

    /** Removes every blob of {@code ns}. */
    default void clear(String ns) throws JobInfoStoreException {
        try (JobInfoStore store = open(ns)) {
            for (StoredBlob b : store.list()) {
                if (b.incomplete()) {
                    store.deleteIncomplete(b);
                } else {
                    store.delete(b.jobId());
                }
            }
        } catch (JobInfoStoreException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    void close();

    /** A local directory (fsync on, as in production). */
    static Backend local(Path workDir) {
        Path root = workDir.resolve("local-store");
        return new Backend() {
            @Override
            public String name() {
                return "local";
            }

            @Override
            public String describe() {
                return "local directory under " + root + " (fsync of file and directory on)";
            }

            @Override
            public JobInfoStorageConfig config(String ns) {
                return JobInfoStorageConfig.builder("local").namespace(root.resolve(ns).toString()).build();
            }

            @Override
            public void clear(String ns) {
                Directories.deleteRecursively(root.resolve(ns));
            }

            @Override
            public void close() {
                Directories.deleteRecursively(root);
            }
        };
    }
}
