package io.jobinfo.store.seatunnel.it;

import io.jobinfo.store.spi.StoreNaming;
import io.jobinfo.store.lifecycle.NamespaceClaim;
import io.jobinfo.store.seatunnel.it.cluster.MiniDfsProcess;
import io.jobinfo.store.seatunnel.harness.junit.SeaTunnelClusterExtension;
import io.jobinfo.store.seatunnel.it.cluster.StoreFilesProbe;
import io.jobinfo.store.seatunnel.harness.junit.Guide;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@link CrashTrials} with the HDFS backend: the members' {@code jobinfo-storage} section is the HDFS example of
 * {@code docs/seatunnel.md} (as in {@link DropInHdfsStoreTest}) with the NameNode's address replaced by a
 * MiniDFSCluster's in a JVM of its own ({@link MiniDfsProcess}; this test JVM has no Hadoop). The store is listed
 * through a member's drop-in ({@link StoreFilesProbe}): leftovers are files the store reports incomplete. Long mode
 * only.
 */
@EnabledIfSystemProperty(named = "jobinfo.it.long", matches = "true", disabledReason = CrashTrials.DISABLED)
class DropInHdfsCrashTrialsTest extends CrashTrials {

    static MiniDfsProcess hdfs;

    @RegisterExtension
    static final SeaTunnelClusterExtension ST = new SeaTunnelClusterExtension(() -> {
        String name = DropInHdfsCrashTrialsTest.class.getSimpleName();
        var spec = spec(name, "");
        Guide.Block block = Guide.read().block("seatunnel-yaml-hdfs");
        String section = Guide.engineSection(block);
        int replication = Integer.parseInt(section.replaceAll(
                "(?s).*seatunnel\\.hadoop\\.dfs\\.replication:\\s*(\\d+).*", "$1"));
        hdfs = MiniDfsProcess.start(dir(name).resolve("hdfs"), replication);
        return spec.withEngineYaml(section.replace(DropInHdfsStoreTest.GUIDE_NAMENODE, hdfs.uri().toString()));
    }, Duration.ofSeconds(180));

    @Override
    SeaTunnelClusterExtension st() {
        return ST;
    }

    @Override
    String backend() {
        return "hdfs";
    }

    @Override
    List<String> storeFiles() {
        List<String> out;
        try {
            out = new ArrayList<>(ST.client().seaTunnelClient().getHazelcastInstance()
                    .getExecutorService("seatunnel-it-probe").submit(new StoreFilesProbe()).get(60, TimeUnit.SECONDS));
        } catch (Exception e) {
            throw new IllegalStateException("cannot list the HDFS store on a member", e);
        }
        out.remove(StoreNaming.blobName(NamespaceClaim.JOB_ID)); // the namespace's claim, no job's
        return out;
    }

    /** Runs before the base class's report and before the members stop (they outlive HDFS by a few seconds). */
    @AfterAll
    static void stopHdfs() {
        if (hdfs != null) {
            hdfs.close();
        }
    }
}
