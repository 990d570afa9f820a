package io.jobinfo.store.hdfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.config.InvalidConfigurationException;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStoreFactory;
import io.jobinfo.store.spi.JobInfoStores;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Configuration keys, their precedence, and the errors of a bad configuration, all reported at start-up. */
class HdfsConfigurationTest {

    @TempDir
    Path tmp;

    @Test
    void theFactoryIsFoundAsHdfsAndDescribesEveryKey() {
        JobInfoStoreFactory factory = JobInfoStores.factory("hdfs", getClass().getClassLoader());
        assertThat(factory).isInstanceOf(HdfsJobInfoStoreFactory.class);
        assertThat(factory.describeOptions()).containsOnlyKeys("fs.defaultFS", "core_site_path", "hdfs_site_path",
                "kerberosPrincipal", "kerberosKeytabFilePath", "seatunnel.hadoop.", "fs.s3a.",
                "hdfs.create-directories");
        assertThat(factory.describeOptions().values()).allSatisfy(v -> assertThat(v).hasSizeGreaterThan(20));
    }

    @Test
    void everyProblemIsListedAtOnceNamingItsKey() {
        JobInfoStorageConfig config = JobInfoStorageConfig.builder("hdfs").namespace("relative/jobinfo")
                .option("fs.defaultFS", "/tmp/")
                .option("hdfs_site_path", tmp.resolve("missing-hdfs-site.xml").toString())
                .option("kerberosPrincipal", "seatunnel/host@EXAMPLE.COM")
                .option("hdfs.create-directories", "maybe")
                .option("seatunnel.hadoop.", "x")
                .option("fs.s3a.secret.key", "TOPSECRET-VALUE")
                .option("hdfs.typo", "1")
                .build();
        assertThatThrownBy(() -> JobInfoStores.open(config))
                .isInstanceOfSatisfying(InvalidConfigurationException.class, e -> {
                    assertThat(e.problems()).hasSize(7);
                    assertThat(e.getMessage())
                            .contains("jobinfo-storage.namespace: 'relative/jobinfo' is relative")
                            .contains("plugin-config.fs.defaultFS: '/tmp/' has no scheme")
                            .contains("plugin-config.hdfs_site_path: the hdfs-site.xml file")
                            .contains("plugin-config.kerberosKeytabFilePath: missing")
                            .contains("plugin-config.hdfs.create-directories: 'maybe' must be true or false")
                            .contains("plugin-config.seatunnel.hadoop.: names no Hadoop key")
                            .contains("plugin-config.hdfs.typo: not an option")
                            .doesNotContain("TOPSECRET-VALUE");
                });
    }

    @Test
    void aKeytabWithoutPrincipalAndAMissingKeytabFileAreReported() {
        JobInfoStorageConfig config = JobInfoStorageConfig.builder("hdfs").namespace("/jobinfo")
                .option("fs.defaultFS", "hdfs://namenode:8020")
                .option("kerberosKeytabFilePath", tmp.resolve("none.keytab").toString())
                .build();
        assertThat(new HdfsJobInfoStoreFactory().validate(config))
                .anySatisfy(p -> assertThat(p).contains("kerberosPrincipal: missing"))
                .anySatisfy(p -> assertThat(p).contains("kerberosKeytabFilePath: the keytab file")
                        .contains("does not exist"))
                .hasSize(2);
    }

    @Test
    void aMissingFileSystemAndAnUnknownSchemeAreReported() {
        JobInfoStorageConfig none = JobInfoStorageConfig.builder("hdfs").namespace("/jobinfo").build();
        assertThat(new HdfsJobInfoStoreFactory().validate(none)).singleElement().asString()
                .contains("fs.defaultFS: missing");
        JobInfoStorageConfig typo = JobInfoStorageConfig.builder("hdfs").namespace("/jobinfo")
                .option("fs.defaultFS", "hfds://namenode:8020").build();
        assertThat(new HdfsJobInfoStoreFactory().validate(typo)).singleElement().asString()
                .contains("no Hadoop FileSystem serves the scheme 'hfds'");
    }

    @Test
    void s3aRefusesConditionalCreateSwitchedOffAndNeverShowsSecrets() {
        JobInfoStorageConfig config = JobInfoStorageConfig.builder("hdfs").namespace("s3a://bucket/jobinfo")
                .option("seatunnel.hadoop.fs.s3a.create.conditional.enabled", "false")
                .option("fs.s3a.secret.key", "TOPSECRET-VALUE")
                .build();
        assertThatThrownBy(() -> HadoopConfigurations.build(config))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("seatunnel.hadoop.fs.s3a.create.conditional.enabled: must not be false")
                .hasMessageNotContaining("TOPSECRET-VALUE");
    }

    @Test
    void sourcesApplyInOrderSiteFilesThenKeysThenPassThrough() throws IOException {
        Path core = Files.writeString(tmp.resolve("core-site.xml"), site(Map.of("fs.defaultFS",
                "hdfs://from-core-site:8020", "jobinfo.test.a", "core")));
        Path hdfs = Files.writeString(tmp.resolve("hdfs-site.xml"), site(Map.of("dfs.replication", "2",
                "jobinfo.test.a", "hdfs", "jobinfo.test.b", "hdfs", "dfs.nameservices", "ns1")));
        JobInfoStorageConfig fromSites = JobInfoStorageConfig.builder("hdfs").namespace("/jobinfo")
                .option("core_site_path", core.toString())
                .option("hdfs_site_path", hdfs.toString())
                .option("seatunnel.hadoop.jobinfo.test.b", "pass-through")
                .build();
        Configuration conf = HadoopConfigurations.build(fromSites);
        assertThat(conf.get("fs.defaultFS")).isEqualTo("hdfs://from-core-site:8020");
        assertThat(conf.get("jobinfo.test.a")).isEqualTo("hdfs");
        assertThat(conf.get("jobinfo.test.b")).isEqualTo("pass-through");
        assertThat(conf.get("dfs.nameservices")).isEqualTo("ns1");
        assertThat(conf.get("dfs.replication")).isEqualTo("2");
        assertThat(conf.get("seatunnel.hadoop.jobinfo.test.b")).as("the prefix is stripped").isNull();

        JobInfoStorageConfig overridden = JobInfoStorageConfig.builder("hdfs").namespace("/jobinfo")
                .option("core_site_path", core.toString())
                .option("fs.defaultFS", "hdfs://explicit:8020")
                .option("seatunnel.hadoop.dfs.replication", "3")
                .build();
        Configuration conf2 = HadoopConfigurations.build(overridden);
        assertThat(conf2.get("fs.defaultFS")).isEqualTo("hdfs://explicit:8020");
        assertThat(conf2.get("dfs.replication")).isEqualTo("3");
        assertThat(conf2.get("fs.s3a.create.conditional.enabled")).as("only forced on s3a").isNull();
        assertThat(conf2.get("hadoop.security.authentication")).isNotEqualTo("kerberos");
    }

    @Test
    void s3aKeysPassVerbatimAndWriteOnceSettingsAreForced() {
        JobInfoStorageConfig config = JobInfoStorageConfig.builder("hdfs").namespace("/jobinfo")
                .option("fs.defaultFS", "s3a://bucket")
                .option("fs.s3a.endpoint", "http://127.0.0.1:9000")
                .build();
        Configuration conf = HadoopConfigurations.build(config);
        assertThat(conf.get("fs.s3a.endpoint")).isEqualTo("http://127.0.0.1:9000");
        assertThat(conf.getBoolean("fs.s3a.create.conditional.enabled", false)).isTrue();
        assertThat(conf.getBoolean("fs.s3a.create.performance", false)).isTrue();
    }

    @Test
    void kerberosKeysSwitchTheClientToKerberos() throws IOException {
        Path keytab = Files.write(tmp.resolve("jobinfo.keytab"), new byte[] {5, 2});
        JobInfoStorageConfig config = JobInfoStorageConfig.builder("hdfs").namespace("/jobinfo")
                .option("fs.defaultFS", "hdfs://namenode:8020")
                .option("kerberosPrincipal", "seatunnel/host@EXAMPLE.COM")
                .option("kerberosKeytabFilePath", keytab.toString())
                .build();
        assertThat(new HdfsJobInfoStoreFactory().validate(config)).isEmpty();
        assertThat(HadoopConfigurations.build(config).get("hadoop.security.authentication")).isEqualTo("kerberos");
    }

    @Test
    void aBrokenSiteFileIsReportedAtStartUp() throws IOException {
        Path broken = Files.writeString(tmp.resolve("hdfs-site.xml"), "<configuration><property><name>x");
        JobInfoStorageConfig config = JobInfoStorageConfig.builder("hdfs").namespace("/jobinfo")
                .option("fs.defaultFS", "hdfs://namenode:8020")
                .option("hdfs_site_path", broken.toString())
                .build();
        assertThat(new HdfsJobInfoStoreFactory().validate(config)).singleElement().asString()
                .contains("cannot be parsed").contains("fix the XML");
    }

    // ------------------------------------------------------------------------------------ reachability at start-up

    @Test
    void anUnreachableNameNodeFailsAtStartUpNamingTheLocation() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        JobInfoStorageConfig config = JobInfoStorageConfig.builder("hdfs").namespace("/jobinfo")
                .option("fs.defaultFS", "hdfs://127.0.0.1:" + port)
                .option("seatunnel.hadoop.ipc.client.connect.max.retries", "0")
                .option("seatunnel.hadoop.ipc.client.connect.retry.interval", "10")
                .build();
        assertThatThrownBy(() -> JobInfoStores.open(config))
                .isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining("hdfs://127.0.0.1:" + port + "/jobinfo")
                .hasMessageContaining("Connection refused")
                .hasMessageContaining("check fs.defaultFS");
    }

    @Test
    void aMissingDirectoryIsCreatedOrRefusedAsConfigured() throws Exception {
        Path dir = tmp.resolve("made by the store");
        try (var store = JobInfoStores.open(JobInfoStorageConfig.builder("hdfs").namespace("file://" + dir)
                .build())) {
            assertThat(dir).isDirectory();
            assertThat(store.list()).isEmpty();
            assertThat(dir).isEmptyDirectory(); // the write probe left nothing behind
        }
        Path missing = tmp.resolve("missing");
        assertThatThrownBy(() -> JobInfoStores.open(JobInfoStorageConfig.builder("hdfs")
                .namespace("file://" + missing).option("hdfs.create-directories", "false").build()))
                .isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining("does not exist")
                .hasMessageContaining("hdfs.create-directories=true");
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        assertThatThrownBy(() -> JobInfoStores.open(JobInfoStorageConfig.builder("hdfs")
                .namespace("file://" + file).build()))
                .isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining("not a directory");
    }

    static String site(Map<String, String> properties) {
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
        properties.forEach((k, v) -> sb.append("  <property><name>").append(k).append("</name><value>").append(v)
                .append("</value></property>\n"));
        return sb.append("</configuration>\n").toString();
    }
}
