package io.jobinfo.store.compat.hadoop314;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.hdfs.HdfsJobInfoStore;
import io.jobinfo.store.spi.BlobAlreadyExistsException;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.spi.testing.AbstractJobInfoStoreContractTest;
import io.jobinfo.store.spi.testing.TestBlobs;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.util.VersionInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole store contract on a real HDFS 3.1.4 (MiniDFSCluster of that version: one NameNode and one DataNode on
 * 127.0.0.1), the backend using the uber jar's 3.1.4 client: {@code hdfs://} write-once (rename with
 * {@code Options.Rename.NONE}), reads, listing and deletes on SeaTunnel's own Hadoop.
 */
class Hadoop314HdfsContractTest extends AbstractJobInfoStoreContractTest {

    @TempDir
    static Path base;
    static MiniDFSCluster cluster;

    @BeforeAll
    static void startHdfs() throws Exception {
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.toString());
        conf.setInt("dfs.replication", 1);
        conf.setInt("dfs.heartbeat.interval", 1);
        conf.setInt("dfs.namenode.safemode.extension", 0);
        cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).format(true).build();
        cluster.waitActive();
    }

    @AfterAll
    static void stopHdfs() {
        if (cluster != null) {
            cluster.shutdown(true);
        }
    }

    @Override
    protected JobInfoStorageConfig storeConfig(String namespaceName) {
        return JobInfoStorageConfig.builder("hdfs").namespace("/seatunnel/jobinfo/" + namespaceName)
                .option("fs.defaultFS", cluster.getURI().toString())
                .option("seatunnel.hadoop.dfs.replication", "1")
                .build();
    }

    @Override
    protected void overwriteStoredBytes(JobInfoStore store, long jobId, byte[] bytes) throws Exception {
        try (FSDataOutputStream out = cluster.getFileSystem().create(((HdfsJobInfoStore) store).path(jobId), true)) {
            out.write(bytes);
        }
    }

    @Test
    void theClusterAndTheClientAreHadoop314() {
        assertThat(VersionInfo.getVersion()).isEqualTo("3.1.4");
        assertThat(cluster.getNameNode().getClass().getProtectionDomain().getCodeSource().getLocation().toString())
                .contains("hadoop-hdfs-3.1.4");
        assertThat(store.toString()).contains("commit=HDFS_RENAME");
    }

    @Test
    void viewfsMountedOnThisHdfsIsWriteOnce() throws Exception {
        String target = cluster.getURI() + "/viewfs-target";
        JobInfoStorageConfig cfg = JobInfoStorageConfig.builder("hdfs").namespace("viewfs://jicompat/jobs/ns")
                .option("seatunnel.hadoop.fs.viewfs.mounttable.jicompat.link./jobs", target)
                .option("seatunnel.hadoop.dfs.replication", "1")
                .build();
        try (JobInfoStore viewfs = JobInfoStores.open(cfg)) {
            byte[] first = BlobEnvelope.wrap(7, 1, TestBlobs.payloadNamed(1));
            assertThat(viewfs.create(7, BlobSource.ofBytes(first))).isEqualTo(CreateOutcome.CREATED);
            assertThat(viewfs.create(7, BlobSource.ofBytes(first))).isEqualTo(CreateOutcome.ALREADY_PRESENT);
            assertThatThrownBy(() -> viewfs.create(7, BlobSource.ofBytes(BlobEnvelope.wrap(7, 1,
                    TestBlobs.payloadNamed(2))))).isInstanceOf(BlobAlreadyExistsException.class);
            assertThat(viewfs.read(7).payload()).isEqualTo(TestBlobs.payloadNamed(1));
            assertThat(cluster.getFileSystem().exists(new org.apache.hadoop.fs.Path(target
                    + "/ns/0000000000000007.jobinfo"))).isTrue();
        }
    }

    /** A real local file system under a scheme of its own: the store does not know its write-once primitive. */
    public static final class UnknownSchemeFileSystem extends RawLocalFileSystem {
        @Override
        public java.net.URI getUri() {
            return java.net.URI.create("jicompat:///");
        }

        @Override
        public String getScheme() {
            return "jicompat";
        }
    }

    @Test
    void anUnknownFileSystemIsRefusedAtOpenOnThisHadoopToo() {
        JobInfoStorageConfig cfg = JobInfoStorageConfig.builder("hdfs").namespace("jicompat://" + base + "/unknown")
                .option("seatunnel.hadoop.fs.jicompat.impl", UnknownSchemeFileSystem.class.getName())
                .build();
        assertThatThrownBy(() -> JobInfoStores.open(cfg).close())
                .isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining("jicompat://")
                .hasMessageContaining(UnknownSchemeFileSystem.class.getName())
                .hasMessageContaining("Supported: hdfs://");
    }
}
