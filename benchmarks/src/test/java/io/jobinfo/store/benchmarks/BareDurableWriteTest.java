package io.jobinfo.store.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.demo.embedded.InJvmHdfs;
import io.jobinfo.store.demo.embedded.InJvmS3Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The bare durable writes that anchor the round 3 submit target, on the real servers the report runs them against
 * (a local directory, an in-JVM MiniDFSCluster, an in-JVM S3Proxy): each writes what it is given under a new name and
 * leaves nothing behind when closed. Not a timed test.
 */
class BareDurableWriteTest {

    private static final byte[] BYTES = new byte[64 * 1024];

    @Test
    void localWritesDurableFilesAndRemovesThem(@TempDir Path dir) throws Exception {
        Path anchorDir = dir.resolve("anchor");
        try (BareDurableWrite w = BareDurableWrite.forStore(
                JobInfoStorageConfig.builder("local").namespace(dir.resolve("store").toString()).build(), anchorDir)) {
            assertThat(w.write(BYTES)).isPositive();
            assertThat(w.write(BYTES)).isPositive();
            try (Stream<Path> files = Files.list(anchorDir)) {
                assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("0.blob", "1.blob");
            }
            assertThat(Files.size(anchorDir.resolve("1.blob"))).isEqualTo(BYTES.length);
        }
        assertThat(anchorDir).doesNotExist();
    }

    @Test
    @Timeout(120)
    void hdfsRenamesToFinalNamesAndRemovesThem(@TempDir Path dir) throws Exception {
        try (InJvmHdfs hdfs = new InJvmHdfs(dir.resolve("hdfs"))) {
            JobInfoStorageConfig config = hdfs.config("/bench/round-0");
            org.apache.hadoop.fs.Path bare = new org.apache.hadoop.fs.Path("/bench/round-0-bare");
            Configuration conf = new Configuration();
            conf.set("fs.defaultFS", config.option("fs.defaultFS"));
            try (FileSystem fs = FileSystem.newInstance(conf)) {
                try (BareDurableWrite w = BareDurableWrite.forStore(config, dir.resolve("unused"))) {
                    assertThat(w.write(BYTES)).isPositive();
                    assertThat(w.write(BYTES)).isPositive();
                    assertThat(fs.getFileStatus(new org.apache.hadoop.fs.Path(bare, "1.blob")).getLen())
                            .isEqualTo(BYTES.length);
                    assertThat(fs.exists(new org.apache.hadoop.fs.Path(bare, ".tmp-1"))).isFalse();
                }
                assertThat(fs.exists(bare)).isFalse();
            }
        }
    }

    @Test
    @Timeout(120)
    void s3PutsConditionallyAndRemovesThem(@TempDir Path dir) throws Exception {
        try (InJvmS3Server server = new InJvmS3Server(dir.resolve("s3"), "bare-bench")) {
            JobInfoStorageConfig config = server.config("bench/round-0");
            try (S3Client s3 = S3Client.builder().endpointOverride(server.endpoint()).region(Region.US_EAST_1)
                    .forcePathStyle(true).credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials
                            .create(config.option("s3.access-key"), config.option("s3.secret-key")))).build()) {
                try (BareDurableWrite w = BareDurableWrite.forStore(config, dir.resolve("unused"))) {
                    assertThat(w.write(BYTES)).isPositive();
                    assertThat(s3.headObject(h -> h.bucket("bare-bench").key("bench/round-0-bare/0.blob"))
                            .contentLength()).isEqualTo(BYTES.length);
                }
                assertThat(s3.listObjectsV2(l -> l.bucket("bare-bench").prefix("bench/round-0-bare/")).keyCount())
                        .isZero();
            }
        }
    }

    @Test
    void anUnknownStoreTypeIsRefusedByName(@TempDir Path dir) {
        assertThatThrownBy(() -> BareDurableWrite.forStore(JobInfoStorageConfig.builder("ftp").namespace("x").build(),
                dir)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ftp");
    }
}
