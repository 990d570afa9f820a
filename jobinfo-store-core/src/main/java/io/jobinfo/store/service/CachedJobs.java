package io.jobinfo.store.service;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Ticker;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import io.jobinfo.store.config.CacheConfig;

/**
 * The entries of a member's job cache and the way a lookup finds one: a Caffeine cache bounded by weight (payload
 * bytes, {@code max-bytes}) with expire-after-access, plus, in the {@link CacheLookup#MIRRORED} implementation, a
 * faster hit path in front of it. What an entry may be served for (content-key validity, staleness, invalidation
 * tokens, single-flight loads) is {@link JobCache}'s business, not this one's: here an entry is served if it is held.
 *
 * <p>Guarantees of every implementation, checked by {@code CachedJobsContractTest} on each:
 * <ul>
 *   <li>{@link #get} serves an entry only while Caffeine holds it (not after its eviction by size, its expiry, its
 *       invalidation, or its replacement by another entry of the same job id), and counts every lookup exactly once,
 *       as a hit or a miss, in {@link #stats()} and in the Caffeine cache's own statistics that meters read;</li>
 *   <li>after every {@link #put}, the entries weigh at most {@code max-bytes} plus the one entry just put (the
 *       eviction runs synchronously, under a lock that serializes puts);</li>
 *   <li>no method fails (they throw nothing for any job id), and every method is thread-safe.</li>
 * </ul>
 *
 * @param <T> the job description type
 */
interface CachedJobs<T> {

    /** The entries of {@code lookup}'s kind, bounded and expiring by {@code config}, timed by {@code ticker}. */
    static <T> CachedJobs<T> create(CacheLookup lookup, CacheConfig config, Ticker ticker) {
        switch (lookup) {
            case MIRRORED:
                return MirroredCachedJobs.create(config, ticker);
            case CAFFEINE:
                return new CaffeineCachedJobs<>(config, ticker);
            default:
                throw new IllegalArgumentException("no cache lookup " + lookup);
        }
    }

    /** The held entry of {@code jobId}, or {@code null}; counted as a hit or a miss. */
    CachedJob<T> get(long jobId);

    /** The held entry of {@code jobId}, or {@code null}, without counting the lookup or recording an access. */
    CachedJob<T> peek(long jobId);

    /** Makes {@code job} the entry of {@code jobId} (replacing any other), then evicts down to the bound. */
    void put(long jobId, CachedJob<T> job);

    /** Removes the entry of {@code jobId} if it is {@code job} (the same instance); else changes nothing. */
    void remove(long jobId, CachedJob<T> job);

    /** Removes the entry of {@code jobId}, whatever it is. */
    void invalidate(long jobId);

    /** Removes every entry. */
    void invalidateAll();

    /** Hits, misses, loads and evictions so far; every lookup of {@link #get} included. */
    CacheStats stats();

    /** What the held entries weigh (payload bytes plus a fixed allowance each). */
    long weightedSize();

    /** The Caffeine cache beneath: for its meters ({@code CaffeineCacheMetrics}) and tests; its statistics are {@link #stats()}. */
    Cache<Long, CachedJob<T>> caffeine();
}
