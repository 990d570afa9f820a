package io.jobinfo.store.hdfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.config.JobInfoStorageConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The close retry pacing the store sets (see {@link HdfsClientDefaults}): applied when the user sets neither key,
 * left alone (both keys) when any user source sets one of them.
 */
class HdfsClientDefaultsTest {

    @TempDir
    Path tmp;

    private static JobInfoStorageConfig.Builder base() {
        return JobInfoStorageConfig.builder("hdfs").namespace("/jobinfo").option("fs.defaultFS", "hdfs://nn:8020");
    }

    @Test
    void withoutUserSettingsTheCloseRetriesStartAt2MsAndAllow13Retries() {
        HdfsConfiguration.init();
        Configuration hadoopDefaults = new Configuration();
        assertThat(hadoopDefaults.getInt(HdfsClientDefaults.INITIAL_DELAY, -1)).as("Hadoop's own default")
                .isEqualTo(400);

        Configuration conf = HadoopConfigurations.build(base().build());
        assertThat(conf.getInt(HdfsClientDefaults.INITIAL_DELAY, -1)).isEqualTo(2);
        assertThat(conf.getInt(HdfsClientDefaults.RETRIES, -1)).isEqualTo(13);
        assertThat(conf.getPropertySources(HdfsClientDefaults.INITIAL_DELAY))
                .contains("jobinfo-store-hdfs client defaults");
        // a close gives up no sooner than with Hadoop's values, and not much later: 2 ms x (2^13 - 1) vs 400 ms x (2^5 - 1)
        long ours = 2L * ((1L << 13) - 1);
        long hadoops = 400L * ((1L << hadoopDefaults.getInt(HdfsClientDefaults.RETRIES, -1)) - 1);
        assertThat(ours).isBetween(hadoops, hadoops * 3 / 2);
    }

    @Test
    void aPassThroughKeyOfEitherSettingLeavesBothToTheUser() {
        Configuration delay = HadoopConfigurations.build(base()
                .option("seatunnel.hadoop." + HdfsClientDefaults.INITIAL_DELAY, "250").build());
        assertThat(delay.getInt(HdfsClientDefaults.INITIAL_DELAY, -1)).isEqualTo(250);
        assertThat(delay.getInt(HdfsClientDefaults.RETRIES, -1)).as("Hadoop's default, not ours").isEqualTo(5);

        Configuration retries = HadoopConfigurations.build(base()
                .option("seatunnel.hadoop." + HdfsClientDefaults.RETRIES, "3").build());
        assertThat(retries.getInt(HdfsClientDefaults.RETRIES, -1)).isEqualTo(3);
        assertThat(retries.getInt(HdfsClientDefaults.INITIAL_DELAY, -1)).isEqualTo(400);
    }

    @Test
    void aSiteFileSettingEitherKeyLeavesBothToTheUser() throws IOException {
        Path site = Files.writeString(tmp.resolve("hdfs-site.xml"), "<?xml version=\"1.0\"?>\n<configuration>"
                + "<property><name>" + HdfsClientDefaults.RETRIES + "</name><value>7</value></property>"
                + "</configuration>\n");
        Configuration conf = HadoopConfigurations.build(base().option("hdfs_site_path", site.toString()).build());
        assertThat(conf.getInt(HdfsClientDefaults.RETRIES, -1)).isEqualTo(7);
        assertThat(conf.getInt(HdfsClientDefaults.INITIAL_DELAY, -1)).isEqualTo(400);
    }
}
