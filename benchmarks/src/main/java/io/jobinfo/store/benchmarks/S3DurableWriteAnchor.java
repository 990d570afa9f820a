package io.jobinfo.store.benchmarks;

import io.jobinfo.store.config.JobInfoStorageConfig;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * The bare S3 write under a durable blob: one {@code PutObject} with {@code If-None-Match: *} (the server refuses
 * it if the key exists) from a plain client of the same endpoint, credentials and HTTP client type as the store's,
 * without the store's envelope, probes or retries. Its keys are under {@code <namespace>-bare/} and are deleted on
 * close.
 */
final class S3DurableWriteAnchor implements BareDurableWrite {

    private final S3Client s3;
    private final String bucket;
    private final String prefix;
    private final List<String> written = new ArrayList<>();

    /** @throws IllegalArgumentException if the configuration has no bucket, endpoint or static credentials */
    S3DurableWriteAnchor(JobInfoStorageConfig config) {
        this.bucket = required(config, "s3.bucket");
        this.prefix = config.namespace() + "-bare/";
        String region = config.option("s3.region");
        this.s3 = S3Client.builder()
                .endpointOverride(URI.create(required(config, "s3.endpoint")))
                .region(Region.of(region == null ? "us-east-1" : region))
                .forcePathStyle(Boolean.parseBoolean(config.option("s3.path-style-access")))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        required(config, "s3.access-key"), required(config, "s3.secret-key"))))
                .httpClient(ApacheHttpClient.builder().build())
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .build();
    }

    private static String required(JobInfoStorageConfig config, String key) {
        String v = config.option(key);
        if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException("the S3 bare write needs " + key + " in the store configuration");
        }
        return v;
    }

    @Override
    public long write(byte[] bytes) {
        String key = prefix + written.size() + ".blob";
        long start = System.nanoTime();
        s3.putObject(p -> p.bucket(bucket).key(key).ifNoneMatch("*"), RequestBody.fromBytes(bytes));
        long took = System.nanoTime() - start;
        written.add(key);
        return took;
    }

    @Override
    public String describe() {
        return "bare conditional S3 PUT (If-None-Match: *)";
    }

    @Override
    public void close() {
        try {
            for (int i = 0; i < written.size(); i += 1000) {
                List<ObjectIdentifier> batch = written.subList(i, Math.min(written.size(), i + 1000)).stream()
                        .map(k -> ObjectIdentifier.builder().key(k).build()).toList();
                s3.deleteObjects(d -> d.bucket(bucket).delete(Delete.builder().objects(batch).build()));
            }
        } catch (RuntimeException e) {
            ScenarioBenchmark.log("S3 bare write: could not delete its %d objects: %s", written.size(), e);
        } finally {
            s3.close();
        }
    }
}
