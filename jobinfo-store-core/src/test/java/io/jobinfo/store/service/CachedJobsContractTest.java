package io.jobinfo.store.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.lifecycle.InlineJobInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * What every {@link CachedJobs} guarantees (its class comment), on a clock the test moves: it serves an entry only
 * while Caffeine holds it, counts every lookup exactly once, and keeps the byte bound after every put. Each
 * {@link CacheLookup} has a subclass; the mirrored one adds what is particular to its mirror.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
abstract class CachedJobsContractTest {

    static final int PAYLOAD = 1000;
    static final int WEIGHT = CachedJob.weigh(PAYLOAD);

    final ManualTicker clock = new ManualTicker();

    abstract CacheLookup lookup();

    CachedJobs<String> entries(long maxBytes, Duration expireAfterAccess) {
        return CachedJobs.create(lookup(), CacheConfig.of(maxBytes, maxBytes, expireAfterAccess, Duration.ofHours(1)),
                clock);
    }

    static CachedJob<String> job(long jobId, String content) {
        ContentKey key = ContentKey.of(jobId, new InlineJobInfo(7, 1, content.getBytes()));
        return new CachedJob<>(key, 7, "job " + jobId + " " + content, PAYLOAD);
    }

    static void put(CachedJobs<String> entries, CachedJob<String> job) {
        entries.put(job.jobId(), job);
    }

    @Test
    void everyLookupIsCountedOnceAsAHitOrAMissAndCaffeinesOwnLookupsInTheSameCounter() {
        CachedJobs<String> entries = entries(1 << 20, Duration.ofMinutes(30));
        CachedJob<String> a = job(1, "a");
        put(entries, a);
        for (int i = 0; i < 100; i++) {
            assertThat(entries.get(1)).isSameAs(a);
        }
        assertThat(entries.get(2)).isNull();
        assertThat(entries.get(3)).isNull();
        assertThat(entries.stats().hitCount()).isEqualTo(100);
        assertThat(entries.stats().missCount()).isEqualTo(2);
        entries.caffeine().getIfPresent(1L);
        assertThat(entries.stats().hitCount()).isEqualTo(101);
        assertThat(entries.caffeine().stats()).as("what meters read").isEqualTo(entries.stats());
        assertThat(entries.peek(1)).isSameAs(a);
        assertThat(entries.peek(2)).isNull();
        assertThat(entries.stats().requestCount()).as("peek counts nothing").isEqualTo(103);
    }

    @Test
    void anExpiredEntryIsNotServed() {
        CachedJobs<String> entries = entries(1 << 20, Duration.ofSeconds(10));
        put(entries, job(1, "a"));
        clock.advance(Duration.ofSeconds(11));
        assertThat(entries.get(1)).isNull();
        assertThat(entries.stats().missCount()).isEqualTo(1);
        entries.caffeine().cleanUp();
        assertThat(entries.peek(1)).isNull();
    }

    @Test
    void anEntryInUseDoesNotExpireAndOneIdleForTheExpiryDoes() {
        Duration expiry = Duration.ofSeconds(10);
        CachedJobs<String> entries = entries(1 << 20, expiry);
        put(entries, job(1, "a"));
        for (int i = 0; i < 200; i++) {
            clock.advance(Duration.ofMillis(300));
            assertThat(entries.get(1)).as("read %d", i).isNotNull();
        }
        // the mirror lets Caffeine see an access at most once a second: an entry in use may expire that much early
        clock.advance(expiry.minusSeconds(1).minusMillis(1));
        assertThat(entries.get(1)).as("just under expiry minus one second").isNotNull();
        clock.advance(expiry.plusMillis(1));
        assertThat(entries.get(1)).as("idle for the whole expiry").isNull();
    }

    @Test
    void nothingIsServedThatCaffeineConsidersExpiredEvenWithAShortExpiry() {
        CachedJobs<String> entries = entries(1 << 20, Duration.ofSeconds(1));
        put(entries, job(1, "a"));
        for (int step = 0; step < 50; step++) {
            clock.advance(Duration.ofMillis(step % 7 * 100));
            boolean caffeineHasIt = entries.caffeine().policy().expireAfterAccess().orElseThrow()
                    .ageOf(1L, TimeUnit.NANOSECONDS).isPresent();
            CachedJob<String> hit = entries.get(1);
            if (!caffeineHasIt) {
                assertThat(hit).as("step %d: Caffeine had expired it", step).isNull();
                put(entries, job(1, "a"));
            }
        }
    }

    @Test
    void anEntryEvictedBySizeIsNoLongerServedAndTheBoundHoldsAfterEveryPut() {
        long bound = 5L * WEIGHT;
        CachedJobs<String> entries = entries(bound, Duration.ofMinutes(30));
        for (long id = 1; id <= 50; id++) {
            put(entries, job(id, "j" + id));
            assertThat(entries.weightedSize()).isLessThanOrEqualTo(bound + WEIGHT);
            afterEveryChange(entries, 50);
        }
        assertThat(entries.stats().evictionCount()).isGreaterThanOrEqualTo(45);
        assertThat(entries.stats().evictionWeight()).as("weights of evictions are counted")
                .isGreaterThanOrEqualTo(45L * WEIGHT);
        int served = 0;
        for (long id = 1; id <= 50; id++) {
            CachedJob<String> hit = entries.get(id);
            boolean inCaffeine = entries.caffeine().asMap().containsKey(id);
            assertThat(hit != null).as("job %d served iff Caffeine holds it", id).isEqualTo(inCaffeine);
            served += hit != null ? 1 : 0;
        }
        assertThat(served).isBetween(1, 5);
    }

    @Test
    void removeTakesOnlyTheSameInstanceInvalidateAnyAndInvalidateAllEverything() {
        CachedJobs<String> entries = entries(1 << 20, Duration.ofMinutes(30));
        for (long id = 1; id <= 4; id++) {
            put(entries, job(id, "x"));
        }
        CachedJob<String> one = entries.peek(1);
        entries.remove(1, job(1, "x")); // equal content, another instance
        assertThat(entries.get(1)).as("another instance removes nothing").isSameAs(one);
        entries.remove(1, one);
        entries.invalidate(2);
        for (long id = 1; id <= 2; id++) {
            assertThat(entries.get(id)).as("job %d", id).isNull();
            assertThat(entries.caffeine().asMap()).doesNotContainKey(id);
        }
        afterEveryChange(entries, 4);
        assertThat(entries.get(3)).isNotNull();
        entries.invalidateAll();
        assertThat(entries.get(3)).isNull();
        assertThat(entries.get(4)).isNull();
        assertThat(entries.caffeine().asMap()).isEmpty();
        assertThat(entries.weightedSize()).isZero();
        afterEveryChange(entries, 4);
    }

    @Test
    void aReplacedEntryIsServedAsTheNewOne() {
        CachedJobs<String> entries = entries(1 << 20, Duration.ofMinutes(30));
        put(entries, job(1, "a"));
        CachedJob<String> b = job(1, "b");
        put(entries, b);
        assertThat(entries.get(1)).isSameAs(b);
        assertThat(entries.weightedSize()).isEqualTo(WEIGHT);
        afterEveryChange(entries, 1);
    }

    @Test
    void underConcurrentReadersWritersAndEvictionNoWrongJobTheBoundAndExactCounts() throws Exception {
        long bound = 20L * WEIGHT;
        CachedJobs<String> entries = entries(bound, Duration.ofMinutes(30));
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
                            put(entries, job(id, "v" + random.nextInt(3)));
                        } else if (seed < 2 && what < 8) {
                            entries.invalidate(id);
                        } else if (seed < 2 && what == 8 && random.nextInt(50) == 0) {
                            entries.invalidateAll();
                        } else {
                            CachedJob<String> hit = entries.get(id);
                            n++;
                            if (hit != null && hit.jobId() != id) {
                                wrong.incrementAndGet();
                            }
                        }
                        if (entries.weightedSize() > bound + WEIGHT) {
                            wrong.incrementAndGet();
                        }
                        if (seed >= 2 && n % 4096 == 0) {
                            clock.advance(Duration.ofMillis(1)); // now and then a hit the mirror hands to Caffeine
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
        entries.caffeine().cleanUp();
        afterEveryChange(entries, ids);
        assertThat(entries.stats().evictionCount()).isPositive();
        assertThat(entries.stats().requestCount()).as("every lookup counted once").isEqualTo(lookups.get());
    }

    /** Checks of a subclass after each change of {@code entries} (job ids 1 to {@code maxId}); none by default. */
    void afterEveryChange(CachedJobs<String> entries, long maxId) {
    }
}
