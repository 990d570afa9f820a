package io.jobinfo.store.cli;

import io.jobinfo.store.config.JobInfoStorageConfig;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.UUID;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An S3 server in this JVM for {@code demo --store s3} when no endpoint is configured: S3Proxy on 127.0.0.1 and a
 * free port, over a temporary directory, with a bucket {@value #BUCKET} and throw-away credentials.
 */
final class EmbeddedS3Server implements DemoBackend {

    static final String BUCKET = "jobinfo-demo";

    private final S3Proxy proxy;
    private final Path dir;
    private final JobInfoStorageConfig config;

    EmbeddedS3Server() throws Exception {
        dir = Files.createTempDirectory("jobinfo-demo-s3-");
        String access = "demo-" + UUID.randomUUID().toString().substring(0, 8);
        String secret = UUID.randomUUID().toString();
        Properties props = new Properties();
        props.setProperty("jclouds.filesystem.basedir", dir.toString());
        proxy = S3Proxy.builder()
                .blobStore(BlobStores.create("filesystem", props))
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, access, secret)
                .stopTimeout(0)
                .build();
        proxy.start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                close();
                throw new IllegalStateException("the embedded S3 server did not start within 30 s");
            }
            Thread.sleep(10);
        }
        URI endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
        try (S3Client client = S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(access, secret)))
                .build()) {
            client.createBucket(b -> b.bucket(BUCKET));
        }
        config = JobInfoStorageConfig.builder("s3").namespace("seatunnel/jobinfo")
                .option("s3.bucket", BUCKET)
                .option("s3.endpoint", endpoint.toString())
                .option("s3.region", "us-east-1")
                .option("s3.path-style-access", "true")
                .option("s3.access-key", access)
                .option("s3.secret-key", secret)
                .build();
    }

    @Override
    public JobInfoStorageConfig config() {
        return config;
    }

    @Override
    public String describe() {
        return "S3 bucket " + BUCKET + " on an in-JVM S3Proxy at " + config.option("s3.endpoint");
    }

    @Override
    public void close() {
        try {
            proxy.stop();
        } catch (Exception e) {
            System.err.println("stopping the embedded S3 server failed: " + e);
        }
        DemoBackend.deleteRecursively(dir);
    }
}
