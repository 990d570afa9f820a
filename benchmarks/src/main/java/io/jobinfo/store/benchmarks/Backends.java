package io.jobinfo.store.benchmarks;

import io.jobinfo.store.config.JobInfoStorageConfig;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** Starts the backends by name: local directory, in-JVM HDFS (MiniDFSCluster), in-JVM S3 server (S3Proxy). */
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
        Path dir = Files.createDirectories(work.resolve("hdfs"));
        Configuration conf = new Configuration();
        conf.setInt("dfs.replication", 1);
        conf.setInt("dfs.namenode.safemode.extension", 0);
        MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, dir.toFile()).numDataNodes(1).format(true).build();
        cluster.waitActive();
        String fs = cluster.getURI().toString();
        return new Backend() {
            @Override
            public String name() {
                return "hdfs";
            }

            @Override
            public String describe() {
                return "HDFS " + fs + " (in-JVM MiniDFSCluster: 1 NameNode, 1 DataNode, replication 1; hsync on"
                        + " create)";
            }

            @Override
            public JobInfoStorageConfig config(String ns) {
                return JobInfoStorageConfig.builder("hdfs").namespace("/seatunnel/jobinfo/" + ns)
                        .option("fs.defaultFS", fs).build();
            }

            @Override
            public void close() {
                try {
                    cluster.shutdown(true);
                } catch (RuntimeException e) {
                    System.err.println("stopping the in-JVM HDFS failed: " + e);
                }
                Backend.deleteRecursively(dir);
            }
        };
    }

    /** S3Proxy (filesystem blob store) on 127.0.0.1 and a free port, a bucket, throw-away credentials. */
    private static Backend s3(Path work) throws Exception {
        Path dir = Files.createDirectories(work.resolve("s3"));
        String access = "bench-" + UUID.randomUUID().toString().substring(0, 8);
        String secret = UUID.randomUUID().toString();
        String bucket = "jobinfo-bench";
        Properties props = new Properties();
        props.setProperty("jclouds.filesystem.basedir", dir.toString());
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(BlobStores.create("filesystem", props))
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, access, secret)
                .stopTimeout(0)
                .build();
        proxy.start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                proxy.stop();
                throw new IllegalStateException("S3Proxy did not start within 30 s");
            }
            Thread.sleep(10);
        }
        URI endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
        try (S3Client client = S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(access, secret)))
                .build()) {
            client.createBucket(b -> b.bucket(bucket));
        }
        return new Backend() {
            @Override
            public String name() {
                return "s3";
            }

            @Override
            public String describe() {
                return "S3 bucket " + bucket + " on an in-JVM S3Proxy 4.1.0 (filesystem blob store) at " + endpoint;
            }

            @Override
            public JobInfoStorageConfig config(String ns) {
                return JobInfoStorageConfig.builder("s3").namespace("seatunnel/jobinfo/" + ns)
                        .option("s3.bucket", bucket)
                        .option("s3.endpoint", endpoint.toString())
                        .option("s3.region", "us-east-1")
                        .option("s3.path-style-access", "true")
                        .option("s3.access-key", access)
                        .option("s3.secret-key", secret)
                        .build();
            }

            @Override
            public void close() {
                try {
                    proxy.stop();
                } catch (Exception e) {
                    System.err.println("stopping S3Proxy failed: " + e);
                }
                Backend.deleteRecursively(dir);
            }
        };
    }
}
