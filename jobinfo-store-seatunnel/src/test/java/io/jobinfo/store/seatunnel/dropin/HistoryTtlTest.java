package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Hazelcast 5.1 (SeaTunnel 2.3.8's) does to an entry's TTL when its value is replaced, the fact the history mover
 * is built on (SeaTunnel puts each history value with {@code history-job-expire-minutes} as its TTL, and the mover
 * swaps it for a reference by compare-and-set). Measured here: {@code replace(k, old, new)} DROPS the entry's TTL
 * (the entry then never expires: expiration time {@code Long.MAX_VALUE}), and {@code setTtl(k, remaining)} right
 * after it gives the entry back the expiration time SeaTunnel's put gave it (to the millisecond, give or take the
 * time between the two calls), which is what {@link HistoryMover} does.
 */
class HistoryTtlTest {

    static HazelcastInstance hz;

    @BeforeAll
    static void start() {
        Config config = new Config();
        config.setClusterName("history-ttl-" + System.nanoTime());
        config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
        config.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
        config.getNetworkConfig().setPort(16301).setPortAutoIncrement(true);
        hz = Hazelcast.newHazelcastInstance(config);
    }

    @AfterAll
    static void stop() {
        hz.shutdown();
    }

    @Test
    void replaceDropsTheTtlAndSetTtlWithTheRemainingTimeRestoresTheExpiration() throws InterruptedException {
        IMap<Long, String> map = hz.getMap("ttl-replace");
        map.put(1L, "full value", 3, TimeUnit.SECONDS);
        long expires = map.getEntryView(1L).getExpirationTime();
        assertThat(map.getEntryView(1L).getTtl()).isEqualTo(3000);
        Thread.sleep(500);
        assertThat(map.replace(1L, "full value", "reference")).isTrue();
        assertThat(map.getEntryView(1L).getExpirationTime()).as("the expiration after replace")
                .isEqualTo(Long.MAX_VALUE);
        long before = System.currentTimeMillis();
        map.setTtl(1L, expires - before, TimeUnit.MILLISECONDS);
        long after = System.currentTimeMillis();
        assertThat(map.getEntryView(1L).getExpirationTime()).isBetween(expires - 1, expires + (after - before) + 1);
        long deadline = System.currentTimeMillis() + 10_000;
        while (map.containsKey(1L) && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertThat(map.containsKey(1L)).as("the replaced entry expired").isFalse();
    }

    @Test
    void anEntryPutWithoutTtlThenWithOneGetsTheTtlAndReplaceDropsIt() {
        // SeaTunnel's metrics: computeIfAbsent (no TTL), then put(id, merged, expire, MINUTES)
        IMap<Long, String> map = hz.getMap("ttl-compute");
        map.computeIfAbsent(2L, k -> "empty");
        assertThat(map.getEntryView(2L).getExpirationTime()).isEqualTo(Long.MAX_VALUE);
        map.put(2L, "merged", 60, TimeUnit.SECONDS);
        long expires = map.getEntryView(2L).getExpirationTime();
        assertThat(expires).isLessThan(Long.MAX_VALUE);
        assertThat(map.getEntryView(2L).getTtl()).isEqualTo(60_000);
        assertThat(map.replace(2L, "merged", "reference")).isTrue();
        assertThat(map.getEntryView(2L).getExpirationTime()).isEqualTo(Long.MAX_VALUE);
    }
}
