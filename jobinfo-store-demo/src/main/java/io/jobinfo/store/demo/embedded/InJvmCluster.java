package io.jobinfo.store.demo.embedded;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.LocalMapStats;
import io.jobinfo.store.lifecycle.JavaDeserializationFilter;
import io.jobinfo.store.lifecycle.JobInfoSerialization;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/**
 * Hazelcast members in this JVM, for the demo and the benchmarks: loopback only, TCP/IP join on {@value #PORTS} ports
 * from a base port, a cluster name of their own, one synchronous backup (Hazelcast's default, as in SeaTunnel's
 * {@code engine_runningJobInfo}). A write whose backup is not acknowledged fails instead of returning as if it were
 * backed up. Not for production.
 */
public final class InJvmCluster implements AutoCloseable {

    public static final int PORTS = 20;

    private final List<HazelcastInstance> members = new ArrayList<>();

    /**
     * Starts {@code size} members and waits until every partition has an owner and the cluster is safe.
     *
     * @throws IllegalStateException the cluster did not settle within 60 s (the members are stopped)
     */
    public InJvmCluster(int size, int basePort, String namePrefix) {
        String name = namePrefix + "-" + UUID.randomUUID();
        try {
            for (int i = 0; i < size; i++) {
                members.add(Hazelcast.newHazelcastInstance(config(name, basePort)));
            }
            awaitSize(size);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private static Config config(String clusterName, int basePort) {
        Config config = new Config().setClusterName(clusterName);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.logging.type", "slf4j");
        config.setProperty("hazelcast.wait.seconds.before.join", "0");
        config.setProperty("hazelcast.max.no.heartbeat.seconds", "10");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        // a write whose synchronous backup was not acknowledged fails (IndeterminateOperationStateException, which the
        // registry reports as an unknown outcome) instead of returning as if it had been backed up
        config.setProperty("hazelcast.operation.fail.on.indeterminate.state", "true");
        config.getJetConfig().setEnabled(false);
        config.getNetworkConfig().setPort(basePort).setPortCount(PORTS).getInterfaces().setEnabled(true)
                .addInterface("127.0.0.1");
        JoinConfig join = config.getNetworkConfig().getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true);
        for (int p = basePort; p < basePort + PORTS; p++) {
            join.getTcpIpConfig().addMember("127.0.0.1:" + p);
        }
        return JobInfoSerialization.configure(JavaDeserializationFilter.restrict(config));
    }

    /** Live members, oldest (the master) first. */
    public List<HazelcastInstance> live() {
        List<HazelcastInstance> live = new ArrayList<>();
        for (HazelcastInstance m : members) {
            if (m.getLifecycleService().isRunning()) {
                live.add(m);
            }
        }
        live.sort(Comparator.comparingInt(InJvmCluster::indexInMemberList));
        return live;
    }

    private static int indexInMemberList(HazelcastInstance m) {
        int i = 0;
        for (var member : m.getCluster().getMembers()) {
            if (member.equals(m.getCluster().getLocalMember())) {
                return i;
            }
            i++;
        }
        return Integer.MAX_VALUE;
    }

    /** The oldest live member: Hazelcast's master, where the coordinator runs. */
    public HazelcastInstance master() {
        return live().get(0);
    }

    /** The member that becomes master when the current one dies: the second oldest. */
    public HazelcastInstance successor() {
        return live().get(1);
    }

    /** Crashes {@code member} (no graceful leave) and waits until the others have settled without it. */
    public void crash(HazelcastInstance member) {
        member.getLifecycleService().terminate();
        awaitSize(live().size());
    }

    /** Cluster-wide entry cost of a map: owned plus backup entries on every live member. */
    public long entryMemoryCost(String mapName) {
        long total = 0;
        for (HazelcastInstance m : live()) {
            LocalMapStats s = m.getMap(mapName).getLocalMapStats();
            total += s.getOwnedEntryMemoryCost() + s.getBackupEntryMemoryCost();
        }
        return total;
    }

    /** Waits until {@code size} members see each other, every partition has an owner and the cluster is safe. */
    public void awaitSize(int size) {
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
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the cluster settles", e);
            }
        }
        throw new IllegalStateException("the in-JVM cluster did not settle at " + size + " members in 60 s");
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
