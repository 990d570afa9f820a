package io.jobinfo.store.cli;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.LocalMapStats;
import io.jobinfo.store.service.JobInfoSerialization;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Hazelcast members started in this JVM for the demo: loopback only, TCP/IP join, a cluster name of their own, one
 * synchronous backup (Hazelcast's default, as in SeaTunnel's {@code engine_runningJobInfo}).
 */
final class EmbeddedCluster implements AutoCloseable {

    private static final int BASE_PORT = 5901;
    private static final int PORTS = 16;

    private final List<HazelcastInstance> members = new ArrayList<>();

    EmbeddedCluster(int size) {
        String name = "jobinfo-demo-" + UUID.randomUUID();
        for (int i = 0; i < size; i++) {
            members.add(Hazelcast.newHazelcastInstance(config(name)));
        }
        awaitSize(size);
    }

    private static Config config(String clusterName) {
        Config config = new Config().setClusterName(clusterName);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        // a write whose synchronous backup was not acknowledged fails (IndeterminateOperationStateException, which the
        // registry reports as an unknown outcome) instead of returning as if it had been backed up
        config.setProperty("hazelcast.operation.fail.on.indeterminate.state", "true");
        config.setProperty("hazelcast.logging.type", "slf4j");
        config.setProperty("hazelcast.wait.seconds.before.join", "0");
        config.setProperty("hazelcast.max.no.heartbeat.seconds", "10");
        config.getJetConfig().setEnabled(false);
        config.getNetworkConfig().setPort(BASE_PORT).setPortCount(PORTS).getInterfaces().setEnabled(true)
                .addInterface("127.0.0.1");
        JoinConfig join = config.getNetworkConfig().getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true);
        for (int p = BASE_PORT; p < BASE_PORT + PORTS; p++) {
            join.getTcpIpConfig().addMember("127.0.0.1:" + p);
        }
        return JobInfoSerialization.configure(config);
    }

    /** The oldest live member: Hazelcast's master, where the coordinator runs. */
    HazelcastInstance master() {
        HazelcastInstance any = live().get(0);
        var oldest = any.getCluster().getMembers().iterator().next();
        for (HazelcastInstance m : live()) {
            if (m.getCluster().getLocalMember().equals(oldest)) {
                return m;
            }
        }
        throw new IllegalStateException("no live member is the master");
    }

    /** Crashes {@code member} (no graceful leave) and waits until the others have a new master. */
    void crash(HazelcastInstance member) {
        member.getLifecycleService().terminate();
        awaitSize(live().size());
    }

    long entryMemoryCost(String mapName) {
        long total = 0;
        for (HazelcastInstance m : live()) {
            LocalMapStats s = m.getMap(mapName).getLocalMapStats();
            total += s.getOwnedEntryMemoryCost() + s.getBackupEntryMemoryCost();
        }
        return total;
    }

    private List<HazelcastInstance> live() {
        List<HazelcastInstance> live = new ArrayList<>();
        for (HazelcastInstance m : members) {
            if (m.getLifecycleService().isRunning()) {
                live.add(m);
            }
        }
        return live;
    }

    private void awaitSize(int size) {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            boolean settled = true;
            for (HazelcastInstance m : live()) {
                // getOwner() also triggers the first partition arrangement: isClusterSafe() alone is true before it
                settled &= m.getCluster().getMembers().size() == size
                        && m.getPartitionService().getPartitions().stream().allMatch(p -> p.getOwner() != null)
                        && m.getPartitionService().isClusterSafe();
            }
            if (settled) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the cluster settles", e);
            }
        }
        throw new IllegalStateException("the embedded cluster did not settle at " + size + " members in 60 s");
    }

    @Override
    public void close() {
        for (HazelcastInstance m : members) {
            m.getLifecycleService().terminate();
        }
    }
}
