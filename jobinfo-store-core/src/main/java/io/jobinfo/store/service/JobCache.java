package io.jobinfo.store.service;

import io.jobinfo.store.lifecycle.JobInfoPointer;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.CacheWriter;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.Ticker;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import com.github.benmanes.caffeine.cache.stats.ConcurrentStatsCounter;
import com.github.benmanes.caffeine.cache.stats.StatsCounter;
import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.spi.JobInfoStoreException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * This member's cache of verified, decoded jobs: a Caffeine cache bounded by payload bytes, with single-flight loads
 * and invalidation tokens that tell a load whether its job was invalidated while it ran (then its result is served
 * but not cached).
 *
 * <p><b>Hit path.</b> Caffeine decides what stays cached (the byte bound, expire-after-access) and counts hits and
 * misses; a hit need not pass through it. Every entry Caffeine holds is mirrored in a {@link HotMap} keyed by the
 * primitive job id (the <em>hot map</em>: lock-free reads that allocate nothing), which {@link #getIfPresent} reads
 * first. The mirror is kept by a {@link CacheWriter}, which Caffeine calls under the entry's own lock for every
 * write and every removal of that key (explicit invalidation, eviction by size, expiry, {@link #invalidateAll()},
 * replacement). So an entry Caffeine no longer holds has left the hot map in the same atomic step, and the hot map
 * never holds more than Caffeine does: the byte bound (at most {@code max-bytes} plus the one entry being inserted)
 * holds for both. A hit found in the hot map is served from there, counted in the cache's statistics (a
 * {@link HitCounter}: one cell per thread, no atomic read-modify-write per hit), and not shown to Caffeine, unless
 * Caffeine last saw an access of that entry {@link #touchInterval()} ago or longer (1 s, or half of
 * expire-after-access if that is shorter): then the read goes through Caffeine, which records the access for its
 * eviction policy and its expiry, and serves the entry only if Caffeine still does. Consequences, all by design:
 * <ul>
 *   <li>an entry unused for {@code expire-after-access} expires as before, and the hot map never serves an entry
 *       Caffeine has expired: it serves only entries Caffeine saw accessed less than one touch interval ago, and
 *       the touch interval is at most half of expire-after-access;</li>
 *   <li>the last access Caffeine knows of is at most one touch interval older than the real last access, so an entry
 *       in use can expire up to that much earlier than {@code expire-after-access} after its last use (1 s of the
 *       default 30 minutes);</li>
 *   <li>Caffeine's eviction policy sees at most one access per entry and touch interval, so its frequency estimate
 *       counts busy seconds rather than reads;</li>
 *   <li>hit and miss counts ({@link #stats()}) are exact: every lookup is counted once, by the hot map or by
 *       Caffeine.</li>
 * </ul>
 *
 * <p><b>Bounded staleness.</b> Each entry remembers the {@link ContentKey} of the map value it was loaded from and
 * when the map was last seen holding that value (a time taken <em>before</em> the map read). A hit is served
 * without asking the map only while that time is at most {@code max-staleness} old ({@link #isFresh}); after that the
 * caller reads the map value again (a small pointer) and {@link #revalidate}s: same content key, the entry is served
 * and confirmed; another key or no value, the entry is dropped (from Caffeine and so from the hot map). So a job
 * removed or replaced in the map is served by this cache at most {@code max-staleness} plus
 * {@value CoarseTicker#RESOLUTION_MILLIS} ms (the resolution of the cache's clock) after the change, whether or not
 * the map's event ever arrives (lost events, a member joining or leaving, a healed split-brain). {@code max-staleness}
 * of zero confirms every read with the map. The hot map changes nothing here: it serves only entries Caffeine holds,
 * and freshness is checked on every hit, wherever it was found.
 *
 * <p><b>Single flight</b> holds for every size: concurrent loads of one content key (job id and map value) share one
 * store read, also for jobs above {@code max-entry-bytes}, which are then served but not cached. Readers that saw
 * different map values load separately, so none is handed a job older than the value it read.
 *
 * <p>Failures: a failed load is not cached; every reader waiting on it gets the same exception.
 *
 * @param <T> the job description type
 */
final class JobCache<T> {

    private static final int INVALIDATION_STRIPES = 1024;
    /** The longest time a hit may be served without Caffeine seeing an access of its entry. */
    static final long MAX_TOUCH_INTERVAL_NANOS = 1_000_000_000L;

    /** Loads one job on a miss. */
    interface Loader<T> {
        CachedJob<T> load() throws JobInfoStoreException;
    }

    private final Cache<Long, CachedJob<T>> cache;
    /** Every entry {@link #cache} holds, mirrored by {@link HotMapWriter}; read first by {@link #getIfPresent}. */
    private final HotMap<T> hot = new HotMap<>();
    /** Caffeine's statistics; {@link #stats()} adds the hot map's hits, counted in {@link #hotHits}. */
    private final ConcurrentStatsCounter statsCounter = new ConcurrentStatsCounter();
    private final HitCounter hotHits = new HitCounter();
    private final long touchIntervalNanos;
    private final CacheConfig config;
    /** Bumped by {@link #invalidateAll()}; with the stripes, tells a load whether its job was invalidated meanwhile. */
    private final AtomicLong generation = new AtomicLong();
    private final AtomicLongArray invalidationStripes = new AtomicLongArray(INVALIDATION_STRIPES);
    /** Jobs this registry's own submit just added: their add event must not evict what the submit cached. */
    private final ConcurrentHashMap<Long, JobInfoPointer> ownAdds = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<ContentKey, CompletableFuture<CachedJob<T>>> inFlight = new ConcurrentHashMap<>();
    private final Object insertLock = new Object();
    private final long maxStalenessNanos;
    private final Ticker ticker;

    /** With the shared {@link CoarseTicker}, released by {@link #close()}. */
    JobCache(CacheConfig config) {
        this(config, CoarseTicker.acquire());
    }

    /** With another clock than {@link CoarseTicker} (tests). */
    @SuppressWarnings("deprecation") // CacheWriter: see HotMapWriter
    JobCache(CacheConfig config, Ticker ticker) {
        this.config = config;
        this.ticker = ticker;
        this.maxStalenessNanos = config.maxStaleness().toNanos();
        this.touchIntervalNanos = Math.min(MAX_TOUCH_INTERVAL_NANOS, config.expireAfterAccess().toNanos() / 2);
        this.cache = Caffeine.newBuilder()
                .maximumWeight(config.maxBytes())
                .weigher((Long k, CachedJob<T> v) -> v.weight())
                .expireAfterAccess(config.expireAfterAccess())
                .ticker(ticker) // a hit must not pay for a clock read (see CoarseTicker)
                // Maintenance (read-buffer draining, expiry) runs on Caffeine's default executor, off the read path:
                // with a same-thread executor every 16th hit drained the read buffer on the caller's thread, which
                // made a hit ~20x slower than a ConcurrentHashMap.get. The bound does not depend on it: every insert
                // below is followed by a synchronous cleanUp() under insertLock.
                .recordStats(() -> new WithHotHits())
                .writer(new HotMapWriter())
                .build();
    }

    Cache<Long, CachedJob<T>> caffeine() {
        return cache;
    }

    /** How long a hit may be served from the hot map after Caffeine last saw an access of its entry. */
    long touchInterval() {
        return touchIntervalNanos;
    }

    /** The entries of the hot map (tests: it must never hold what Caffeine does not). */
    int hotSize() {
        return hot.size();
    }

    /**
     * Whether the cache holds an entry for {@code jobId}, current or not; counts nothing (no hit, no miss, no access).
     * Never fails.
     */
    boolean holds(long jobId) {
        return cache.asMap().containsKey(jobId);
    }

    /** Whether the hot map holds an entry for {@code jobId} (tests). */
    boolean hotContains(long jobId) {
        return hot.get(jobId) != null;
    }

    /** The hot map's entry for {@code jobId} (tests). */
    CachedJob<T> hotEntry(long jobId) {
        return hot.get(jobId);
    }

    /**
     * The common hit, at the cost of one clock read: the hot map's entry of {@code jobId} if it may be served as it
     * is, that is, Caffeine saw an access of it less than {@link #touchInterval()} ago and it is fresh
     * ({@link #isFresh}); counted as a hit. Otherwise {@code null} and nothing is counted: the caller goes on with
     * {@link #getIfPresent}, which counts the lookup. Never fails.
     */
    CachedJob<T> freshHotHit(long jobId) {
        CachedJob<T> e = hot.get(jobId);
        if (e == null) {
            return null;
        }
        long now = ticker.read();
        if (now - e.touchedAt() < touchIntervalNanos && maxStalenessNanos > 0
                && now - e.confirmedAt() <= maxStalenessNanos) {
            hotHits.increment();
            return e;
        }
        return null;
    }

    /**
     * The cached entry of {@code jobId}, or {@code null}; counted as a hit or a miss. Served from the hot map while
     * Caffeine saw an access of the entry less than {@link #touchInterval()} ago, else through Caffeine (see the
     * class comment). Never fails.
     */
    CachedJob<T> getIfPresent(long jobId) {
        CachedJob<T> e = hot.get(jobId);
        if (e != null) {
            long now = ticker.read();
            if (now - e.touchedAt() < touchIntervalNanos) {
                hotHits.increment();
                return e;
            }
            // let Caffeine see this access (eviction policy, expire-after-access): once per entry and interval
            CachedJob<T> seen = cache.getIfPresent(jobId);
            if (seen != null) {
                seen.touched(now);
            }
            return seen;
        }
        return cache.getIfPresent(jobId);
    }

    /** The cache's clock: take it before the map read whose value a load or a revalidation uses. */
    long now() {
        return ticker.read();
    }

    /** Whether {@code hit} may be served without asking the map (confirmed at most max-staleness ago). */
    boolean isFresh(CachedJob<T> hit) {
        return maxStalenessNanos > 0 && ticker.read() - hit.confirmedAt() <= maxStalenessNanos;
    }

    /**
     * A hit that was no longer fresh, checked against {@code current}, the key of the map value read at
     * {@code readAt} ({@code null}: no value): returns the hit, confirmed, if the map still holds its content; else
     * drops it and returns {@code null}.
     */
    CachedJob<T> revalidate(long jobId, CachedJob<T> hit, ContentKey current, long readAt) {
        if (hit.key().equals(current)) {
            hit.confirm(readAt);
            return hit;
        }
        cache.asMap().remove(jobId, hit);
        return null;
    }

    /** Changes whenever {@code jobId} (or everything) is invalidated; both parts only grow. */
    long token(long jobId) {
        return generation.get() + invalidationStripes.get(stripe(jobId));
    }

    /** The tokens of every job at once, for a load of many jobs from one map snapshot. */
    Tokens tokens() {
        long[] stripes = new long[INVALIDATION_STRIPES];
        long gen = generation.get();
        for (int i = 0; i < INVALIDATION_STRIPES; i++) {
            stripes[i] = invalidationStripes.get(i);
        }
        return jobId -> gen + stripes[stripe(jobId)];
    }

    /** Tokens taken at one moment; see {@link #tokens()}. */
    interface Tokens {
        long token(long jobId);
    }

    /**
     * The job the map value with content key {@code key} describes, loaded once however many threads ask for that key
     * at the same time. Cached if it fits ({@code payloadLength <= max-entry-bytes}) and no invalidation of
     * {@code jobId} happened since {@code tokenBeforeMapRead} was taken; confirmed as of {@code readAt}. Both were
     * taken before the map value was read. A {@code null} key (a value of no known kind) is handed to the loader
     * alone, which reports it.
     */
    CachedJob<T> load(long jobId, ContentKey key, long payloadLength, long tokenBeforeMapRead, long readAt,
                      Loader<T> loader) throws JobInfoStoreException {
        if (key == null) {
            return loader.load();
        }
        CompletableFuture<CachedJob<T>> mine = new CompletableFuture<>();
        CompletableFuture<CachedJob<T>> running = inFlight.putIfAbsent(key, mine);
        if (running != null) {
            return await(running);
        }
        try {
            CachedJob<T> loaded = cache.asMap().get(jobId);
            if (loaded != null && loaded.key().equals(key)) {
                loaded.confirm(readAt); // loaded by another thread just before
            } else {
                loaded = loader.load();
                loaded.confirm(readAt);
                // Skip caching if an invalidation raced this load: what we read from the map may already be stale.
                if (payloadLength <= config.maxEntryBytes() && token(jobId) == tokenBeforeMapRead) {
                    insert(jobId, loaded);
                }
            }
            mine.complete(loaded);
            return loaded;
        } catch (JobInfoStoreException | RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            inFlight.remove(key, mine);
        }
    }

    /**
     * Caches what this member's own submit just registered (if it fits), confirmed as of {@code readAt}, a time
     * taken before the pointer was written.
     */
    void putSubmitted(long jobId, CachedJob<T> job, long payloadLength, long readAt) {
        job.confirm(readAt);
        if (payloadLength <= config.maxEntryBytes()) {
            insert(jobId, job);
        }
    }

    private void insert(long jobId, CachedJob<T> job) {
        // Inserts are serialized and followed by a synchronous eviction, so the cache holds at most max-bytes plus
        // the one entry being inserted.
        synchronized (insertLock) {
            cache.put(jobId, job);
            cache.cleanUp();
        }
    }

    /** The add event of this pointer will be this member's own: keep what the submit caches. */
    void expectOwnAdd(long jobId, JobInfoPointer pointer) {
        ownAdds.put(jobId, pointer);
    }

    /** Whether the add event of this member's own submit of {@code jobId} has not arrived yet (tests). */
    boolean ownAddPending(long jobId) {
        return ownAdds.containsKey(jobId);
    }

    /** The expected add did not happen (the put failed or found a value). */
    void ownAddDidNotHappen(long jobId, JobInfoPointer pointer) {
        ownAdds.remove(jobId, pointer);
    }

    /** An add event for {@code jobId}: invalidates unless it is this member's own submit. */
    void added(long jobId) {
        // Events of one key arrive in order, and every other event of the key clears the mark first, so an add from
        // elsewhere (the id re-used after a removal) still invalidates.
        if (ownAdds.remove(jobId) == null) {
            invalidate(jobId);
        }
    }

    /** An update, removal, eviction or expiry event for {@code jobId}. */
    void changed(long jobId) {
        ownAdds.remove(jobId);
        invalidate(jobId);
    }

    void invalidate(long jobId) {
        invalidationStripes.incrementAndGet(stripe(jobId));
        cache.invalidate(jobId);
    }

    void invalidateAll() {
        generation.incrementAndGet();
        ownAdds.clear();
        cache.invalidateAll();
    }

    /** Caffeine's statistics; the hits served by the hot map included. */
    CacheStats stats() {
        return cache.stats();
    }

    /**
     * Caffeine's stats counter with the hot map's hits added, so that {@code Cache.stats()} (and the meters built on
     * it) count every hit.
     */
    private final class WithHotHits implements StatsCounter {
        @Override
        public void recordHits(int count) {
            statsCounter.recordHits(count);
        }

        @Override
        public void recordMisses(int count) {
            statsCounter.recordMisses(count);
        }

        @Override
        public void recordLoadSuccess(long loadTime) {
            statsCounter.recordLoadSuccess(loadTime);
        }

        @Override
        public void recordLoadFailure(long loadTime) {
            statsCounter.recordLoadFailure(loadTime);
        }

        @Override
        @SuppressWarnings("deprecation")
        public void recordEviction() {
            statsCounter.recordEviction();
        }

        @Override
        @SuppressWarnings("deprecation")
        public void recordEviction(int weight) {
            statsCounter.recordEviction(weight);
        }

        @Override
        public void recordEviction(int weight, RemovalCause cause) {
            statsCounter.recordEviction(weight, cause);
        }

        @Override
        public CacheStats snapshot() {
            CacheStats s = statsCounter.snapshot();
            return new CacheStats(s.hitCount() + hotHits.sum(), s.missCount(), s.loadSuccessCount(),
                    s.loadFailureCount(), s.totalLoadTime(), s.evictionCount(), s.evictionWeight());
        }
    }

    long weightedSize() {
        return cache.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
    }

    long maxBytes() {
        return config.maxBytes();
    }

    /** How long a cached job may be served without confirming it with the map (see the class comment). */
    java.time.Duration maxStaleness() {
        return config.maxStaleness();
    }

    /**
     * Mirrors Caffeine's entries in the hot map. Caffeine calls it under the entry's lock, inside the write or removal
     * it reports, so the hot map changes atomically with Caffeine's view of that key. {@code CacheWriter} is
     * deprecated in Caffeine 2.9 (and gone in 3.x, which needs Java 11; this jar runs on Java 8 engines with 2.9.3):
     * its replacement there, the eviction listener, is not told of explicit removals and replacements.
     */
    @SuppressWarnings("deprecation")
    private final class HotMapWriter implements CacheWriter<Long, CachedJob<T>> {
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

    private static int stripe(long jobId) {
        return (int) ((jobId ^ (jobId >>> 32)) * 0x9E3779B9L >>> 22) & (INVALIDATION_STRIPES - 1);
    }

    private static <T> T await(CompletableFuture<T> future) throws JobInfoStoreException {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof JobInfoStoreException) {
                throw (JobInfoStoreException) e.getCause();
            }
            if (e.getCause() instanceof RuntimeException) {
                throw (RuntimeException) e.getCause();
            }
            throw e;
        }
    }

    /**
     * Empties the cache and releases its clock (once, however often it is called): the shared {@link CoarseTicker}'s thread
     * stops when its last cache is closed. The cache is not used afterwards.
     */
    void close() {
        cache.invalidateAll();
        // once: a second close (a registry closed twice) must not release a clock other caches still use
        if (ticker instanceof CoarseTicker && closed.compareAndSet(false, true)) {
            CoarseTicker.release((CoarseTicker) ticker);
        }
    }

    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
}
