package io.jobinfo.store.service;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.MapEvent;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryEvictedListener;
import com.hazelcast.map.listener.EntryExpiredListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import com.hazelcast.map.listener.MapClearedListener;
import com.hazelcast.map.listener.MapEvictedListener;
import com.hazelcast.nio.serialization.HazelcastSerializationException;
import io.jobinfo.store.codec.CodecException;
import io.jobinfo.store.codec.EncodedPayload;
import io.jobinfo.store.codec.JobInfoCodec;
import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.spi.BlobSource;
import io.jobinfo.store.spi.CorruptBlobException;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running jobs' descriptions of a coordinator, kept as small pointers in a Hazelcast map (by default
 * {@code engine_runningJobInfo}) with the descriptions themselves in a {@link JobInfoStore}. Speaks the coordinator's
 * language: {@link #submit}, {@link #get}, {@link #restoreAll} after a master switch, {@link #remove} at job end,
 * {@link #runningJobIds()}.
 *
 * <p><b>Submit</b> writes the blob first (write-once), then puts the pointer if absent; only a submit that returns is
 * acknowledged. A failed submit leaves no pointer, at most an orphan blob that garbage collection removes.
 * Run the members with {@code hazelcast.operation.fail.on.indeterminate.state=true}: otherwise Hazelcast returns from a
 * pointer write whose synchronous backup was never acknowledged as if it had been, and a crash of that one member can
 * lose an acknowledged job.
 *
 * <p><b>Reads</b> go through a Caffeine cache bounded by payload bytes (single-flight loads; blobs above
 * {@code max-entry-bytes} are served but not cached). A cache hit makes no network call. Blobs are verified (length,
 * CRC32C, SHA-256, and against the pointer) before they are cached or returned. The map may hold
 * {@link InlineJobInfo} values too (a cluster being migrated); they are read alike.
 *
 * <p><b>Staleness.</b> The cache is kept valid by an entry listener on the map: a removed or replaced job stops being
 * served from this member's cache when the map's event reaches it, asynchronously, normally within milliseconds of
 * the change. When a cluster member leaves, events may have been lost, so the whole cache is cleared.
 *
 * <p><b>Leader fencing</b> (optional, {@link Builder#fencing(boolean)}): the master calls {@link #takeOver()} when it
 * takes charge; it gets a new epoch and raises the fence of every partition to it. Every later pointer write and
 * removal of a fencing registry carries its epoch and is refused atomically, on the job's partition, with a
 * {@link FencedException} if a newer master has taken over since. See {@link LeaderFence} for the guarantee and its
 * limits (documented in {@code docs/reliability.md}).
 *
 * <p>Thread-safe. {@link #close()} removes the listeners; it does not close the stores, which the caller owns.
 *
 * @param <T> the job description type, encoded by the configured {@link JobInfoCodec}; must be immutable, since
 *            cached instances are shared between callers
 */
public final class RunningJobInfoRegistry<T> implements AutoCloseable {

    public static final String DEFAULT_MAP_NAME = "engine_runningJobInfo";
    private static final int INVALIDATION_STRIPES = 1024;
    private static final Logger LOG = LoggerFactory.getLogger(RunningJobInfoRegistry.class);

    private final HazelcastInstance hazelcast;
    private final IMap<Long, Object> map;
    private final JobInfoStore writeStore;
    private final Map<String, JobInfoStore> storesById;
    private final JobInfoCodec<T> codec;
    private final Cache<Long, Cached<T>> cache;
    private final CacheConfig cacheConfig;
    private final int restoreParallelism;
    /** Bumped by {@link #invalidateAll()}; with the stripes, tells a load whether its job was invalidated meanwhile. */
    private final AtomicLong generation = new AtomicLong();
    private final AtomicLongArray invalidationStripes = new AtomicLongArray(INVALIDATION_STRIPES);
    /** Jobs this registry's own submit just added: their add event must not evict what the submit cached. */
    private final ConcurrentHashMap<Long, JobInfoPointer> ownAdds = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, CompletableFuture<Cached<T>>> inFlight = new ConcurrentHashMap<>();
    private final Object insertLock = new Object();
    private final UUID entryListenerId;
    private final UUID membershipListenerId;
    private final Timer submitTimer;
    private final Timer loadTimer;
    private final Timer restoreTimer;
    private final Counter restoreFailures;
    private final Counter blobDeleteFailures;
    private final SubmitObserver observer;
    private final LeaderFence fence;
    private volatile long epoch;

    private RunningJobInfoRegistry(Builder<T> b) {
        this.hazelcast = b.hazelcast;
        this.map = b.hazelcast.getMap(b.mapName);
        this.writeStore = b.store;
        this.codec = b.codec;
        this.cacheConfig = b.cacheConfig;
        this.restoreParallelism = b.restoreParallelism;
        this.observer = b.observer;
        this.fence = b.fencing ? new LeaderFence(b.hazelcast, b.mapName) : null;
        Map<String, JobInfoStore> byId = new LinkedHashMap<>();
        byId.put(b.store.storeId(), b.store);
        for (JobInfoStore extra : b.readStores) {
            JobInfoStore previous = byId.putIfAbsent(extra.storeId(), extra);
            if (previous != null && previous != extra) {
                throw new IllegalArgumentException("Two stores share the store id '" + extra.storeId()
                        + "'; give one of them another jobinfo-storage.store-id");
            }
        }
        this.storesById = Collections.unmodifiableMap(new LinkedHashMap<>(byId));
        this.cache = Caffeine.newBuilder()
                .maximumWeight(cacheConfig.maxBytes())
                .weigher((Long k, Cached<T> v) -> v.weight)
                .expireAfterAccess(cacheConfig.expireAfterAccess())
                .ticker(CoarseTicker.INSTANCE) // a hit must not pay for a clock read (see CoarseTicker)
                // Maintenance (read-buffer draining, expiry) runs on Caffeine's default executor, off the read path:
                // with a same-thread executor every 16th hit drained the read buffer on the caller's thread, which
                // made a hit ~20x slower than a ConcurrentHashMap.get. The bound does not depend on it: every insert
                // below is followed by a synchronous cleanUp() under insertLock.
                .recordStats()
                .build();
        MeterRegistry meters = b.meterRegistry;
        String mapTag = b.mapName;
        CaffeineCacheMetrics.monitor(meters, cache, "jobinfo", "map", mapTag);
        Gauge.builder("jobinfo.cache.weight.bytes", cache,
                        c -> c.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L))
                .tag("map", mapTag).description("payload bytes held by the job info cache").register(meters);
        this.submitTimer = Timer.builder("jobinfo.submit").tag("map", mapTag).register(meters);
        this.loadTimer = Timer.builder("jobinfo.load").tag("map", mapTag)
                .description("cache misses: pointer to verified, decoded job").register(meters);
        this.restoreTimer = Timer.builder("jobinfo.restore").tag("map", mapTag).register(meters);
        this.restoreFailures = Counter.builder("jobinfo.restore.failures").tag("map", mapTag).register(meters);
        this.blobDeleteFailures = Counter.builder("jobinfo.remove.blob.delete.failures").tag("map", mapTag)
                .description("blobs left for GC because their delete failed").register(meters);
        this.entryListenerId = map.addEntryListener(new Invalidator(), false);
        this.membershipListenerId = hazelcast.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                // nothing lost
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                invalidateAll();
            }
        });
    }

    /** Starts a builder. The registry reads from and writes to {@code store}; pointers of other stores need
     * {@link Builder#readAlsoFrom}. */
    public static <T> Builder<T> builder(HazelcastInstance hazelcast, JobInfoStore store, JobInfoCodec<T> codec) {
        return new Builder<>(hazelcast, store, codec);
    }

    /** Submits with the current time as initialization timestamp. See {@link #submit(long, long, Object)}. */
    public JobInfoPointer submit(long jobId, T job) throws JobInfoStoreException {
        return submit(jobId, System.currentTimeMillis(), job);
    }

    /**
     * Stores {@code job} and registers it under {@code jobId}. When this returns, the job is acknowledged: its
     * pointer is in the map and its complete, verified blob is in the store.
     *
     * <p>Submitting the same job (same bytes) again returns the existing pointer. A different job under a registered
     * id fails with {@link JobInfoConflictException} and changes nothing.
     *
     * @throws io.jobinfo.store.spi.BlobAlreadyExistsException a different blob is stored for this id (for example
     *     the orphan of an earlier failed submit of another job; GC removes it after its grace period)
     * @throws PointerOutcomeUnknownException the blob is stored but the pointer write may or may not have happened;
     *     the blob is kept, the submit is not acknowledged
     * @throws FencedException a newer master has taken over (fencing registries only): no pointer was written, the
     *     blob is kept for GC, the submit is not acknowledged
     * @throws JobInfoStoreException the blob could not be stored; no pointer was written
     */
    public JobInfoPointer submit(long jobId, long initializationTimestamp, T job) throws JobInfoStoreException {
        Objects.requireNonNull(job, "job");
        long start = System.nanoTime();
        EncodedPayload payload = codec.encode(job, EnvelopeHeader.LENGTH);
        EnvelopeHeader header = BlobEnvelope.wrapInPlace(jobId, codec.id(), payload);
        long writerEpoch = requireEpoch();
        observer.beforeBlobWrite(jobId);
        writeStore.create(jobId, BlobSource.ofBytes(payload.buffer(), 0, EnvelopeHeader.LENGTH + payload.length()));
        observer.afterBlobWrite(jobId);
        JobInfoPointer pointer = new JobInfoPointer(jobId, initializationTimestamp, writeStore.storeId(), header);
        Object previous;
        ownAdds.put(jobId, pointer);
        try {
            if (fence == null) {
                previous = map.putIfAbsent(jobId, pointer);
            } else {
                previous = map.executeOnKey(jobId, new FencingProcessors.FencedPointerOp(fence.fenceMapName(),
                        fence.fenceKeyFor(jobId), writerEpoch, FencingProcessors.PUT_IF_ABSENT, pointer));
            }
        } catch (RuntimeException e) {
            ownAdds.remove(jobId, pointer);
            throw new PointerOutcomeUnknownException(jobId, writeStore.location(jobId), e);
        }
        if (previous != null) {
            ownAdds.remove(jobId, pointer); // no add happened, so no add event will come
        }
        if (previous instanceof FencingProcessors.Rejected) {
            throw new FencedException("the pointer write (the blob is stored and kept for GC; the submit is not"
                    + " acknowledged)", jobId, writeStore.location(jobId), writerEpoch,
                    ((FencingProcessors.Rejected) previous).fence());
        }
        observer.afterPointerWrite(jobId);
        if (previous != null) {
            if (previous instanceof JobInfoPointer && ((JobInfoPointer) previous).sameBlobAs(pointer)) {
                pointer = (JobInfoPointer) previous;
            } else if (previous instanceof InlineJobInfo && ((InlineJobInfo) previous).codecId() == codec.id()
                    && payload.contentEquals(((InlineJobInfo) previous).encodedJob())) {
                LOG.debug("job {} is registered inline with identical content; left inline", jobId);
                return pointer;
            } else {
                throw new JobInfoConflictException(jobId, writeStore.location(jobId), "registered: " + previous);
            }
        }
        if (payload.length() <= cacheConfig.maxEntryBytes()) {
            synchronized (insertLock) {
                cache.put(jobId, new Cached<>(pointer.initializationTimestamp(), job, weigh(payload.length())));
                cache.cleanUp();
            }
        }
        submitTimer.record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
        return pointer;
    }

    /**
     * The description of running job {@code jobId}, or empty if no such job is registered. A cache hit makes no
     * network call.
     *
     * @throws io.jobinfo.store.spi.BlobNotFoundException the pointer exists but its blob is missing
     * @throws CorruptBlobException the blob fails verification or does not match its pointer
     * @throws JobInfoStoreException the store failed, or the pointer names a store this registry does not know
     */
    public Optional<T> get(long jobId) throws JobInfoStoreException {
        Cached<T> hit = cache.getIfPresent(jobId);
        if (hit != null) {
            return Optional.of(hit.job);
        }
        long token = invalidationToken(jobId);
        Object value = readValue(jobId);
        if (value == null) {
            return Optional.empty();
        }
        return Optional.of(load(jobId, value, token).job);
    }

    /**
     * {@code map.get(jobId)}, with a value Hazelcast refuses to deserialize (a Java-serialized object the
     * {@link JavaDeserializationFilter} does not allow, or bytes of an unknown type) reported naming the job.
     */
    private Object readValue(long jobId) throws JobInfoStoreException {
        try {
            return map.get(jobId);
        } catch (HazelcastSerializationException e) {
            throw unreadableValue(jobId, e);
        }
    }

    private JobInfoStoreException unreadableValue(long jobId, HazelcastSerializationException e) {
        return new JobInfoStoreException("The job map value of this job cannot be deserialized and was not used"
                + " (" + e.getMessage() + "); it is not a value this library or the engine wrote. Inspect it with"
                + " 'jobinfo-store inspect' and remove the entry if it does not belong there", jobId,
                "map:" + map.getName(), e);
    }

    /** The raw map value of {@code jobId}: a {@link JobInfoPointer}, an {@link InlineJobInfo}, or {@code null}. */
    public Object registeredValue(long jobId) {
        return map.get(jobId);
    }

    /**
     * After a master switch: loads every registered job in parallel ({@code restore-parallelism} at a time), verifies
     * it, warms the cache and hands it to {@code restorer}. One broken or missing blob fails that job alone, with an
     * exception naming job id and location; every other job is restored.
     */
    public RestoreReport restoreAll(JobRestorer<T> restorer) {
        long start = System.nanoTime();
        long generationBefore = generation.get();
        long[] stripesBefore = new long[INVALIDATION_STRIPES];
        for (int i = 0; i < INVALIDATION_STRIPES; i++) {
            stripesBefore[i] = invalidationStripes.get(i);
        }
        Map<Long, JobInfoStoreException> failed = new ConcurrentHashMap<>();
        Collection<Map.Entry<Long, Object>> entries = readableEntries(failed);
        Set<Long> restored = ConcurrentHashMap.newKeySet();
        AtomicInteger threadNo = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(restoreParallelism,
                entries.size())), r -> {
                    Thread t = new Thread(r, "jobinfo-restore-" + threadNo.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        try {
            List<Future<?>> futures = new ArrayList<>(entries.size());
            for (Map.Entry<Long, Object> entry : entries) {
                long jobId = entry.getKey();
                Object value = entry.getValue();
                futures.add(pool.submit(() -> {
                    try {
                        Cached<T> job = load(jobId, value, generationBefore + stripesBefore[stripe(jobId)]);
                        restorer.restore(jobId, job.initializationTimestamp, job.job);
                        restored.add(jobId);
                    } catch (JobInfoStoreException e) {
                        failed.put(jobId, e);
                    } catch (Exception e) {
                        failed.put(jobId, new JobInfoStoreException("Restoring the job failed: " + e, jobId,
                                locationOf(jobId, value), e));
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("restore interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("restore task failed unexpectedly", e.getCause());
        } finally {
            pool.shutdownNow();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        restoreTimer.record(took);
        restoreFailures.increment(failed.size());
        for (JobInfoStoreException e : failed.values()) {
            LOG.error("job {} could not be restored: {}", e.jobId(), e.getMessage());
        }
        return new RestoreReport(restored, failed, took);
    }

    /**
     * Every entry of the map, in one call; if some value cannot be deserialized, entry by entry, each unreadable one
     * added to {@code failed} (naming its job id) instead of failing the whole restore.
     */
    private Collection<Map.Entry<Long, Object>> readableEntries(Map<Long, JobInfoStoreException> failed) {
        try {
            // copied here: the set may deserialize its values lazily, while being iterated
            return new ArrayList<>(map.entrySet());
        } catch (HazelcastSerializationException whole) {
            List<Map.Entry<Long, Object>> readable = new ArrayList<>();
            for (Long jobId : map.keySet()) {
                try {
                    Object value = map.get(jobId);
                    if (value != null) {
                        readable.add(new java.util.AbstractMap.SimpleImmutableEntry<>(jobId, value));
                    }
                } catch (HazelcastSerializationException e) {
                    failed.put(jobId, unreadableValue(jobId, e));
                }
            }
            return readable;
        }
    }

    /**
     * At job end: removes the pointer first, then deletes the blob. A blob whose delete fails is left for garbage
     * collection (logged, counted in {@code jobinfo.remove.blob.delete.failures}); the job is removed regardless.
     * Must not race a new submit of the same job id.
     *
     * @return {@code true} if a job was registered under {@code jobId}
     * @throws FencedException a newer master has taken over (fencing registries only); nothing was changed
     * @throws JobInfoStoreException the pointer removal failed or its outcome is unknown; nothing was deleted
     */
    public boolean remove(long jobId) throws JobInfoStoreException {
        Object previous;
        long writerEpoch = requireEpoch();
        try {
            if (fence == null) {
                previous = map.remove(jobId);
            } else {
                previous = map.executeOnKey(jobId, new FencingProcessors.FencedPointerOp(fence.fenceMapName(),
                        fence.fenceKeyFor(jobId), writerEpoch, FencingProcessors.REMOVE, null));
            }
        } catch (RuntimeException e) {
            throw new JobInfoStoreException("Removing the pointer of the job failed or its outcome is unknown (" + e
                    + "); the blob was kept, retry the removal", jobId, writeStore.location(jobId), e);
        } finally {
            invalidate(jobId);
        }
        if (previous instanceof FencingProcessors.Rejected) {
            throw new FencedException("the removal (nothing was removed or deleted)", jobId,
                    writeStore.location(jobId), writerEpoch, ((FencingProcessors.Rejected) previous).fence());
        }
        if (previous instanceof JobInfoPointer) {
            JobInfoPointer pointer = (JobInfoPointer) previous;
            JobInfoStore store = storesById.get(pointer.storeId());
            if (store == null) {
                LOG.warn("job {}: its blob is in store '{}', which this registry does not know; left for GC", jobId,
                        pointer.storeId());
                blobDeleteFailures.increment();
            } else {
                try {
                    store.delete(jobId);
                } catch (JobInfoStoreException e) {
                    blobDeleteFailures.increment();
                    LOG.warn("job {}: pointer removed but the blob delete failed; gc will remove it: {}", jobId,
                            e.getMessage());
                }
            }
        }
        return previous != null;
    }

    /**
     * Makes this registry's member the one in charge of the job map (fencing registries only): takes a new epoch,
     * higher than any before, and raises the fence of every partition to it. When this returns, pointer writes and
     * removals of every registry holding an older epoch are refused with {@link FencedException}. Call it when this
     * member becomes master, before {@link #restoreAll}.
     *
     * @return the new epoch of this registry
     * @throws FencedException an even newer master took over while this one did; this registry stays deposed
     * @throws IllegalStateException fencing is not enabled
     */
    public long takeOver() throws FencedException {
        if (fence == null) {
            throw new IllegalStateException("takeOver() needs a registry built with fencing(true)");
        }
        long next = fence.nextEpoch();
        long highest = fence.raiseAll(next);
        if (highest > next) {
            throw new FencedException("the takeover", LeaderFence.EPOCH_KEY, null, next, highest);
        }
        epoch = next;
        return next;
    }

    /** The epoch of the last successful {@link #takeOver()}; 0 before it (or without fencing). */
    public long epoch() {
        return epoch;
    }

    /** Whether pointer writes and removals of this registry are fenced. */
    public boolean fencing() {
        return fence != null;
    }

    private long requireEpoch() {
        long e = epoch;
        if (fence != null && e == 0) {
            throw new IllegalStateException("this registry fences its writes: call takeOver() when this member"
                    + " becomes master, before submitting or removing jobs");
        }
        return e;
    }

    /** Ids of every registered job (a cluster-wide call). */
    public Set<Long> runningJobIds() {
        return Collections.unmodifiableSet(new LinkedHashSet<>(map.keySet()));
    }

    /** Number of registered jobs (a cluster-wide call). */
    public int size() {
        return map.size();
    }

    /** Hit, miss, load and eviction counts of this member's cache. */
    public CacheStats cacheStats() {
        return cache.stats();
    }

    /** Payload bytes (plus a small per-entry overhead) this member's cache holds now. */
    public long cachedBytes() {
        return cache.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
    }

    /** The configured bound of {@link #cachedBytes()}. */
    public long cacheMaxBytes() {
        return cacheConfig.maxBytes();
    }

    /** Drops every cached job of this member (the next reads go to the store). */
    public void invalidateAll() {
        generation.incrementAndGet();
        ownAdds.clear();
        cache.invalidateAll();
    }

    /** The store new jobs are written to. */
    public JobInfoStore store() {
        return writeStore;
    }

    /** The store that holds blobs of {@code storeId}, if this registry knows it. */
    public Optional<JobInfoStore> store(String storeId) {
        return Optional.ofNullable(storesById.get(storeId));
    }

    /** The codec of this registry. */
    public JobInfoCodec<T> codec() {
        return codec;
    }

    /** The Hazelcast map holding pointers and inline values. */
    public IMap<Long, Object> map() {
        return map;
    }

    @Override
    public void close() {
        try {
            map.removeEntryListener(entryListenerId);
            hazelcast.getCluster().removeMembershipListener(membershipListenerId);
        } catch (RuntimeException e) {
            LOG.debug("removing listeners on close failed (instance already down?): {}", e.toString());
        }
        cache.invalidateAll();
    }

    private void invalidate(long jobId) {
        invalidationStripes.incrementAndGet(stripe(jobId));
        cache.invalidate(jobId);
    }

    private static int stripe(long jobId) {
        return (int) ((jobId ^ (jobId >>> 32)) * 0x9E3779B9L >>> 22) & (INVALIDATION_STRIPES - 1);
    }

    /** Changes whenever {@code jobId} (or everything) is invalidated; both parts only grow. */
    private long invalidationToken(long jobId) {
        return generation.get() + invalidationStripes.get(stripe(jobId));
    }

    private Cached<T> load(long jobId, Object value, long tokenBeforeMapRead) throws JobInfoStoreException {
        long length = value instanceof JobInfoPointer ? ((JobInfoPointer) value).payloadLength()
                : value instanceof InlineJobInfo ? ((InlineJobInfo) value).encodedLength() : 0;
        if (length > cacheConfig.maxEntryBytes()) {
            return resolve(jobId, value);
        }
        // Single flight: concurrent loads of one job wait for the first.
        CompletableFuture<Cached<T>> mine = new CompletableFuture<>();
        CompletableFuture<Cached<T>> running = inFlight.putIfAbsent(jobId, mine);
        if (running != null) {
            return await(running);
        }
        try {
            Cached<T> loaded = cache.getIfPresent(jobId);
            if (loaded == null) {
                loaded = resolve(jobId, value);
                // Skip caching if an invalidation raced this load: what we read from the map may already be stale.
                if (invalidationToken(jobId) == tokenBeforeMapRead) {
                    // Inserts are serialized and followed by a synchronous eviction, so the cache holds at most
                    // max-bytes plus the one entry being inserted.
                    synchronized (insertLock) {
                        cache.put(jobId, loaded);
                        cache.cleanUp();
                    }
                }
            }
            mine.complete(loaded);
            return loaded;
        } catch (JobInfoStoreException | RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            inFlight.remove(jobId, mine);
        }
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

    private Cached<T> resolve(long jobId, Object value) throws JobInfoStoreException {
        long start = System.nanoTime();
        try {
            if (value instanceof JobInfoPointer) {
                JobInfoPointer pointer = (JobInfoPointer) value;
                JobInfoStore store = storesById.get(pointer.storeId());
                if (store == null) {
                    throw new JobInfoStoreException("The pointer names store '" + pointer.storeId()
                            + "', which this registry does not know (known: " + storesById.keySet()
                            + "); add that store's configuration as a read store", jobId, null);
                }
                VerifiedBlob blob = store.read(jobId);
                if (!pointer.matches(blob.header())) {
                    throw new CorruptBlobException("the stored blob does not match its pointer (pointer " + pointer
                            + ", blob " + blob.header() + ")", jobId, blob.location());
                }
                T job = decode(jobId, pointer.codecId(), blob.payload(), blob.location());
                return new Cached<>(pointer.initializationTimestamp(), job, weigh(blob.payload().length));
            }
            if (value instanceof InlineJobInfo) {
                InlineJobInfo inline = (InlineJobInfo) value;
                T job = decode(jobId, inline.codecId(), inline.encodedJob(), "inline:" + map.getName());
                return new Cached<>(inline.initializationTimestamp(), job, weigh(inline.encodedLength()));
            }
            throw new JobInfoStoreException("The job map holds a " + value.getClass().getName()
                    + " for this job, neither a pointer nor an inline job info", jobId, null);
        } finally {
            loadTimer.record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
        }
    }

    private T decode(long jobId, int codecId, byte[] payload, String location) throws JobInfoStoreException {
        if (codecId != codec.id()) {
            throw new JobInfoStoreException("The job was written with codec id " + codecId + " but this registry"
                    + " decodes codec " + codec.name() + " (id " + codec.id() + "); configure the codec that wrote it",
                    jobId, location);
        }
        try {
            return codec.decode(payload);
        } catch (CodecException e) {
            throw new CorruptBlobException("the payload passed its checksums but cannot be decoded: "
                    + e.getMessage(), jobId, location, e);
        }
    }

    private String locationOf(long jobId, Object value) {
        if (value instanceof JobInfoPointer && storesById.containsKey(((JobInfoPointer) value).storeId())) {
            return storesById.get(((JobInfoPointer) value).storeId()).location(jobId);
        }
        return value instanceof InlineJobInfo ? "inline:" + map.getName() : null;
    }

    private static int weigh(long payloadLength) {
        // payload plus a fixed allowance for the decoded object's shell
        return (int) Math.min(Integer.MAX_VALUE, payloadLength + 256);
    }

private static final class Cached<T> {
        private final long initializationTimestamp;
        private final T job;
        private final int weight;

        Cached(long initializationTimestamp, T job, int weight) {
            this.initializationTimestamp = initializationTimestamp;
            this.job = job;
            this.weight = weight;
        }

        public long initializationTimestamp() {
            return initializationTimestamp;
        }

        public T job() {
            return job;
        }

        public int weight() {
            return weight;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (o == null || o.getClass() != getClass()) {
                return false;
            }
            Cached<?> other = (Cached<?>) o;
            return initializationTimestamp == other.initializationTimestamp
                    && java.util.Objects.equals(job, other.job)
                    && weight == other.weight;
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Long.hashCode(initializationTimestamp);
            h = 31 * h + java.util.Objects.hashCode(job);
            h = 31 * h + weight;
            return h;
        }

        @Override
        public String toString() {
            return "Cached[initializationTimestamp=" + initializationTimestamp + ", job=" + job + ", weight=" + weight
                    + "]";
        }
    }

    private final class Invalidator implements EntryAddedListener<Long, Object>, EntryUpdatedListener<Long, Object>,
            EntryRemovedListener<Long, Object>, EntryEvictedListener<Long, Object>,
            EntryExpiredListener<Long, Object>, MapClearedListener, MapEvictedListener {
        @Override
        public void entryAdded(EntryEvent<Long, Object> event) {
            // The add of this registry's own submit carries what that submit cached: keep it. Events of one key
            // arrive in order, and every other event of the key clears the mark first, so an add from elsewhere
            // (the id re-used after a removal) still invalidates.
            if (ownAdds.remove(event.getKey()) == null) {
                invalidate(event.getKey());
            }
        }

        @Override
        public void entryUpdated(EntryEvent<Long, Object> event) {
            ownAdds.remove(event.getKey());
            invalidate(event.getKey());
        }

        @Override
        public void entryRemoved(EntryEvent<Long, Object> event) {
            ownAdds.remove(event.getKey());
            invalidate(event.getKey());
        }

        @Override
        public void entryEvicted(EntryEvent<Long, Object> event) {
            ownAdds.remove(event.getKey());
            invalidate(event.getKey());
        }

        @Override
        public void entryExpired(EntryEvent<Long, Object> event) {
            ownAdds.remove(event.getKey());
            invalidate(event.getKey());
        }

        @Override
        public void mapCleared(MapEvent event) {
            invalidateAll();
        }

        @Override
        public void mapEvicted(MapEvent event) {
            invalidateAll();
        }
    }

    /** Configures a {@link RunningJobInfoRegistry}. */
    public static final class Builder<T> {
        private final HazelcastInstance hazelcast;
        private final JobInfoStore store;
        private final JobInfoCodec<T> codec;
        private final List<JobInfoStore> readStores = new ArrayList<>();
        private String mapName = DEFAULT_MAP_NAME;
        private CacheConfig cacheConfig = CacheConfig.defaults();
        private int restoreParallelism = 8;
        private MeterRegistry meterRegistry = new CompositeMeterRegistry();
        private boolean fencing;
        private SubmitObserver observer = SubmitObserver.NONE;

        private Builder(HazelcastInstance hazelcast, JobInfoStore store, JobInfoCodec<T> codec) {
            this.hazelcast = Objects.requireNonNull(hazelcast, "hazelcast");
            this.store = Objects.requireNonNull(store, "store");
            this.codec = Objects.requireNonNull(codec, "codec");
        }

        /** The map of running jobs; default {@value #DEFAULT_MAP_NAME}. */
        public Builder<T> mapName(String mapName) {
            this.mapName = Objects.requireNonNull(mapName, "mapName");
            return this;
        }

        public Builder<T> cache(CacheConfig cacheConfig) {
            this.cacheConfig = Objects.requireNonNull(cacheConfig, "cacheConfig");
            return this;
        }

        /** Another store whose pointers this registry must resolve (for example the store before a migration). */
        public Builder<T> readAlsoFrom(JobInfoStore other) {
            readStores.add(Objects.requireNonNull(other, "other"));
            return this;
        }

        /** How many blobs {@link #restoreAll} loads at once; default 8. */
        public Builder<T> restoreParallelism(int parallelism) {
            if (parallelism < 1 || parallelism > 256) {
                throw new IllegalArgumentException("restore parallelism must be 1..256: " + parallelism);
            }
            this.restoreParallelism = parallelism;
            return this;
        }

        /** Where metrics go; by default nowhere. */
        public Builder<T> meterRegistry(MeterRegistry registry) {
            this.meterRegistry = Objects.requireNonNull(registry, "registry");
            return this;
        }

        /**
         * Leader fencing: pointer writes and removals carry this registry's epoch and are refused once a newer
         * master has called {@link #takeOver()}. Default off (plain {@code putIfAbsent} / {@code remove}). When on,
         * {@link #takeOver()} must be called before the first submit or remove.
         */
        public Builder<T> fencing(boolean enabled) {
            this.fencing = enabled;
            return this;
        }

        /** Test seam for fault injection between the steps of a submit; see {@link SubmitObserver}. */
        public Builder<T> submitObserver(SubmitObserver observer) {
            this.observer = Objects.requireNonNull(observer, "observer");
            return this;
        }

        public RunningJobInfoRegistry<T> build() {
            return new RunningJobInfoRegistry<>(this);
        }
    }
}
