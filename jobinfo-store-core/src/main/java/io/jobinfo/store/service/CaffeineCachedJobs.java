package io.jobinfo.store.service;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.CacheWriter;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import com.github.benmanes.caffeine.cache.stats.StatsCounter;
import io.jobinfo.store.config.CacheConfig;
import java.util.function.Supplier;

/**
 * {@link CacheLookup#CAFFEINE}: the job cache's entries in a Caffeine cache, every lookup through Caffeine. The base
 * of {@link MirroredCachedJobs}, which adds a writer and its own stats counter to the same cache.
 *
 * @param <T> the job description type
 */
class CaffeineCachedJobs<T> implements CachedJobs<T> {

    private final Cache<Long, CachedJob<T>> cache;
    private final Object putLock = new Object();

    CaffeineCachedJobs(CacheConfig config, Ticker ticker) {
        this(config, ticker, null, null);
    }

    /**
     * @param stats  Caffeine's stats counter, or {@code null} for its own
     * @param writer told of every write and removal, or {@code null}
     */
    @SuppressWarnings("deprecation") // CacheWriter: see MirroredCachedJobs
    CaffeineCachedJobs(CacheConfig config, Ticker ticker, Supplier<? extends StatsCounter> stats,
            CacheWriter<Long, CachedJob<T>> writer) {
        Caffeine<Long, CachedJob<T>> builder = Caffeine.newBuilder()
                .maximumWeight(config.maxBytes())
                .weigher((Long k, CachedJob<T> v) -> v.weight())
                .expireAfterAccess(config.expireAfterAccess())
                .ticker(ticker); // a hit must not pay for a clock read (see CoarseTicker)
        // Maintenance (read-buffer draining, expiry) runs on Caffeine's default executor, off the read path: with a
        // same-thread executor every 16th hit drained the read buffer on the caller's thread. The bound does not
        // depend on it: every put is followed by a synchronous cleanUp() under putLock.
        builder = stats == null ? builder.recordStats() : builder.recordStats(stats);
        this.cache = writer == null ? builder.build() : builder.writer(writer).build();
    }

    @Override
    public CachedJob<T> get(long jobId) {
        return cache.getIfPresent(jobId);
    }

    @Override
    public CachedJob<T> peek(long jobId) {
        return cache.policy().getIfPresentQuietly(jobId);
    }

    @Override
    public void put(long jobId, CachedJob<T> job) {
        // puts are serialized and followed by a synchronous eviction, so the cache holds at most max-bytes plus
        // the one entry being put
        synchronized (putLock) {
            cache.put(jobId, job);
            cache.cleanUp();
        }
    }

    @Override
    public void remove(long jobId, CachedJob<T> job) {
        cache.asMap().remove(jobId, job);
    }

    @Override
    public void invalidate(long jobId) {
        cache.invalidate(jobId);
    }

    @Override
    public void invalidateAll() {
        cache.invalidateAll();
    }

    @Override
    public CacheStats stats() {
        return cache.stats();
    }

    @Override
    public long weightedSize() {
        return cache.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
    }

    @Override
    public Cache<Long, CachedJob<T>> caffeine() {
        return cache;
    }
}
