package io.jobinfo.store.hdfs;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.s3.testing.S3Fixture;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.testing.AbstractJobInfoStoreContractTest;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.junit.jupiter.api.BeforeAll;

/**
 * The store contract on {@code s3a://} (hadoop-aws) against a real S3 server: the shared fixture of
 * {@code jobinfo-store-s3} (S3Proxy in this JVM here; MinIO or an external endpoint where available). Write-once
 * rests on the conditional create, not on a rename.
 */
class S3aJobInfoStoreContractTest extends AbstractJobInfoStoreContractTest {

    static S3Fixture s3;
    static String bucket;

    @BeforeAll
    static void bucket() {
        s3 = S3Fixture.shared();
        bucket = s3.createBucket("hdfs-s3a-contract");
    }

    static JobInfoStorageConfig.Builder s3aConfig(String bucket, String namespace) {
        return JobInfoStorageConfig.builder("hdfs").namespace(namespace)
                .option("fs.defaultFS", "s3a://" + bucket)
                .option("fs.s3a.endpoint", s3.endpoint().toString())
                .option("fs.s3a.endpoint.region", s3.region())
                .option("fs.s3a.path.style.access", String.valueOf(s3.pathStyleAccess()))
                .option("fs.s3a.connection.ssl.enabled", "false")
                .option("fs.s3a.bucket.probe", "0")
                .option("fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider")
                .option("fs.s3a.access.key", s3.accessKey())
                .option("fs.s3a.secret.key", s3.secretKey());
    }

    @Override
    protected JobInfoStorageConfig storeConfig(String namespaceName) {
        return s3aConfig(bucket, "/jobinfo/" + namespaceName).build();
    }

    @Override
    protected void overwriteStoredBytes(JobInfoStore store, long jobId, byte[] bytes) throws Exception {
        HdfsJobInfoStore s3a = (HdfsJobInfoStore) store;
        // an unconditional PUT through the same S3A client, bypassing the store's write-once path
        try (FSDataOutputStream out = s3a.fileSystem().create(s3a.path(jobId), true)) {
            out.write(bytes);
        }
    }
}
