package io.jobinfo.store.it;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.spi.StoreNaming;
import java.nio.file.Files;
import java.nio.file.Path;

/** A directory on the local disk (the NFS case of the design: POSIX semantics, hard links). */
final class LocalBackend implements Backend {

    private final Path root;

    LocalBackend() {
        try {
            root = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "it-local-");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String name() {
        return "local";
    }

    @Override
    public JobInfoStorageConfig config(String namespace) {
        return JobInfoStorageConfig.builder("local").namespace(root.resolve(namespace).toString()).build();
    }

    private Path path(String namespace, long jobId) {
        return root.resolve(namespace).resolve(StoreNaming.blobName(jobId));
    }

    @Override
    public byte[] rawRead(String namespace, long jobId) throws Exception {
        return Files.readAllBytes(path(namespace, jobId));
    }

    @Override
    public void rawWrite(String namespace, long jobId, byte[] bytes) throws Exception {
        Files.write(path(namespace, jobId), bytes);
    }

    @Override
    public void rawDelete(String namespace, long jobId) throws Exception {
        Files.delete(path(namespace, jobId));
    }

    @Override
    public String toString() {
        return name();
    }
}
