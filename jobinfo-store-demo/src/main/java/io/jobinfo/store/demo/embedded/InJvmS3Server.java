package io.jobinfo.store.demo.embedded;

import io.jobinfo.store.config.JobInfoStorageConfig;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.UUID;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.middleware.Middlewares;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real S3 server in this JVM, for the demo and the benchmarks: S3Proxy (filesystem blob store) on 127.0.0.1 and a
 * free port over {@code dir}, with one bucket and throw-away credentials. Not for production.
 */
public final class InJvmS3Server implements AutoCloseable {

    private final S3Proxy proxy;
    private final URI endpoint;
    private final String bucket;
    private final String accessKey;
    private final String secretKey;

    /**
     * Starts the server and creates {@code bucket}.
     *
     * @throws IllegalStateException the server did not start within 30 s
     */
    public InJvmS3Server(Path dir, String bucket) throws Exception {
        this(dir, bucket, 0);
    }

    /**
     * Starts a server that answers every operation {@code latencyMillis} late (S3Proxy's own latency middleware,
     * {@code s3proxy.latency-blobstore.*.latency}, inside the server: connections stay open between requests, as
     * with a distant object store), and creates {@code bucket}.
     *
     * @throws IllegalStateException the server did not start within 30 s
     */
    public InJvmS3Server(Path dir, String bucket, int latencyMillis) throws Exception {
        if (latencyMillis < 0) {
            throw new IllegalArgumentException("latency must be at least 0 ms: " + latencyMillis);
        }
        this.bucket = bucket;
        this.accessKey = "local-" + UUID.randomUUID().toString().substring(0, 8);
        this.secretKey = UUID.randomUUID().toString();
        Properties props = new Properties();
        props.setProperty("jclouds.filesystem.basedir", Files.createDirectories(dir).toString());
        org.gaul.s3proxy.blobstore.BlobStore store = BlobStores.create("filesystem", props);
        if (latencyMillis > 0) {
            Properties latency = new Properties();
            latency.setProperty("s3proxy.latency-blobstore.*.latency", Integer.toString(latencyMillis));
            store = Middlewares.wrap(store, latency, p -> {
                throw new UnsupportedOperationException("no second backend");
            });
        }
        proxy = S3Proxy.builder()
                .blobStore(store)
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, accessKey, secretKey)
                .stopTimeout(0)
                .build();
        proxy.start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                close();
                throw new IllegalStateException("the in-JVM S3 server did not start within 30 s");
            }
            Thread.sleep(10);
        }
        endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
        try (S3Client client = S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey,
                        secretKey)))
                .build()) {
            client.createBucket(b -> b.bucket(bucket));
        }
    }

    public URI endpoint() {
        return endpoint;
    }

    public String bucket() {
        return bucket;
    }

    /** A store configuration for this server's bucket under the key prefix {@code namespace}. */
    public JobInfoStorageConfig config(String namespace) {
        return JobInfoStorageConfig.builder("s3").namespace(namespace)
                .option("s3.bucket", bucket)
                .option("s3.endpoint", endpoint.toString())
                .option("s3.region", "us-east-1")
                .option("s3.path-style-access", "true")
                .option("s3.access-key", accessKey)
                .option("s3.secret-key", secretKey)
                .build();
    }

    @Override
    public void close() {
        try {
            proxy.stop();
        } catch (Exception e) {
            System.err.println("stopping the in-JVM S3 server failed: " + e);
        }
    }
}
