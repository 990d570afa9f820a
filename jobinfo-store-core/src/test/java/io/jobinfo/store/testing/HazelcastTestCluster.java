package io.jobinfo.store.testing;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.LocalMapStats;
import io.jobinfo.store.lifecycle.JavaDeserializationFilter;
import io.jobinfo.store.lifecycle.JobInfoSerialization;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A real Hazelcast cluster of several members in this JVM, on 127.0.0.1 with TCP/IP join and a cluster name of its
 * own, so that concurrent test runs on one machine never join each other.
 */
public final class HazelcastTestCluster implements AutoCloseable {

    private final String clusterName = "jobinfo-test-" + UUID.randomUUID();
    private final List<HazelcastInstance> members = new ArrayList<>();

    public HazelcastTestCluster(int size) {
        for (int i = 0; i < size; i++) {
            members.add(Hazelcast.newHazelcastInstance(memberConfig(clusterName)));
        }
        waitForSize(size);
    }

    /** A member configuration: loopback only, 1 sync backup (Hazelcast's default), jobinfo serialization. */
    public static Config memberConfig(String clusterName) {
        Config config = new Config();
        config.setClusterName(clusterName);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        // a write whose synchronous backup was not acknowledged fails (IndeterminateOperationStateException, which the
        // registry reports as an unknown outcome) instead of returning as if it had been backed up
        config.setProperty("hazelcast.operation.fail.on.indeterminate.state", "true");
        config.setProperty("hazelcast.logging.type", "slf4j");
        config.setProperty("hazelcast.partition.count", "71");
        config.setProperty("hazelcast.merge.first.run.delay.seconds", "5");
        config.setProperty("hazelcast.max.no.heartbeat.seconds", "10");
        config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        config.setProperty("hazelcast.wait.seconds.before.join", "0");
        config.getJetConfig().setEnabled(false);
        NetworkConfig network = config.getNetworkConfig();
        network.setPort(5801).setPortAutoIncrement(true).setPortCount(12);
        network.getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true);
        for (int port = 5801; port < 5801 + 12; port++) {
            join.getTcpIpConfig().addMember("127.0.0.1:" + port);
        }
        return JobInfoSerialization.configure(JavaDeserializationFilter.restrict(config));
    }

    public String clusterName() {
        return clusterName;
    }

    /** Live members, oldest (the master) first. */
    public List<HazelcastInstance> members() {
        List<HazelcastInstance> live = new ArrayList<>();
        for (HazelcastInstance m : members) {
            if (m.getLifecycleService().isRunning()) {
                live.add(m);
            }
        }
        live.sort(Comparator.comparingInt(m -> indexInMemberList(m)));
        return live;
    }

    /** The oldest live member, which Hazelcast makes the master. */
    public HazelcastInstance master() {
        return members().get(0);
    }

    /** A live member that is not the master. */
    public HazelcastInstance nonMaster() {
        return members().get(1);
    }

    /** Crashes {@code member} without a graceful leave. */
    public void terminate(HazelcastInstance member) {
        member.getLifecycleService().terminate();
        waitForSize(members().size());
    }

    /** Adds a member. */
    public HazelcastInstance addMember() {
        HazelcastInstance m = Hazelcast.newHazelcastInstance(memberConfig(clusterName));
        members.add(m);
        waitForSize(members().size());
        return m;
    }

    /**
     * Owned plus backup entry memory of {@code mapName}, summed over live members, read once no partition is migrating
     * and two readings in a row agree. A reading taken while a partition moves counts its replicas on the member that
     * gives them up, the one that takes them, or neither, depending on the instant (a fresh-clone CI run measured a
     * migration 1% off that way).
     *
     * @throws IllegalStateException if the cluster does not settle within 60 seconds
     */
    public long entryMemoryCost(String mapName) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        long previous = -1;
        while (System.nanoTime() < deadline) {
            if (members().stream().allMatch(m -> m.getPartitionService().isClusterSafe())) {
                long reading = readEntryMemoryCost(mapName);
                if (reading == previous) {
                    return reading;
                }
                previous = reading;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + mapName + " to settle", e);
            }
        }
        throw new IllegalStateException("entry memory of " + mapName + " did not settle within 60 s"
                + " (partitions still migrating, or the map still being written)");
    }

    private long readEntryMemoryCost(String mapName) {
        long total = 0;
        for (HazelcastInstance m : members()) {
            LocalMapStats stats = m.getMap(mapName).getLocalMapStats();
            total += stats.getOwnedEntryMemoryCost() + stats.getBackupEntryMemoryCost();
        }
        return total;
    }

    /** Get operations served by owners of {@code mapName}, summed over live members. */
    public long getOperations(String mapName) {
        long total = 0;
        for (HazelcastInstance m : members()) {
            total += m.getMap(mapName).getLocalMapStats().getGetOperationCount();
        }
        return total;
    }

    private int indexInMemberList(HazelcastInstance m) {
        List<com.hazelcast.cluster.Member> list = new ArrayList<>(m.getCluster().getMembers());
        return list.indexOf(m.getCluster().getLocalMember());
    }

    private void waitForSize(int size) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            boolean all = true;
            for (HazelcastInstance m : members()) {
                // getOwner() also triggers the first partition arrangement: isClusterSafe() alone is true before it
                if (m.getCluster().getMembers().size() != size
                        || !m.getPartitionService().getPartitions().stream().allMatch(p -> p.getOwner() != null)
                        || !m.getPartitionService().isClusterSafe()) {
                    all = false;
                }
            }
            if (all) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        throw new IllegalStateException("cluster did not settle at " + size + " members within 60 s");
    }

    @Override
    public void close() {
        for (HazelcastInstance m : members) {
            try {
                m.getLifecycleService().terminate();
            } catch (RuntimeException ignored) {
                // already down
            }
        }
    }
}
