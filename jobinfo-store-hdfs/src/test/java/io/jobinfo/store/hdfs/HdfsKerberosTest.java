package io.jobinfo.store.hdfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.spi.testing.TestBlobs;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.Properties;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HDFS backend against a real KDC (Hadoop's MiniKdc, Apache Kerby in this JVM) and a secured MiniDFSCluster:
 * Kerberos authentication on RPC, block access tokens, SASL on data transfer
 * ({@code dfs.data.transfer.protection=authentication}) and HTTPS only (keystores made with keytool by
 * {@link TestKeystores}), the setup Hadoop's own {@code SaslDataTransferTestCase} uses. The store logs in from a
 * keytab of its own principal ({@code kerberosPrincipal} / {@code kerberosKeytabFilePath}).
 *
 * <p>Tickets live at most {@value #TICKET_LIFETIME_SECONDS} s here. The renewal test (an operation after the ticket
 * expired still works, through the store's relogin from the keytab) waits past that lifetime and only runs with
 * {@code -Djobinfo.it.kerberos-renewal=true}.
 *
 * <p>Runs in a JVM of its own (a separate surefire execution): Hadoop keeps "security is on" JVM-wide.
 */
class HdfsKerberosTest {

    private static final Logger LOG = LoggerFactory.getLogger(HdfsKerberosTest.class);
    static final int TICKET_LIFETIME_SECONDS = 60;

    @TempDir
    static Path work;
    private static MiniKdc kdc;
    private static MiniDFSCluster cluster;
    private static String realm;
    private static File serverKeytab;
    private static File clientKeytab;
    private static File otherKeytab;
    private static String clientPrincipal;

    @BeforeAll
    static void start() throws Exception {
        long t0 = System.nanoTime();
        Properties kdcConf = MiniKdc.createConf();
        kdcConf.setProperty(MiniKdc.MAX_TICKET_LIFETIME, String.valueOf(TICKET_LIFETIME_SECONDS * 1000L));
        kdcConf.setProperty(MiniKdc.MAX_RENEWABLE_LIFETIME, String.valueOf(TICKET_LIFETIME_SECONDS * 1000L));
        kdc = new MiniKdc(kdcConf, Files.createDirectories(work.resolve("kdc")).toFile());
        kdc.start();
        realm = kdc.getRealm();
        serverKeytab = work.resolve("hdfs.keytab").toFile();
        kdc.createPrincipal(serverKeytab, "hdfs/localhost", "HTTP/localhost");
        clientKeytab = work.resolve("jobinfo.keytab").toFile();
        kdc.createPrincipal(clientKeytab, "jobinfo/localhost");
        clientPrincipal = "jobinfo/localhost@" + realm;
        otherKeytab = work.resolve("other.keytab").toFile();
        kdc.createPrincipal(otherKeytab, "other/localhost");

        Configuration conf = new Configuration();
        String hdfsPrincipal = "hdfs/localhost@" + realm;
        conf.set("hadoop.security.authentication", "kerberos");
        conf.set("hadoop.kerberos.min.seconds.before.relogin", "1");
        conf.set("dfs.namenode.kerberos.principal", hdfsPrincipal);
        conf.set("dfs.namenode.keytab.file", serverKeytab.getAbsolutePath());
        conf.set("dfs.datanode.kerberos.principal", hdfsPrincipal);
        conf.set("dfs.datanode.keytab.file", serverKeytab.getAbsolutePath());
        conf.set("dfs.web.authentication.kerberos.principal", "HTTP/localhost@" + realm);
        conf.set("dfs.web.authentication.kerberos.keytab", serverKeytab.getAbsolutePath());
        conf.setBoolean("dfs.block.access.token.enable", true);
        conf.set("dfs.data.transfer.protection", "authentication");
        conf.set("dfs.http.policy", "HTTPS_ONLY");
        conf.set("dfs.namenode.https-address", "localhost:0");
        conf.set("dfs.datanode.https.address", "localhost:0");
        conf.setInt("dfs.replication", 1);
        conf.setInt("dfs.namenode.safemode.extension", 0);
        long kdcUp = System.nanoTime();
        TestKeystores.setUp(Files.createDirectories(work.resolve("keystores")), conf);
        long keystores = System.nanoTime();
        UserGroupInformation.setConfiguration(conf);

        cluster = new MiniDFSCluster.Builder(conf, work.resolve("dfs").toFile()).numDataNodes(1).format(true)
                .build();
        cluster.waitActive();
        LOG.warn("secured HDFS up: KDC {} ms, keystores {} ms, MiniDFSCluster {} ms", (kdcUp - t0) / 1_000_000,
                (keystores - kdcUp) / 1_000_000, (System.nanoTime() - keystores) / 1_000_000);
        // the namespace root, made by the HDFS superuser and handed to the store's user
        UserGroupInformation admin = UserGroupInformation.loginUserFromKeytabAndReturnUGI(hdfsPrincipal,
                serverKeytab.getAbsolutePath());
        admin.doAs((PrivilegedExceptionAction<Void>) () -> {
            try (FileSystem fs = FileSystem.newInstance(cluster.getURI(), conf)) {
                org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path("/secure");
                fs.mkdirs(root);
                fs.setOwner(root, "jobinfo", "jobinfo");
            }
            return null;
        });
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.shutdown(true);
        }
        if (kdc != null) {
            kdc.stop();
        }
    }

    private static JobInfoStorageConfig.Builder config(String principal, String keytab) {
        return JobInfoStorageConfig.builder("hdfs").namespace("/secure/" + UUID.randomUUID())
                .option("fs.defaultFS", cluster.getURI().toString())
                .option(HadoopConfigurations.KERBEROS_PRINCIPAL, principal)
                .option(HadoopConfigurations.KERBEROS_KEYTAB, keytab)
                .option("seatunnel.hadoop.dfs.namenode.kerberos.principal", "hdfs/localhost@" + realm)
                .option("seatunnel.hadoop.dfs.datanode.kerberos.principal", "hdfs/localhost@" + realm)
                .option("seatunnel.hadoop.dfs.data.transfer.protection", "authentication")
                .option("seatunnel.hadoop.dfs.replication", "1");
    }

    @Test
    void aKeytabLoginCreatesReadsAndDeletesOnTheSecuredCluster() throws Exception {
        byte[] envelope = BlobEnvelope.wrap(1, 1, TestBlobs.randomPayload(1, 3 << 20));
        try (JobInfoStore store = JobInfoStores.open(config(clientPrincipal, clientKeytab.getPath()).build())) {
            assertThat(store.create(1, BlobSource.ofBytes(envelope))).isEqualTo(CreateOutcome.CREATED);
            assertThat(store.create(1, BlobSource.ofBytes(envelope))).isEqualTo(CreateOutcome.ALREADY_PRESENT);
            assertThat(store.read(1).payload())
                    .isEqualTo(BlobEnvelope.verify(envelope, 1, store.location(1)).payload());
            assertThat(store.list()).singleElement().satisfies(b -> assertThat(b.jobId()).isEqualTo(1L));
            assertThat(store.delete(1)).isTrue();
            assertThatThrownBy(() -> store.read(1)).isInstanceOf(BlobNotFoundException.class);
        }
        // and the file system really is secured: the blob was written by the store's principal
        assertThat(UserGroupInformation.isSecurityEnabled()).isTrue();
    }

    @Test
    void aPrincipalThatIsNotInTheKeytabFailsAtStartWithBothNamed() {
        String wrong = "nobody/localhost@" + realm;
        assertThatThrownBy(() -> JobInfoStores.open(config(wrong, clientKeytab.getPath()).build()))
                .isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining("Kerberos login failed")
                .hasMessageContaining(wrong)
                .hasMessageContaining(clientKeytab.getPath());
    }

    @Test
    void aKeytabOfAnotherPrincipalFailsAtStartWithBothNamed() {
        assertThatThrownBy(() -> JobInfoStores.open(config(clientPrincipal, otherKeytab.getPath()).build()))
                .isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining("Kerberos login failed")
                .hasMessageContaining(clientPrincipal)
                .hasMessageContaining(otherKeytab.getPath());
    }

    @Test
    void aMissingKeytabFailsAtStartNamingThePath() {
        String missing = work.resolve("no-such.keytab").toString();
        assertThatThrownBy(() -> JobInfoStores.open(config(clientPrincipal, missing).build()))
                .hasMessageContaining(HadoopConfigurations.KERBEROS_KEYTAB)
                .hasMessageContaining(missing);
    }

    @Test
    void anOperationAfterTheTicketExpiredStillWorksThroughReloginFromTheKeytab() throws Exception {
        assumeTrue(Boolean.getBoolean("jobinfo.it.kerberos-renewal"), "long (waits past the " + TICKET_LIFETIME_SECONDS
                + " s ticket lifetime): run with -Djobinfo.it.kerberos-renewal=true");
        try (JobInfoStore store = JobInfoStores.open(config(clientPrincipal, clientKeytab.getPath()).build())) {
            for (int round = 0; round < 2; round++) {
                long jobId = 100 + round;
                byte[] envelope = BlobEnvelope.wrap(jobId, 1, TestBlobs.randomPayload(jobId, 1 << 20));
                assertThat(store.create(jobId, BlobSource.ofBytes(envelope))).isEqualTo(CreateOutcome.CREATED);
                assertThat(store.read(jobId).payload())
                        .isEqualTo(BlobEnvelope.verify(envelope, jobId, store.location(jobId)).payload());
                LOG.warn("kerberos round {}: create + read ok; sleeping past the ticket lifetime", round);
                Thread.sleep((TICKET_LIFETIME_SECONDS + 15) * 1000L);
            }
            // after the second expiry: reads and a listing still work
            assertThat(store.list()).hasSize(2);
            assertThat(store.read(100)).isNotNull();
            LOG.warn("kerberos renewal: operations after two ticket expiries succeeded");
        }
    }
}
