package io.jobinfo.store.compat.hadoop314;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.config.InvalidConfigurationException;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.hdfs.HdfsJobInfoStoreFactory;
import io.jobinfo.store.spi.JobInfoStores;
import org.junit.jupiter.api.Test;

/**
 * What needs a newer Hadoop than SeaTunnel's 3.1.4 is refused at open, saying so: {@code s3a://} (S3A conditional
 * create came with Hadoop 3.4.2).
 */
class Hadoop314RefusalTest {

    private static JobInfoStorageConfig s3a() {
        return JobInfoStorageConfig.builder("hdfs").namespace("s3a://some-bucket/jobinfo")
                .option("fs.s3a.endpoint", "http://127.0.0.1:1").build();
    }

    @Test
    void s3aIsRefusedAtOpenNamingTheHadoopVersionAndWhatToUseInstead() {
        assertThatThrownBy(() -> JobInfoStores.open(s3a()))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("s3a:// needs Hadoop 3.4.2 or later")
                .hasMessageContaining("this process runs Hadoop 3.1.4")
                .hasMessageContaining("store type s3");
    }

    @Test
    void validationReportsTheSameWithoutTouchingAnything() {
        assertThat(new HdfsJobInfoStoreFactory().validate(s3a())).anySatisfy(p -> assertThat(p)
                .contains("s3a:// needs Hadoop 3.4.2 or later").contains("3.1.4"));
    }
}
