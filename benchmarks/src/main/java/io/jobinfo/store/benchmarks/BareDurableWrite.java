package io.jobinfo.store.benchmarks;

import io.jobinfo.store.config.JobInfoStorageConfig;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The floor under a durable submit on one backend (issue 28 item 3): the bare calls that make one write-once blob
 * durable there, with nothing of this library around them, timed job by job beside the real submits. Followed by a
 * bare replicated {@code putIfAbsent} of a pointer-sized value, it is the anchor of the re-based submit target: no
 * design that makes the blob durable before it publishes its pointer (invariant 1) can do better.
 */
interface BareDurableWrite extends AutoCloseable {

    /**
     * Writes {@code bytes} under a name never used before and returns the nanoseconds until it was durable.
     *
     * @throws IOException if the backend refuses the write; the benchmark round fails with it (an anchor that did
     *                     not write is not a floor)
     */
    long write(byte[] bytes) throws IOException;

    /** What the write does, for the report's anchor column. */
    String describe();

    /** Removes what the anchor wrote and releases its client; never throws. */
    @Override
    void close();

    /**
     * The bare write for the backend of {@code config}: a local directory beside the store's (temp write, fsync,
     * link, directory fsync), HDFS (create with a synced block, write, close, rename that fails if the name exists),
     * or S3 (one conditional PUT, {@code If-None-Match: *}).
     *
     * @throws IOException              if the backend cannot be reached
     * @throws IllegalArgumentException for a store type without a bare write
     */
    static BareDurableWrite forStore(JobInfoStorageConfig config, Path workDir) throws IOException {
        return switch (config.type()) {
            case "local" -> new DurableWriteAnchor(workDir);
            case "hdfs" -> HdfsDurableWriteAnchor.open(config);
            case "s3" -> new S3DurableWriteAnchor(config);
            default -> throw new IllegalArgumentException("no bare durable write for store type " + config.type());
        };
    }
}
