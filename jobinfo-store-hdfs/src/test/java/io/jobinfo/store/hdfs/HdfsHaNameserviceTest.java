package io.jobinfo.store.hdfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.spi.BlobAlreadyExistsException;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.spi.testing.TestBlobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.apache.hadoop.hdfs.server.namenode.ha.HATestUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An HA nameservice (two NameNodes, one active) configured the way operators do it: {@code fs.defaultFS:
 * hdfs://<nameservice>} and the client HA settings in an hdfs-site.xml given as {@code hdfs_site_path}. A blob
 * written before a failover is read after it, through the same store.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class HdfsHaNameserviceTest {

    @TempDir
    static Path base;
    static MiniDFSCluster cluster;

    @BeforeAll
    static void startHaHdfs() throws Exception {
        Configuration conf = new Configuration();
        conf.setInt("dfs.replication", 1);
        conf.setInt("dfs.ha.tail-edits.period", 1);
        cluster = new MiniDFSCluster.Builder(conf, base.resolve("cluster").toFile())
                .nnTopology(MiniDFSNNTopology.simpleHATopology()).numDataNodes(1).build();
        cluster.waitActive();
        cluster.transitionToActive(0);
    }

    @AfterAll
    static void stopHdfs() {
        if (cluster != null) {
            cluster.shutdown(true);
        }
    }

    @Test
    void aNameserviceFromHdfsSitePathSurvivesAFailover() throws Exception {
        Map<String, String> site = new LinkedHashMap<>();
        site.put("dfs.nameservices", "jobinfo-ns");
        site.put("dfs.ha.namenodes.jobinfo-ns", "nn1,nn2");
        site.put("dfs.namenode.rpc-address.jobinfo-ns.nn1", "127.0.0.1:" + cluster.getNameNodePort(0));
        site.put("dfs.namenode.rpc-address.jobinfo-ns.nn2", "127.0.0.1:" + cluster.getNameNodePort(1));
        site.put("dfs.client.failover.proxy.provider.jobinfo-ns",
                "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider");
        site.put("dfs.replication", "1");
        Path hdfsSite = Files.writeString(base.resolve("hdfs-site.xml"), HdfsConfigurationTest.site(site));

        JobInfoStorageConfig config = JobInfoStorageConfig.builder("hdfs").namespace("/seatunnel/jobinfo")
                .option("fs.defaultFS", "hdfs://jobinfo-ns")
                .option("hdfs_site_path", hdfsSite.toString())
                .build();
        byte[] envelope = BlobEnvelope.wrap(8, 1, TestBlobs.randomPayload(8, 500_000));
        try (JobInfoStore store = JobInfoStores.open(config)) {
            assertThat(store.location(8)).hasToString("hdfs://jobinfo-ns/seatunnel/jobinfo/0000000000000008.jobinfo");
            assertThat(store.create(8, BlobSource.ofBytes(envelope))).isEqualTo(CreateOutcome.CREATED);

            HATestUtil.waitForStandbyToCatchUp(cluster.getNameNode(0), cluster.getNameNode(1));
            cluster.transitionToStandby(0);
            cluster.transitionToActive(1);

            assertThat(store.read(8).payload()).isEqualTo(TestBlobs.randomPayload(8, 500_000));
            assertThatThrownBy(() -> store.create(8, BlobSource.ofBytes(BlobEnvelope.wrap(8, 1, new byte[3]))))
                    .isInstanceOf(BlobAlreadyExistsException.class);
            assertThat(store.create(9, BlobSource.ofBytes(BlobEnvelope.wrap(9, 1, new byte[3]))))
                    .isEqualTo(CreateOutcome.CREATED);
        }
    }
}
