package io.jobinfo.store.seatunnel;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.s3.testing.S3Fixture;
import org.junit.jupiter.api.BeforeAll;

/** Real SeaTunnel jobs on the native S3 store, against the shared in-JVM S3 server (S3Proxy). */
class S3RealJobStoreTest extends AbstractRealJobStoreTest {

    static S3Fixture s3;
    static String bucket;

    @BeforeAll
    static void startS3() {
        s3 = S3Fixture.shared();
        bucket = s3.createBucket("seatunnel-jobs");
    }

    @Override
    protected JobInfoStorageConfig storeConfig(String namespaceName) {
        return JobInfoStorageConfig.builder("s3").namespace(namespaceName)
                .option("s3.bucket", bucket)
                .option("s3.endpoint", s3.endpoint().toString())
                .option("s3.region", s3.region())
                .option("s3.path-style-access", String.valueOf(s3.pathStyleAccess()))
                .option("s3.access-key", s3.accessKey())
                .option("s3.secret-key", s3.secretKey())
                .build();
    }
}
