package io.jobinfo.store.s3;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.s3.testing.S3Fixture;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.testing.AbstractJobInfoStoreContractTest;
import org.junit.jupiter.api.BeforeAll;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** The store contract on the shared S3 fixture (S3Proxy in this JVM unless MinIO or an external S3 is available). */
class S3JobInfoStoreContractTest extends AbstractJobInfoStoreContractTest {

    static S3Fixture s3;
    static String bucket;

    @BeforeAll
    static void bucket() {
        s3 = S3Fixture.shared();
        bucket = s3.createBucket("contract");
    }

    @Override
    protected JobInfoStorageConfig storeConfig(String namespaceName) {
        return S3TestConfigs.builder(s3, bucket, "/jobinfo/" + namespaceName).build();
    }

    @Override
    protected void overwriteStoredBytes(JobInfoStore store, long jobId, byte[] bytes) {
        // A raw, unconditional PutObject behind the store's back.
        try (S3Client client = s3.newClient()) {
            client.putObject(p -> p.bucket(bucket).key(((S3JobInfoStore) store).key(jobId)),
                    RequestBody.fromBytes(bytes));
        }
    }

    @Override
    protected int raceRounds() {
        return 100;
    }
}
