package io.jobinfo.store.cli;

import io.jobinfo.store.config.JobInfoStorageConfig;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The storage a demo runs on: a configuration for the store and whatever embedded server it needs, stopped (and any
 * temporary data removed) on close.
 */
interface DemoBackend extends AutoCloseable {

    /** The configuration the demo opens its store with. */
    JobInfoStorageConfig config();

    /** One line for the report: where the blobs went. */
    String describe();

    @Override
    void close();

    /** A local directory; a temporary one (removed on close) unless {@code dir} is given. */
    static DemoBackend local(Path dir) throws IOException {
        boolean temporary = dir == null;
        Path root = temporary ? Files.createTempDirectory("jobinfo-demo-") : dir.toAbsolutePath();
        JobInfoStorageConfig config = JobInfoStorageConfig.builder("local").namespace(root.toString()).build();
        return new DemoBackend() {
            @Override
            public JobInfoStorageConfig config() {
                return config;
            }

            @Override
            public String describe() {
                return "local directory " + root + (temporary ? " (temporary)" : "");
            }

            @Override
            public void close() {
                if (temporary) {
                    deleteRecursively(root);
                }
            }
        };
    }

    /** A store the user configured; nothing is started or removed. */
    static DemoBackend configured(JobInfoStorageConfig config, Path from) {
        return given(config, config.type() + " store " + config.namespace() + " (from " + from + ")");
    }

    /** A store that exists already (the user's); nothing is started or removed. */
    static DemoBackend given(JobInfoStorageConfig config, String description) {
        return new DemoBackend() {
            @Override
            public JobInfoStorageConfig config() {
                return config;
            }

            @Override
            public String describe() {
                return description;
            }

            @Override
            public void close() {
                // the user's store: left as it is
            }
        };
    }

    /** An S3 server in this JVM over a temporary directory (removed on close). */
    static DemoBackend inJvmS3() throws Exception {
        Path dir = Files.createTempDirectory("jobinfo-demo-s3-");
        io.jobinfo.store.cli.embedded.InJvmS3Server server =
                new io.jobinfo.store.cli.embedded.InJvmS3Server(dir, "jobinfo-demo");
        return around(server.config("seatunnel/jobinfo"), "S3 bucket " + server.bucket() + " on an in-JVM S3Proxy at "
                + server.endpoint(), server, dir);
    }

    /** An HDFS in this JVM over a temporary directory (removed on close). */
    static DemoBackend inJvmHdfs() throws Exception {
        Path dir = Files.createTempDirectory("jobinfo-demo-hdfs-");
        io.jobinfo.store.cli.embedded.InJvmHdfs hdfs = new io.jobinfo.store.cli.embedded.InJvmHdfs(dir);
        return around(hdfs.config("/seatunnel/jobinfo"), "HDFS " + hdfs.fsDefaultFs()
                + "/seatunnel/jobinfo (in-JVM MiniDFSCluster)", hdfs, dir);
    }

    private static DemoBackend around(JobInfoStorageConfig config, String description, AutoCloseable server,
                                      Path dir) {
        return new DemoBackend() {
            @Override
            public JobInfoStorageConfig config() {
                return config;
            }

            @Override
            public String describe() {
                return description;
            }

            @Override
            public void close() {
                try {
                    server.close();
                } catch (Exception e) {
                    System.err.println("stopping the demo's server failed: " + e);
                }
                deleteRecursively(dir);
            }
        };
    }

    static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException exc) throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            System.err.println("could not remove the demo's temporary directory " + root + ": " + e);
        }
    }
}
