package io.jobinfo.store.s3;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.s3.testing.S3Fixture;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.testing.AbstractJobInfoStoreContractTest;
import org.junit.jupiter.api.BeforeAll;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The store contract on the shared S3 fixture (S3Proxy in this JVM unless MinIO or an external S3 is available), with
 * the multipart threshold at 5 MiB: the large-blob tests and every tenth round of the create race go through
 * multipart uploads.
 */
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
        // the smallest threshold S3 allows, so that the multipart rounds of the race stay small
        return S3TestConfigs.builder(s3, bucket, "/jobinfo/" + namespaceName)
                .option("s3.multipart.threshold", "5MiB").build();
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

    /** Every tenth round races multipart uploads (completed with If-None-Match: *), the others single PUTs. */
    @Override
    protected int racePayloadBytes(int round) {
        return round % 10 == 0 ? MULTIPART_RACE_BYTES : 64 * 1024;
    }

    static final int MULTIPART_RACE_BYTES = (5 << 20) + 4096;
}
