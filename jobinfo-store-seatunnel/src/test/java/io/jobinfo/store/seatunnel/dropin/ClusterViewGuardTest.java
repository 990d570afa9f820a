package io.jobinfo.store.seatunnel.dropin;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The guard's cached {@code isClusterSafe} on a real cluster of members in this JVM: a positive answer is asked once
 * and trusted while nothing changes, and a member joining (its partitions migrate) makes the next check ask again.
 * The guard is given a counting wrapper around the member's real {@code isClusterSafe}, trusted for a minute here so
 * that only a change can explain a new question.
 */
class ClusterViewGuardTest {

    private final List<HazelcastInstance> members = new ArrayList<>();
    private final String cluster = "view-guard-" + System.nanoTime();

    private HazelcastInstance member() {
        Config config = new Config();
        config.setClusterName(cluster);
        config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
        config.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
        config.getNetworkConfig().getJoin().getTcpIpConfig().setEnabled(true).addMember("127.0.0.1:16401").addMember("127.0.0.1:16402").addMember("127.0.0.1:16403");
        config.getNetworkConfig().setPort(16401).setPortAutoIncrement(true);
        HazelcastInstance m = Hazelcast.newHazelcastInstance(config);
        members.add(m);
        return m;
    }

    private static void until(java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() < deadline).as("within 60 s").isTrue();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    @AfterEach
    void stop() {
        members.forEach(HazelcastInstance::shutdown);
    }

    @Test
    void aPositiveAnswerIsAskedOnceAndAskedAgainAfterAMemberJoins() {
        HazelcastInstance a = member();
        member();
        a.getMap("engine_runningJobInfo").put(1L, "x"); // partitions assigned
        AtomicInteger asked = new AtomicInteger();
        try (ClusterViewGuard guard = new ClusterViewGuard(a, "engine_runningJobInfo", 600_000, () -> {
            asked.incrementAndGet();
            return a.getPartitionService().isClusterSafe();
        }, 60_000)) {
            until(() -> guard.holdReason(false) == null);
            int before = asked.get();
            for (int i = 0; i < 1000; i++) {
                assertThat(guard.holdReason(false)).isNull();
            }
            assertThat(asked.get() - before).as("isClusterSafe questions for 1000 checks").isZero();

            member(); // joins: partitions migrate to it
            until(() -> guard.holdReason(false) == null && a.getPartitionService().isClusterSafe());
            assertThat(asked.get() - before).as("questions once a member joined").isPositive();
            int settled = asked.get();
            for (int i = 0; i < 1000; i++) {
                assertThat(guard.holdReason(false)).isNull();
            }
            assertThat(asked.get() - settled).as("questions once the join settled").isLessThanOrEqualTo(1);
        }
    }
}
