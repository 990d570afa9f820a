package io.jobinfo.store.s3;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.s3.testing.S3Fixture;
import java.net.URI;

/** Store configurations pointing at the fixture. */
final class S3TestConfigs {

    private S3TestConfigs() {
    }

    static JobInfoStorageConfig.Builder builder(S3Fixture s3, String bucket, String namespace) {
        return builder(s3, s3.endpoint(), bucket, namespace);
    }

    /** Like {@link #builder(S3Fixture, String, String)} but through another endpoint (a fault proxy). */
    static JobInfoStorageConfig.Builder builder(S3Fixture s3, URI endpoint, String bucket, String namespace) {
        return withoutSecret(s3, endpoint, bucket, namespace).option("s3.secret-key", s3.secretKey());
    }

    /** Everything of {@link #builder(S3Fixture, String, String)} but {@code s3.secret-key}, for a test to set. */
    static JobInfoStorageConfig.Builder withoutSecret(S3Fixture s3, URI endpoint, String bucket, String namespace) {
        return JobInfoStorageConfig.builder("s3").namespace(namespace)
                .option("s3.bucket", bucket)
                .option("s3.endpoint", endpoint.toString())
                .option("s3.region", s3.region())
                .option("s3.path-style-access", String.valueOf(s3.pathStyleAccess()))
                .option("s3.access-key", s3.accessKey());
    }
}
