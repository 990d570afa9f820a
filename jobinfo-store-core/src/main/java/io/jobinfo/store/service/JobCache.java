package io.jobinfo.store.service;

import io.jobinfo.store.lifecycle.JobInfoPointer;

import com.github.benmanes.caffeine.cache.Ticker;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.spi.JobInfoStoreException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * This member's cache of verified, decoded jobs: a Caffeine cache bounded by payload bytes, with single-flight loads
 * and invalidation tokens that tell a load whether its job was invalidated while it ran (then its result is served
 * but not cached).
 *
 * <p><b>Entries and hits.</b> What is held, under which bound and expiry, and how a lookup finds it is
 * {@link CachedJobs}'s: Caffeine alone ({@link CacheLookup#CAFFEINE}) or Caffeine with a lock-free mirror in front
 * ({@link CacheLookup#MIRRORED}, the default). This class adds what decides whether a held entry may be served.
 *
 * <p><b>Bounded staleness.</b> Each entry remembers the {@link ContentKey} of the map value it was loaded from and
 * when the map was last seen holding that value (a time taken <em>before</em> the map read). A hit is served
 * without asking the map only while that time is at most {@code max-staleness} old ({@link #isFresh}); after that the
 * caller reads the map value again (a small pointer) and {@link #revalidate}s: same content key, the entry is served
 * and confirmed; another key or no value, the entry is dropped. So a job
 * removed or replaced in the map is served by this cache at most {@code max-staleness} plus
 * {@value CoarseTicker#RESOLUTION_MILLIS} ms (the resolution of the cache's clock) after the change, whether or not
 * the map's event ever arrives (lost events, a member joining or leaving, a healed split-brain). {@code max-staleness}
 * of zero confirms every read with the map. Freshness is checked on every hit, whichever lookup found it.
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

    /** Loads one job on a miss. */
    interface Loader<T> {
        CachedJob<T> load() throws JobInfoStoreException;
    }

    private final CachedJobs<T> entries;
    private final CacheConfig config;
    /** Bumped by {@link #invalidateAll()}; with the stripes, tells a load whether its job was invalidated meanwhile. */
    private final AtomicLong generation = new AtomicLong();
    private final AtomicLongArray invalidationStripes = new AtomicLongArray(INVALIDATION_STRIPES);
    /** Jobs this registry's own submit just added: their add event must not evict what the submit cached. */
    private final ConcurrentHashMap<Long, JobInfoPointer> ownAdds = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<ContentKey, CompletableFuture<CachedJob<T>>> inFlight = new ConcurrentHashMap<>();
    private final long maxStalenessNanos;
    private final Ticker ticker;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** With the shared {@link CoarseTicker}, released by {@link #close()}. */
    JobCache(CacheConfig config, CacheLookup lookup) {
        this(config, lookup, CoarseTicker.acquire());
    }

    /** With another clock than {@link CoarseTicker} (tests). */
    JobCache(CacheConfig config, CacheLookup lookup, Ticker ticker) {
        this.config = config;
        this.ticker = ticker;
        this.maxStalenessNanos = config.maxStaleness().toNanos();
        this.entries = CachedJobs.create(lookup, config, ticker);
    }

    /** The entries and their lookup (meters, tests). */
    CachedJobs<T> entries() {
        return entries;
    }

    /**
     * Whether the cache holds an entry for {@code jobId}, current or not; counts nothing (no hit, no miss, no access).
     * Never fails.
     */
    boolean holds(long jobId) {
        return entries.peek(jobId) != null;
    }

    /**
     * The held entry of {@code jobId}, or {@code null}; counted as a hit or a miss. Whether it may be served is
     * {@link #isFresh}'s question. Never fails.
     */
    CachedJob<T> getIfPresent(long jobId) {
        return entries.get(jobId);
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
        entries.remove(jobId, hit);
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
            CachedJob<T> loaded = entries.peek(jobId);
            if (loaded != null && loaded.key().equals(key)) {
                loaded.confirm(readAt); // loaded by another thread just before
            } else {
                loaded = loader.load();
                loaded.confirm(readAt);
                // Skip caching if an invalidation raced this load: what we read from the map may already be stale.
                if (payloadLength <= config.maxEntryBytes() && token(jobId) == tokenBeforeMapRead) {
                    entries.put(jobId, loaded);
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
            entries.put(jobId, job);
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
        entries.invalidate(jobId);
    }

    void invalidateAll() {
        generation.incrementAndGet();
        ownAdds.clear();
        entries.invalidateAll();
    }

    /** Hits (whichever lookup served them), misses, loads and evictions. */
    CacheStats stats() {
        return entries.stats();
    }

    long weightedSize() {
        return entries.weightedSize();
    }

    long maxBytes() {
        return config.maxBytes();
    }

    /** How long a cached job may be served without confirming it with the map (see the class comment). */
    java.time.Duration maxStaleness() {
        return config.maxStaleness();
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
        entries.invalidateAll();
        // once: a second close (a registry closed twice) must not release a clock other caches still use
        if (ticker instanceof CoarseTicker && closed.compareAndSet(false, true)) {
            CoarseTicker.release((CoarseTicker) ticker);
        }
    }

}
