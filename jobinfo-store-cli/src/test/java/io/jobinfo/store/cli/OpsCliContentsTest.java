package io.jobinfo.store.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The ops CLI an operator installs holds the ops commands and what they need to open real stores, and nothing of the
 * demo: no demo command, no in-JVM HDFS (hadoop-client-minicluster), no S3 server (S3Proxy) and no Jetty on its
 * class path. Those are in {@code jobinfo-store-demo}, which adds {@code demo} to these commands.
 */
class OpsCliContentsTest {

    @Test
    void theCommandsAreTheOpsCommandsOnly() {
        assertThat(JobInfoStoreCli.commandLine().getSubcommands().keySet())
                .containsExactly("migrate", "verify", "gc", "inspect", "rebuild-pointers", "check-config");
    }

    @Test
    void noTestServerIsOnTheClassPathButTheRealStoresAre() throws Exception {
        for (String absent : List.of("org.apache.hadoop.hdfs.MiniDFSCluster", "org.gaul.s3proxy.S3Proxy",
                "org.eclipse.jetty.server.Server", "io.jobinfo.store.demo.DemoCli")) {
            assertThat(loadable(absent)).as(absent).isFalse();
        }
        // the three backends (one factory registration each) and the Hadoop client they open real HDFS with
        assertThat(Collections.list(OpsCliContentsTest.class.getClassLoader().getResources(
                "META-INF/services/io.jobinfo.store.spi.JobInfoStoreFactory"))).hasSizeGreaterThanOrEqualTo(3);
        for (String present : List.of("org.apache.hadoop.hdfs.DistributedFileSystem",
                "org.apache.hadoop.shaded.org.apache.commons.configuration2.Configuration",
                "software.amazon.awssdk.services.s3.S3Client")) {
            assertThat(loadable(present)).as(present).isTrue();
        }
    }

    private static boolean loadable(String className) {
        try {
            Class.forName(className, false, OpsCliContentsTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
