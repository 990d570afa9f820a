package io.jobinfo.store.s3;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.s3.testing.RgwInstalled;
import io.jobinfo.store.s3.testing.S3Fixture;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.testing.AbstractJobInfoStoreContractTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The store contract on Ceph RGW 16.2 ({@link S3Fixture#rgw()}; skipped, naming what is missing, where Ceph is not
 * installed), with default settings except the 5 MiB multipart threshold of {@link S3JobInfoStoreContractTest}: the
 * start-up probe chooses request checksum mode {@code when-required} and single conditional PUTs, so the large-blob
 * tests and every tenth round of the create race are single PutObject requests above the threshold.
 */
@ExtendWith(RgwInstalled.class)
class S3RgwContractTest extends AbstractJobInfoStoreContractTest {

    static S3Fixture rgw;
    static String bucket;

    @BeforeAll
    static void bucket() {
        rgw = S3Fixture.rgw();
        bucket = rgw.createBucket("contract");
    }

    @Override
    protected JobInfoStorageConfig storeConfig(String namespaceName) {
        return S3TestConfigs.builder(rgw, bucket, "/jobinfo/" + namespaceName)
                .option("s3.multipart.threshold", "5MiB").build();
    }

    @Override
    protected void overwriteStoredBytes(JobInfoStore store, long jobId, byte[] bytes) {
        try (S3Client client = rgw.newClient()) {
            client.putObject(p -> p.bucket(bucket).key(((S3JobInfoStore) store).key(jobId)),
                    RequestBody.fromBytes(bytes));
        }
    }

    @Override
    protected int raceRounds() {
        return 30;
    }

    @Override
    protected int racePayloadBytes(int round) {
        return round % 10 == 0 ? S3JobInfoStoreContractTest.MULTIPART_RACE_BYTES : 64 * 1024;
    }
}
