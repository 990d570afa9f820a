package io.jobinfo.store.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.config.CacheConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The cache clock's thread lives only while a cache uses it: it starts with the first user and stops when the last
 * one is closed (before, one daemon thread started at class load and never stopped, in every engine member that
 * loaded the class). Tests in this JVM that hold the shared ticker themselves would keep it running; this class checks
 * the count of users it adds, through the thread of the instance it got.
 */
class CoarseTickerTest {

    @Test
    void theClockThreadStopsWhenTheLastCacheIsClosedAndStartsAgainForTheNext() throws Exception {
        JobCache<String> first = new JobCache<>(CacheConfig.defaults(), CacheLookup.MIRRORED);
        JobCache<String> second = new JobCache<>(CacheConfig.defaults(), CacheLookup.MIRRORED);
        CoarseTicker ticker = CoarseTicker.acquire();
        CoarseTicker.release(ticker);
        Thread clock = ticker.thread();
        assertThat(clock.getName()).isEqualTo(CoarseTicker.THREAD_NAME);
        assertThat(clock.isAlive()).isTrue();
        long before = ticker.read();
        Thread.sleep(3 * CoarseTicker.RESOLUTION_MILLIS);
        assertThat(ticker.read()).as("the clock advances").isGreaterThan(before);

        first.close();
        assertThat(clock.isAlive()).as("one cache still uses the clock").isTrue();
        second.close();
        clock.join(Duration.ofSeconds(10).toMillis());
        assertThat(clock.isAlive()).as("the clock thread after the last cache closed").isFalse();

        JobCache<String> third = new JobCache<>(CacheConfig.defaults(), CacheLookup.MIRRORED);
        CoarseTicker again = CoarseTicker.acquire();
        try {
            assertThat(again).isNotSameAs(ticker);
            assertThat(again.thread().isAlive()).isTrue();
        } finally {
            CoarseTicker.release(again);
            third.close();
        }
        again.thread().join(Duration.ofSeconds(10).toMillis());
        assertThat(again.thread().isAlive()).isFalse();
    }

    /** A cache closed twice releases the clock once (before, the second close stopped it under another cache). */
    @Test
    void aCacheClosedTwiceLeavesTheClockRunningForTheOthers() throws Exception {
        JobCache<String> closedTwice = new JobCache<>(CacheConfig.defaults(), CacheLookup.MIRRORED);
        JobCache<String> other = new JobCache<>(CacheConfig.defaults(), CacheLookup.MIRRORED);
        CoarseTicker ticker = CoarseTicker.acquire();
        CoarseTicker.release(ticker);
        Thread clock = ticker.thread();
        closedTwice.close();
        closedTwice.close();
        Thread.sleep(3 * CoarseTicker.RESOLUTION_MILLIS);
        assertThat(clock.isAlive()).as("the clock while another cache still uses it").isTrue();
        other.close();
        clock.join(Duration.ofSeconds(10).toMillis());
        assertThat(clock.isAlive()).isFalse();
    }
}
