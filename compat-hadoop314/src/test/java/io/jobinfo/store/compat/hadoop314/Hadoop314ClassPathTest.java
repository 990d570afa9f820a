package io.jobinfo.store.compat.hadoop314;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.util.VersionInfo;
import org.junit.jupiter.api.Test;

/** The other tests of this module mean something only if the Hadoop they run on is SeaTunnel's 3.1.4, and only it. */
class Hadoop314ClassPathTest {

    @Test
    void theOnlyHadoopIsSeaTunnelsUberJar314() {
        assertThat(VersionInfo.getVersion()).isEqualTo("3.1.4");
        String fileSystemJar = FileSystem.class.getProtectionDomain().getCodeSource().getLocation().toString();
        assertThat(fileSystemJar).contains("seatunnel-hadoop3-3.1.4-uber");
        // the project's Hadoop 3.5 (shaded client) would bring its relocated third-party classes
        assertThatThrownBy(() -> Class.forName("org.apache.hadoop.shaded.com.google.common.base.Preconditions"))
                .isInstanceOf(ClassNotFoundException.class);
        assertThatThrownBy(() -> Class.forName("org.apache.hadoop.fs.s3a.S3AFileSystem"))
                .isInstanceOf(ClassNotFoundException.class);
        assertThat(System.getProperty("java.class.path")).doesNotContain("hadoop-client-api")
                .doesNotContain("hadoop-client-runtime").doesNotContain("hadoop-aws");
    }
}
