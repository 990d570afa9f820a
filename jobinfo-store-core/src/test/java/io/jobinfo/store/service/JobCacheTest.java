package io.jobinfo.store.service;

import io.jobinfo.store.lifecycle.InlineJobInfo;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.benmanes.caffeine.cache.Ticker;
import io.jobinfo.store.config.CacheConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The job cache's hit path (its hot map in front of Caffeine) on a clock the test moves: what it serves, what it
 * counts, and that it never holds or serves what Caffeine has dropped (evicted, expired, invalidated).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class JobCacheTest {

    private static final int PAYLOAD = 1000;
    private static final int WEIGHT = CachedJob.weigh(PAYLOAD);

    /** A clock that moves only when the test says so. */
    static final class ManualTicker implements Ticker {
        private final AtomicLong now = new AtomicLong(1_000_000_000L);

        @Override
        public long read() {
            return now.get();
        }

        void advance(Duration d) {
            now.addAndGet(d.toNanos());
        }
    }

    private final ManualTicker clock = new ManualTicker();

    private JobCache<String> cache(long maxBytes, Duration expireAfterAccess) {
        return new JobCache<>(CacheConfig.of(maxBytes, maxBytes, expireAfterAccess, Duration.ofHours(1)), clock);
    }

    private static CachedJob<String> job(long jobId, String content) {
        ContentKey key = ContentKey.of(jobId, new InlineJobInfo(7, 1, content.getBytes()));
        return new CachedJob<>(key, 7, "job " + jobId + " " + content, PAYLOAD);
    }

    private void put(JobCache<String> cache, CachedJob<String> job) {
        cache.putSubmitted(job.jobId(), job, PAYLOAD, clock.read());
    }

    @Test
    void hitsAreServedFromTheHotMapAndCountedLikeCaffeinesOwn() {
        JobCache<String> cache = cache(1 << 20, Duration.ofMinutes(30));
        CachedJob<String> a = job(1, "a");
        put(cache, a);
        assertThat(cache.hotContains(1)).isTrue();
        for (int i = 0; i < 100; i++) {
            assertThat(cache.getIfPresent(1)).isSameAs(a);
        }
        assertThat(cache.getIfPresent(2)).isNull();
        assertThat(cache.getIfPresent(3)).isNull();
        assertThat(cache.stats().hitCount()).isEqualTo(100);
        assertThat(cache.stats().missCount()).isEqualTo(2);
        // and Caffeine's own lookups land in the same counter
        cache.caffeine().getIfPresent(1L);
        assertThat(cache.stats().hitCount()).isEqualTo(101);
        assertThat(a.present()).containsSame(a.job()).isSameAs(a.present());
    }

    @Test
    void aHitAfterTheTouchIntervalGoesThroughCaffeineWhichRecordsTheAccess() {
        JobCache<String> cache = cache(1 << 20, Duration.ofMinutes(30));
        assertThat(cache.touchInterval()).isEqualTo(TimeUnit.SECONDS.toNanos(1));
        CachedJob<String> a = job(1, "a");
        put(cache, a);
        clock.advance(Duration.ofMillis(900));
        cache.getIfPresent(1); // within the interval: Caffeine does not see it
        assertThat(age(cache, 1)).isEqualTo(Duration.ofMillis(900));
        clock.advance(Duration.ofMillis(200));
        cache.getIfPresent(1); // 1.1 s since Caffeine's last access: recorded
        assertThat(age(cache, 1)).isZero();
        assertThat(a.touchedAt()).isEqualTo(clock.read());
        assertThat(cache.stats().hitCount()).as("counted once each, not twice").isEqualTo(2);
    }

    private static Duration age(JobCache<String> cache, long jobId) {
        return Duration.ofNanos(cache.caffeine().policy().expireAfterAccess().orElseThrow()
                .ageOf(jobId, TimeUnit.NANOSECONDS).orElseThrow());
    }

    @Test
    void anExpiredEntryIsNotServedAndLeavesTheHotMap() {
        JobCache<String> cache = cache(1 << 20, Duration.ofSeconds(10));
        put(cache, job(1, "a"));
        clock.advance(Duration.ofSeconds(11));
        assertThat(cache.getIfPresent(1)).isNull();
        assertThat(cache.stats().missCount()).isEqualTo(1);
        cache.caffeine().cleanUp(); // Caffeine's maintenance: removes the expired entry, the writer the mirror
        assertThat(cache.hotContains(1)).isFalse();
        assertThat(cache.hotSize()).isZero();
    }

    @Test
    void anEntryInUseDoesNotExpireAndOneIdleForTheExpiryDoesEvenIfItsLastHitsBypassedCaffeine() {
        Duration expiry = Duration.ofSeconds(10);
        JobCache<String> cache = cache(1 << 20, expiry);
        put(cache, job(1, "a"));
        // read every 300 ms for a minute: Caffeine sees every ~4th read, and the entry stays
        for (int i = 0; i < 200; i++) {
            clock.advance(Duration.ofMillis(300));
            assertThat(cache.getIfPresent(1)).as("read %d", i).isNotNull();
        }
        // the last read that reached Caffeine was at most one touch interval before the last read; the entry
        // expires at most that much early, never late
        clock.advance(expiry.minusNanos(cache.touchInterval()).minusMillis(1));
        assertThat(cache.getIfPresent(1)).as("just under expiry minus one touch interval").isNotNull();
        clock.advance(expiry.plusMillis(1));
        assertThat(cache.getIfPresent(1)).as("idle for the whole expiry").isNull();
    }

    @Test
    void theHotMapNeverServesWhatCaffeineConsidersExpiredEvenWithAShortExpiry() {
        // expiry 1 s: the touch interval is half of it, so a hit the hot map serves was seen by Caffeine < 0.5 s ago
        JobCache<String> cache = cache(1 << 20, Duration.ofSeconds(1));
        assertThat(cache.touchInterval()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(500));
        put(cache, job(1, "a"));
        for (int step = 0; step < 50; step++) {
            clock.advance(Duration.ofMillis(step % 7 * 100));
            boolean caffeineHasIt = cache.caffeine().policy().expireAfterAccess().orElseThrow()
                    .ageOf(1L, TimeUnit.NANOSECONDS).isPresent();
            CachedJob<String> hit = cache.getIfPresent(1);
            if (!caffeineHasIt) {
                assertThat(hit).as("step %d: Caffeine had expired it", step).isNull();
                put(cache, job(1, "a"));
            }
        }
    }

    @Test
    void anEntryEvictedBySizeIsNoLongerServedAndTheBoundHolds() {
        long bound = 5L * WEIGHT;
        JobCache<String> cache = cache(bound, Duration.ofMinutes(30));
        for (long id = 1; id <= 50; id++) {
            put(cache, job(id, "j" + id));
            assertThat(cache.weightedSize()).isLessThanOrEqualTo(bound + WEIGHT);
            assertSameEntries(cache, 50);
        }
        assertThat(cache.stats().evictionCount()).isGreaterThanOrEqualTo(45);
        int served = 0;
        for (long id = 1; id <= 50; id++) {
            CachedJob<String> hit = cache.getIfPresent(id);
            boolean inCaffeine = cache.caffeine().asMap().containsKey(id);
            assertThat(hit != null).as("job %d served iff Caffeine holds it", id).isEqualTo(inCaffeine);
            served += hit != null ? 1 : 0;
        }
        assertThat(served).isBetween(1, 5);
    }

    @Test
    void invalidationRemovesAJobFromCaffeineAndTheHotMap() {
        JobCache<String> cache = cache(1 << 20, Duration.ofMinutes(30));
        for (long id = 1; id <= 4; id++) {
            put(cache, job(id, "x"));
        }
        cache.invalidate(1);
        cache.changed(2); // what the map listener calls for an update, removal, eviction or expiry event
        cache.added(3); // an add event not of this member's submit
        for (long id = 1; id <= 3; id++) {
            assertThat(cache.getIfPresent(id)).as("job %d", id).isNull();
            assertThat(cache.hotContains(id)).isFalse();
            assertThat(cache.caffeine().asMap()).doesNotContainKey(id);
        }
        assertThat(cache.getIfPresent(4)).isNotNull();
        cache.invalidateAll();
        assertThat(cache.getIfPresent(4)).isNull();
        assertThat(cache.hotSize()).isZero();
        assertThat(cache.caffeine().asMap()).isEmpty();
    }

    @Test
    void aRevalidationThatFindsOtherContentDropsTheEntryFromBoth() {
        JobCache<String> cache = cache(1 << 20, Duration.ofMinutes(30));
        CachedJob<String> a = job(1, "a");
        put(cache, a);
        assertThat(cache.revalidate(1, a, a.key(), clock.read())).isSameAs(a);
        assertThat(cache.hotContains(1)).isTrue();
        assertThat(cache.revalidate(1, a, job(1, "b").key(), clock.read())).isNull();
        assertThat(cache.hotContains(1)).isFalse();
        assertThat(cache.getIfPresent(1)).isNull();
    }

    @Test
    void aReplacedEntryIsReplacedInTheHotMapToo() {
        JobCache<String> cache = cache(1 << 20, Duration.ofMinutes(30));
        put(cache, job(1, "a"));
        CachedJob<String> b = job(1, "b");
        put(cache, b);
        assertThat(cache.getIfPresent(1)).isSameAs(b);
        assertThat(cache.hotSize()).isEqualTo(1);
    }

    @Test
    void freshnessIsCheckedOnEveryHitWhereverItWasFound() {
        JobCache<String> cache = new JobCache<>(CacheConfig.of(1 << 20, 1 << 20, Duration.ofMinutes(30),
                Duration.ofSeconds(5)), clock);
        CachedJob<String> a = job(1, "a");
        put(cache, a);
        assertThat(cache.isFresh(cache.getIfPresent(1))).isTrue();
        clock.advance(Duration.ofMillis(5100));
        assertThat(cache.isFresh(cache.getIfPresent(1))).as("confirmed 5.1 s ago, bound 5 s").isFalse();
    }

    @Test
    void theOneClockReadHitServesOnlyFreshRecentlyTouchedEntriesAndCountsEachLookupOnce() {
        JobCache<String> cache = new JobCache<>(CacheConfig.of(1 << 20, 1 << 20, Duration.ofMinutes(30),
                Duration.ofSeconds(5)), clock);
        CachedJob<String> a = job(1, "a");
        put(cache, a);
        assertThat(cache.freshHotHit(1)).isSameAs(a);
        assertThat(cache.freshHotHit(2)).as("not cached").isNull();
        assertThat(cache.stats().hitCount()).isEqualTo(1);
        assertThat(cache.stats().missCount()).as("a null leaves the counting to getIfPresent").isZero();

        clock.advance(Duration.ofMillis(1100)); // past the touch interval, still fresh
        assertThat(cache.freshHotHit(1)).as("Caffeine must see this access first").isNull();
        assertThat(cache.stats().hitCount()).isEqualTo(1);
        assertThat(cache.getIfPresent(1)).isSameAs(a);
        assertThat(a.touchedAt()).isEqualTo(clock.read());
        assertThat(cache.freshHotHit(1)).isSameAs(a);
        assertThat(cache.stats().hitCount()).isEqualTo(3);

        clock.advance(Duration.ofMillis(4000)); // confirmed 5.1 s ago, bound 5 s; touched 4 s ago
        cache.getIfPresent(1); // touched again
        assertThat(cache.freshHotHit(1)).as("stale: the caller must revalidate").isNull();
        JobCache<String> alwaysConfirm = new JobCache<>(CacheConfig.of(1 << 20, 1 << 20, Duration.ofMinutes(30),
                Duration.ZERO), clock);
        put(alwaysConfirm, a);
        assertThat(alwaysConfirm.freshHotHit(1)).as("max-staleness 0 confirms every read").isNull();
        assertThat(alwaysConfirm.stats().hitCount()).isZero();
    }

    @Test
    void underConcurrentReadersWritersAndEvictionTheHotMapHoldsExactlyWhatCaffeineHolds() throws Exception {
        long bound = 20L * WEIGHT;
        JobCache<String> cache = new JobCache<>(CacheConfig.of(bound, bound, Duration.ofMinutes(30),
                Duration.ofHours(1))); // the shared cache clock, released by close() below
        int ids = 200;
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong lookups = new AtomicLong();
        AtomicLong wrong = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        List<Future<?>> fs = new ArrayList<>();
        try {
            for (int t = 0; t < 6; t++) {
                int seed = t;
                fs.add(pool.submit(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    long n = 0;
                    while (!stop.get()) {
                        long id = 1 + random.nextInt(ids);
                        int what = random.nextInt(10);
                        if (seed < 2 && what < 6) {
                            cache.putSubmitted(id, job(id, "v" + random.nextInt(3)), PAYLOAD, cache.now());
                        } else if (seed < 2 && what < 8) {
                            cache.invalidate(id);
                        } else if (seed < 2 && what == 8 && random.nextInt(50) == 0) {
                            cache.invalidateAll();
                        } else {
                            CachedJob<String> hit = cache.getIfPresent(id);
                            n++;
                            if (hit != null && hit.jobId() != id) {
                                wrong.incrementAndGet();
                            }
                        }
                        if (cache.weightedSize() > bound + WEIGHT) {
                            wrong.incrementAndGet();
                        }
                    }
                    lookups.addAndGet(n);
                    return null;
                }));
            }
            Thread.sleep(3000);
        } finally {
            stop.set(true);
            for (Future<?> f : fs) {
                f.get(1, TimeUnit.MINUTES);
            }
            pool.shutdownNow();
        }
        assertThat(wrong.get()).as("hits of another job or weight above bound + one entry").isZero();
        cache.caffeine().cleanUp();
        assertSameEntries(cache, ids);
        assertThat(cache.stats().evictionCount()).isPositive();
        assertThat(cache.stats().requestCount()).as("every lookup counted once").isEqualTo(lookups.get());
        cache.close();
    }

    /** The hot map holds exactly Caffeine's entries (the same instances). */
    private static void assertSameEntries(JobCache<String> cache, long maxId) {
        Set<Long> inCaffeine = new HashSet<>(cache.caffeine().asMap().keySet());
        Set<Long> inHot = new HashSet<>();
        for (long id = 1; id <= maxId; id++) {
            if (cache.hotContains(id)) {
                inHot.add(id);
            }
        }
        assertThat(inHot).isEqualTo(inCaffeine);
        assertThat(cache.hotSize()).isEqualTo(inCaffeine.size());
        for (long id : inCaffeine) {
            assertThat(cache.hotEntry(id)).isSameAs(cache.caffeine().asMap().get(id));
        }
    }
}
