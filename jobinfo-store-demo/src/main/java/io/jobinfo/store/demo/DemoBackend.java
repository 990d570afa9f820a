package io.jobinfo.store.demo;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.demo.embedded.Directories;
import io.jobinfo.store.demo.embedded.InJvmHdfs;
import io.jobinfo.store.demo.embedded.InJvmS3Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The storage a demo runs on: the configuration its store is opened with, one line saying where the blobs go, and what
 * {@link #close()} stops or removes (an embedded server, a temporary directory; nothing for the user's own store).
 */
record DemoBackend(JobInfoStorageConfig config, String describe, AutoCloseable onClose) implements AutoCloseable {

    /** A local directory; a temporary one (removed on close) unless {@code dir} is given. */
    static DemoBackend local(Path dir) throws IOException {
        boolean temporary = dir == null;
        Path root = temporary ? Files.createTempDirectory("jobinfo-demo-") : dir.toAbsolutePath();
        return new DemoBackend(JobInfoStorageConfig.builder("local").namespace(root.toString()).build(),
                "local directory " + root + (temporary ? " (temporary)" : ""),
                () -> {
                    if (temporary) {
                        Directories.deleteRecursively(root);
                    }
                });
    }

    /** A store the user configured; nothing is started or removed. */
    static DemoBackend configured(JobInfoStorageConfig config, Path from) {
        return given(config, config.type() + " store " + config.namespace() + " (from " + from + ")");
    }

    /** A store that exists already (the user's); nothing is started or removed. */
    static DemoBackend given(JobInfoStorageConfig config, String description) {
        return new DemoBackend(config, description, () -> { });
    }

    /** An S3 server in this JVM over a temporary directory (removed on close). */
    static DemoBackend inJvmS3() throws Exception {
        Path dir = Files.createTempDirectory("jobinfo-demo-s3-");
        InJvmS3Server server = new InJvmS3Server(dir, "jobinfo-demo");
        return new DemoBackend(server.config("seatunnel/jobinfo"), "S3 bucket " + server.bucket()
                + " on an in-JVM S3Proxy at " + server.endpoint(), stopAndRemove(server, dir));
    }

    /** An HDFS in this JVM over a temporary directory (removed on close). */
    static DemoBackend inJvmHdfs() throws Exception {
        Path dir = Files.createTempDirectory("jobinfo-demo-hdfs-");
        InJvmHdfs hdfs = new InJvmHdfs(dir);
        return new DemoBackend(hdfs.config("/seatunnel/jobinfo"), "HDFS " + hdfs.fsDefaultFs()
                + "/seatunnel/jobinfo (in-JVM MiniDFSCluster)", stopAndRemove(hdfs, dir));
    }

    private static AutoCloseable stopAndRemove(AutoCloseable server, Path dir) {
        return () -> {
            try {
                server.close();
            } finally {
                Directories.deleteRecursively(dir);
            }
        };
    }

    @Override
    public void close() {
        try {
            onClose.close();
        } catch (Exception e) {
            System.err.println("stopping the demo's storage failed: " + e);
        }
    }
}
