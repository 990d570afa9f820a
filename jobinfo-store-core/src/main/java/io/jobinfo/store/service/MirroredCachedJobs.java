package io.jobinfo.store.service;

import com.github.benmanes.caffeine.cache.CacheWriter;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.Ticker;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import com.github.benmanes.caffeine.cache.stats.ConcurrentStatsCounter;
import com.github.benmanes.caffeine.cache.stats.StatsCounter;
import io.jobinfo.store.config.CacheConfig;

/**
 * {@link CacheLookup#MIRRORED}: Caffeine decides what stays cached (the byte bound, expire-after-access) and counts,
 * but a hit need not pass through it. Every entry Caffeine holds is mirrored in a {@link HotMap} keyed by the
 * primitive job id (lock-free reads that allocate nothing), which {@link #get} reads first. The mirror is kept by a
 * {@link CacheWriter}, which Caffeine calls under the entry's own lock for every write and every removal of that key
 * (explicit invalidation, eviction by size, expiry, invalidate-all, replacement), so an entry Caffeine no longer holds
 * has left the mirror in the same atomic step, and the mirror never holds more than Caffeine does.
 *
 * <p>A hit found in the mirror is served from there and counted by a {@link HitCounter} (one cell per thread, no
 * atomic read-modify-write per hit) that Caffeine's statistics include, unless Caffeine last saw an access of that
 * entry {@link #touchInterval()} ago or longer (1 s, or half of expire-after-access if that is shorter): then the read
 * goes through Caffeine, which records the access for its eviction policy and its expiry, and serves the entry only if
 * Caffeine still does. Consequences, all by design:
 * <ul>
 *   <li>an entry unused for {@code expire-after-access} expires as with Caffeine alone, and the mirror never serves an
 *       entry Caffeine has expired: it serves only entries Caffeine saw accessed less than one touch interval ago, and
 *       the touch interval is at most half of expire-after-access;</li>
 *   <li>the last access Caffeine knows of is at most one touch interval older than the real last access, so an entry
 *       in use can expire up to that much earlier than {@code expire-after-access} after its last use (1 s of the
 *       default 30 minutes);</li>
 *   <li>Caffeine's eviction policy sees at most one access per entry and touch interval, so its frequency estimate
 *       counts busy seconds rather than reads;</li>
 *   <li>hit and miss counts are exact: every lookup is counted once, by the mirror or by Caffeine.</li>
 * </ul>
 * {@code CacheWriter} is deprecated in Caffeine 2.9 (and gone in 3.x, which needs Java 11; this jar runs on Java 8
 * engines with 2.9.3): its replacement there, the eviction listener, is not told of explicit removals and
 * replacements. {@link CacheLookup#CAFFEINE} is the path without it.
 *
 * @param <T> the job description type
 */
final class MirroredCachedJobs<T> extends CaffeineCachedJobs<T> {

    /** The longest time a hit may be served without Caffeine seeing an access of its entry. */
    static final long MAX_TOUCH_INTERVAL_NANOS = 1_000_000_000L;

    private final HotMap<T> hot;
    private final HitCounter hotHits;
    private final Ticker ticker;
    private final long touchIntervalNanos;

    static <T> MirroredCachedJobs<T> create(CacheConfig config, Ticker ticker) {
        return new MirroredCachedJobs<>(config, ticker, new HotMap<>(), new HitCounter());
    }

    @SuppressWarnings("deprecation") // CacheWriter: see the class comment
    private MirroredCachedJobs(CacheConfig config, Ticker ticker, HotMap<T> hot, HitCounter hotHits) {
        super(config, ticker, () -> new WithHotHits(hotHits), new HotMapWriter<>(hot, ticker));
        this.hot = hot;
        this.hotHits = hotHits;
        this.ticker = ticker;
        this.touchIntervalNanos = Math.min(MAX_TOUCH_INTERVAL_NANOS, config.expireAfterAccess().toNanos() / 2);
    }

    @Override
    public CachedJob<T> get(long jobId) {
        CachedJob<T> e = hot.get(jobId);
        if (e == null) {
            return super.get(jobId);
        }
        long now = ticker.read();
        if (now - e.touchedAt() < touchIntervalNanos) {
            hotHits.increment();
            return e;
        }
        // let Caffeine see this access (eviction policy, expire-after-access): once per entry and interval
        CachedJob<T> seen = super.get(jobId);
        if (seen != null) {
            seen.touched(now);
        }
        return seen;
    }

    /** How long a hit may be served from the mirror after Caffeine last saw an access of its entry. */
    long touchInterval() {
        return touchIntervalNanos;
    }

    /** The mirror's entry for {@code jobId}, or {@code null} (tests: it must hold exactly what Caffeine holds). */
    CachedJob<T> mirrored(long jobId) {
        return hot.get(jobId);
    }

    /** The number of entries of the mirror (tests). */
    int mirroredSize() {
        return hot.size();
    }

    /** Caffeine's stats counter with the mirror's hits added, so that Caffeine's statistics count every hit. */
    private static final class WithHotHits implements StatsCounter {
        private final ConcurrentStatsCounter counter = new ConcurrentStatsCounter();
        private final HitCounter hotHits;

        WithHotHits(HitCounter hotHits) {
            this.hotHits = hotHits;
        }

        @Override
        public void recordHits(int count) {
            counter.recordHits(count);
        }

        @Override
        public void recordMisses(int count) {
            counter.recordMisses(count);
        }

        @Override
        public void recordLoadSuccess(long loadTime) {
            counter.recordLoadSuccess(loadTime);
        }

        @Override
        public void recordLoadFailure(long loadTime) {
            counter.recordLoadFailure(loadTime);
        }

        @Override
        @SuppressWarnings("deprecation")
        public void recordEviction() {
            counter.recordEviction();
        }

        /** What Caffeine 2.9 calls for every eviction (the other two forms are never called by it). */
        @Override
        public void recordEviction(int weight, RemovalCause cause) {
            counter.recordEviction(weight, cause);
        }

        @Override
        public CacheStats snapshot() {
            CacheStats s = counter.snapshot();
            return new CacheStats(s.hitCount() + hotHits.sum(), s.missCount(), s.loadSuccessCount(),
                    s.loadFailureCount(), s.totalLoadTime(), s.evictionCount(), s.evictionWeight());
        }
    }

    /**
     * Mirrors Caffeine's entries in the hot map. Caffeine calls it under the entry's lock, inside the write or removal
     * it reports, so the hot map changes atomically with Caffeine's view of that key.
     */
    @SuppressWarnings("deprecation")
    private static final class HotMapWriter<T> implements CacheWriter<Long, CachedJob<T>> {
        private final HotMap<T> hot;
        private final Ticker ticker;

        HotMapWriter(HotMap<T> hot, Ticker ticker) {
            this.hot = hot;
            this.ticker = ticker;
        }

        @Override
        public void write(Long jobId, CachedJob<T> job) {
            job.touched(ticker.read()); // Caffeine stamps the write as an access
            if (job.jobId() == jobId) {
                hot.put(job);
            } else {
                hot.remove(jobId); // cannot happen (every entry is keyed by its own id); then Caffeine serves it
            }
        }

        @Override
        public void delete(Long jobId, CachedJob<T> job, RemovalCause cause) {
            if (job != null) {
                hot.remove(jobId, job);
            } else {
                hot.remove(jobId); // a collected value (not used here: values are strong)
            }
        }
    }
}
