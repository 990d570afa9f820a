package io.jobinfo.store.benchmarks;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.demo.embedded.InJvmHdfs;
import io.jobinfo.store.demo.embedded.InJvmS3Server;
import io.jobinfo.store.s3.testing.RgwServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * Starts the backends by name: local directory, in-JVM HDFS (MiniDFSCluster), in-JVM S3 server (S3Proxy), and Ceph's
 * RADOS Gateway (a production S3 server: mon, memstore OSD and radosgw of Debian's packages, on this host).
 */
final class Backends {

    /** The backend cannot run here; the report says why. */
    static final class Unavailable extends Exception {
        Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private Backends() {
    }

    static Backend start(String name, Path work) throws Unavailable {
        try {
            return switch (name) {
                case "local" -> Backend.local(work);
                case "hdfs" -> hdfs(work);
                case "s3" -> s3(work);
                case "rgw" -> rgw();
                default -> throw new Unavailable("unknown store " + name, null);
            };
        } catch (Unavailable e) {
            throw e;
        } catch (Exception e) {
            throw new Unavailable("could not start the in-JVM " + name + " server: " + e, e);
        }
    }

    /** One NameNode and one DataNode on 127.0.0.1 over a directory of the work dir, replication 1. */
    private static Backend hdfs(Path work) throws Exception {
        InJvmHdfs hdfs = new InJvmHdfs(Files.createDirectories(work.resolve("hdfs")));
        return around("hdfs", "HDFS " + hdfs.fsDefaultFs() + " (in-JVM MiniDFSCluster: 1 NameNode, 1 DataNode,"
                + " replication 1; block synced on close)", ns -> hdfs.config("/seatunnel/jobinfo/" + ns), hdfs);
    }

    /**
     * An S3 server of its own answering every operation {@code millis} late, under {@code work}; measured only
     * beside the {@code s3} backend.
     */
    static Backend delayedS3(Path work, int millis) throws Unavailable {
        try {
            return new DelayedS3Backend(Files.createDirectories(work.resolve("s3-delay" + millis)), millis);
        } catch (Exception e) {
            throw new Unavailable("could not start the delayed S3 server: " + e, e);
        }
    }

    /** S3Proxy (filesystem blob store) on 127.0.0.1 and a free port, a bucket, throw-away credentials. */
    private static Backend s3(Path work) throws Exception {
        InJvmS3Server server = new InJvmS3Server(work.resolve("s3"), "jobinfo-bench");
        return around("s3", "S3 bucket " + server.bucket() + " on an in-JVM S3Proxy 4.1.0 (filesystem blob store) at "
                + server.endpoint(), ns -> server.config("seatunnel/jobinfo/" + ns), server);
    }

    /**
     * Ceph RGW (jobinfo-store-s3's test fixture {@link RgwServer}: Debian's radosgw, ceph-mon, ceph-osd, on 127.0.0.1,
     * stopped when the JVM exits), a bucket of this run's own; unavailable, with the reason, where Ceph is not
     * installed.
     */
    private static Backend rgw() throws Exception {
        String reason = RgwServer.unavailable();
        if (reason != null) {
            throw new Unavailable(reason, null);
        }
        RgwServer server = RgwServer.shared();
        String bucket = server.createBucket("jobinfo-bench-" + Long.toHexString(System.nanoTime()));
        return around("rgw", "S3 bucket " + bucket + " on Ceph RGW (Debian's radosgw 16.2 with a mon and a memstore"
                + " OSD on this host) at " + server.endpoint(), ns -> JobInfoStorageConfig.builder("s3").namespace(
                        "seatunnel/jobinfo/" + ns)
                .option("s3.bucket", bucket)
                .option("s3.endpoint", server.endpoint().toString())
                .option("s3.region", "us-east-1")
                .option("s3.path-style-access", "true")
                .option("s3.access-key", server.accessKey())
                .option("s3.secret-key", server.secretKey())
                .build(), () -> { });
    }

    private static Backend around(String name, String description, Function<String, JobInfoStorageConfig> config,
                                  AutoCloseable server) {
        return new Backend() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String describe() {
                return description;
            }

            @Override
            public JobInfoStorageConfig config(String ns) {
                return config.apply(ns);
            }

            @Override
            public void close() {
                try {
                    server.close();
                } catch (Exception e) {
                    System.err.println("stopping the in-JVM " + name + " server failed: " + e);
                }
            }
        };
    }
}
