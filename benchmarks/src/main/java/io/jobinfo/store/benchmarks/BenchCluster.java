package io.jobinfo.store.benchmarks;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.LocalMapStats;
import io.jobinfo.store.service.JobInfoSerialization;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/**
 * A real Hazelcast cluster of several members in this JVM: loopback only, TCP/IP join on ports 6001+ (tests use
 * 5801+, the demo 5901+), a cluster name of its own, one synchronous backup (Hazelcast's default, as in SeaTunnel's
 * {@code engine_runningJobInfo}).
 */
final class BenchCluster implements AutoCloseable {

    static final int BASE_PORT = 6001;
    static final int PORTS = 20;

    private final List<HazelcastInstance> members = new ArrayList<>();

    BenchCluster(int size, int basePort) {
        String name = "jobinfo-bench-" + UUID.randomUUID();
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

    BenchCluster(int size) {
        this(size, BASE_PORT);
    }

    static Config config(String clusterName, int basePort) {
        Config config = new Config().setClusterName(clusterName);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.logging.type", "slf4j");
        config.setProperty("hazelcast.wait.seconds.before.join", "0");
        config.setProperty("hazelcast.max.no.heartbeat.seconds", "10");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
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
        return JobInfoSerialization.configure(config);
    }

    /** Live members, oldest (the master) first. */
    List<HazelcastInstance> live() {
        List<HazelcastInstance> live = new ArrayList<>();
        for (HazelcastInstance m : members) {
            if (m.getLifecycleService().isRunning()) {
                live.add(m);
            }
        }
        live.sort(Comparator.comparingInt(BenchCluster::indexInMemberList));
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

    HazelcastInstance master() {
        return live().get(0);
    }

    /** The member that becomes master when the current one dies: the second oldest. */
    HazelcastInstance successor() {
        return live().get(1);
    }

    /** Cluster-wide entry cost of a map: owned plus backup entries on every live member. */
    long entryMemoryCost(String mapName) {
        long total = 0;
        for (HazelcastInstance m : live()) {
            LocalMapStats s = m.getMap(mapName).getLocalMapStats();
            total += s.getOwnedEntryMemoryCost() + s.getBackupEntryMemoryCost();
        }
        return total;
    }

    void awaitSize(int size) {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            boolean settled = true;
            for (HazelcastInstance m : live()) {
                settled &= m.getCluster().getMembers().size() == size
                        && m.getPartitionService().getPartitions().stream().allMatch(p -> p.getOwner() != null)
                        && m.getPartitionService().isClusterSafe();
            }
            if (settled) {
                return;
            }
            sleep(20);
        }
        throw new IllegalStateException("the benchmark cluster did not settle at " + size + " members in 60 s");
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
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
