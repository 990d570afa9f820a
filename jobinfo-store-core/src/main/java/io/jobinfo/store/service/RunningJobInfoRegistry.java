package io.jobinfo.store.service;

import io.jobinfo.store.lifecycle.MarkerClaims;
import io.jobinfo.store.lifecycle.NamespaceClaimedException;
import io.jobinfo.store.lifecycle.NamespaceClaim;
import io.jobinfo.store.lifecycle.StoredHeader;
import io.jobinfo.store.lifecycle.DeleteClaims;
import io.jobinfo.store.lifecycle.BlobDeletion;
import io.jobinfo.store.lifecycle.PointerMap;

import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.lifecycle.InlineJobInfo;
import io.jobinfo.store.lifecycle.IncidentLog;
import io.jobinfo.store.lifecycle.PartitionLossMonitor;
import io.jobinfo.store.lifecycle.FencingProcessors;
import io.jobinfo.store.lifecycle.DeleteMarker;
import io.jobinfo.store.lifecycle.FencedException;

import com.github.benmanes.caffeine.cache.stats.CacheStats;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.jobinfo.store.codec.EncodedPayload;
import io.jobinfo.store.codec.JobInfoCodec;
import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.envelope.ReadVerification;
import io.jobinfo.store.envelope.SealedEnvelope;
import io.jobinfo.store.spi.CorruptBlobException;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.values.SetOnce;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
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
 * <p><b>Deletion claims.</b> Nothing deletes a blob without first claiming its job id in the map with a
 * {@link DeleteMarker} ({@link #remove}, GC, the migrator's cleanup), so no pointer is ever left without its blob. A
 * submit whose pointer write meets a claim waits for it ({@link Builder#claimWait}) and then writes blob and pointer
 * again, or fails with {@link JobIdClaimedException}. Every read takes a marker for "no job".
 *
 * <p><b>Partition loss.</b> The registry installs a {@link PartitionLossMonitor} on its member: a lost partition of
 * the map or a healed split brain is recorded cluster-wide ({@link IncidentLog}), and GC holds its deletes until an
 * operator has rebuilt the lost pointers from the store and acknowledged.
 *
 * <p><b>Reads</b> go through a Caffeine cache bounded by payload bytes (single-flight loads for every size; blobs
 * above {@code max-entry-bytes} are served but not cached). A recently confirmed cache hit makes no network call and,
 * mostly, does not pass through Caffeine either: it is served from a lock-free mirror of the cache's entries (see
 * {@link JobCache}; bound, hit counts, expiry and invalidation are Caffeine's). Blobs are verified (length,
 * CRC32C, SHA-256, and against the pointer) before they are cached or returned. The map may hold
 * {@link InlineJobInfo} values too (a cluster being migrated); they are read alike.
 *
 * <p><b>Staleness.</b> An entry listener on the map invalidates a removed or replaced job when the map's event
 * reaches this member, normally within milliseconds of the change (and a member leaving clears the whole cache). That
 * is the fast path only. The bound does not depend on events, which can be lost: a cached job is served without
 * asking the map only while the map was seen holding exactly its content (pointer: store, job id, digest; inline
 * value: its SHA-256) at most {@code cache.max-staleness} ago (default {@code PT5S}); then the next read checks the
 * job's map value again. So a removed or replaced job stops being served at most {@code max-staleness} plus 100 ms
 * (the cache clock's resolution) after the change, also when an event is lost, a member joins or a split-brain
 * heals. Chosen over reading the pointer on every get so that a hit stays a local lookup; {@code max-staleness: PT0S}
 * gives that instead.
 *
 * <p><b>Leader fencing</b> (optional, {@link Builder#fencing(boolean)}): the master calls {@link #takeOver()} when it
 * takes charge; it gets a new epoch and raises the fence of every partition to it. Every later pointer write and
 * removal of a fencing registry carries its epoch and is refused atomically, on the job's partition, with a
 * {@link FencedException} if a newer master has taken over since. See
 * {@link io.jobinfo.store.lifecycle.LeaderFence} for the guarantee and its
 * limits (documented in {@code docs/reliability.md}).
 *
 * <p><b>Structure.</b> This class is the facade; the work is done by {@link PointerMap} (map access and fencing),
 * {@link JobCache} (the cache and single-flight loads), {@link CacheInvalidator} (the map and membership listeners),
 * {@link JobResolver} (pointer to verified, decoded job), {@link RegistryRestorer} ({@link #restoreAll}) and
 * {@link RegistryMeters}.
 *
 * <p>Thread-safe. {@link #close()} removes the listeners; it does not close the stores, which the caller owns.
 *
 * @param <T> the job description type, encoded by the configured {@link JobInfoCodec}; must be immutable, since
 *            cached instances are shared between callers
 */
public final class RunningJobInfoRegistry<T> implements AutoCloseable {

    public static final String DEFAULT_MAP_NAME = "engine_runningJobInfo";
    /** Default {@link Builder#claimWait}: 10 s. */
    public static final Duration DEFAULT_CLAIM_WAIT = Duration.ofSeconds(10);
    /** What {@link Builder#restorePrefetch} allows by default: 256 MiB of payload read ahead by a restore. */
    public static final long DEFAULT_RESTORE_PREFETCH_BYTES = 256L << 20;
    /** How long {@link #restoreAll} waits out a failing store by default ({@link Builder#restoreOutageWait}). */
    public static final Duration DEFAULT_RESTORE_OUTAGE_WAIT = Duration.ofMinutes(10);
    private static final Logger LOG = LoggerFactory.getLogger(RunningJobInfoRegistry.class);

    private final PointerMap map;
    /** The claims a removal adopts: it claims by replacing the pointer with a marker (fenced, in {@link PointerMap}). */
    private final MarkerClaims removals;
    private final JobInfoStore writeStore;
    private final JobInfoCodec<T> codec;
    private final JobCache<T> cache;
    private final RegistryMeters meters;
    private final JobResolver<T> resolver;
    private final RegistryRestorer<T> restorer;
    private final CacheInvalidator invalidator;
    private final SubmitPhaseListener observer;
    private final long claimWaitNanos;
    private final PartitionLossMonitor lossMonitor;
    private final int restoreParallelism;

    private RunningJobInfoRegistry(Builder<T> b) {
        this.map = new PointerMap(b.hazelcast, b.mapName, b.fencing);
        this.removals = new MarkerClaims(map.imap(), "remove", Clock.systemUTC());
        this.writeStore = b.store;
        this.codec = b.codec;
        this.observer = b.observer;
        Map<String, JobInfoStore> byId = new LinkedHashMap<>();
        byId.put(b.store.storeId(), b.store);
        for (JobInfoStore extra : b.readStores) {
            JobInfoStore previous = byId.putIfAbsent(extra.storeId(), extra);
            if (previous != null && previous != extra) {
                throw new IllegalArgumentException("Two stores share the store id '" + extra.storeId()
                        + "'; give one of them another jobinfo-storage.store-id");
            }
        }
        this.claimWaitNanos = b.claimWait.toNanos();
        this.restoreParallelism = b.restoreParallelism > 0 ? b.restoreParallelism
                : JobInfoStore.boundedReadParallelism(b.store);
        // before anything that close() releases: a refused build has no registry that could be closed
        claimNamespace(b);
        this.cache = new JobCache<>(b.cacheConfig, b.cacheLookup);
        CacheInvalidator listening = null;
        try {
            this.meters = new RegistryMeters(b.meterRegistry, b.mapName, cache);
            this.resolver = new JobResolver<>(Collections.unmodifiableMap(new LinkedHashMap<>(byId)), codec,
                    b.mapName, meters, b.readVerification);
            this.restorer = new RegistryRestorer<>(map, cache, resolver, meters, restoreParallelism,
                    b.restorePrefetchBytes, b.store, b.restoreOutageWait);
            listening = new CacheInvalidator(b.hazelcast, map.imap(), cache);
            this.invalidator = listening;
            this.lossMonitor = b.watchPartitionLoss ? PartitionLossMonitor.install(b.hazelcast, b.mapName) : null;
        } catch (RuntimeException | Error e) {
            if (listening != null) {
                listening.close();
            }
            cache.close(); // releases the cache clock
            throw e;
        }
    }

    /**
     * Claims the write store's namespace for this cluster ({@link NamespaceClaim}), as the drop-in does at start: a
     * second cluster on one namespace would take the other's blobs for orphans.
     *
     * @throws IllegalStateException another cluster holds the namespace (the message names it and what to do)
     */
    private static void claimNamespace(Builder<?> b) {
        String cluster = b.clusterName;
        if (cluster == null) {
            try {
                cluster = b.hazelcast.getConfig().getClusterName();
            } catch (UnsupportedOperationException client) {
                LOG.warn("the namespace {} is not claimed for this cluster: a registry on a Hazelcast client cannot"
                        + " tell the cluster's name; set RunningJobInfoRegistry.Builder.clusterName",
                        b.store.location(NamespaceClaim.JOB_ID));
                return;
            }
        }
        try {
            NamespaceClaim.claim(b.store, cluster);
        } catch (NamespaceClaimedException e) {
            throw new IllegalStateException(e.getMessage(), e);
        } catch (JobInfoStoreException e) {
            // a store that fails now fails the submits too, which say so; the claim is checked at the next start
            LOG.warn("the namespace claim {} could not be checked: {}", b.store.location(NamespaceClaim.JOB_ID),
                    e.getMessage());
        }
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
        // the envelope records the initialization timestamp: the pointer can be rebuilt from the blob alone
        SealedEnvelope envelope = BlobEnvelope.seal(jobId, codec.id(), initializationTimestamp, payload);
        EnvelopeHeader header = envelope.header();
        long encodedAt = System.nanoTime();
        long blobWrittenAt = encodedAt;
        long writerEpoch = map.requireEpoch();
        JobInfoPointer pointer = new JobInfoPointer(jobId, initializationTimestamp, writeStore.storeId(), header);
        long claimDeadline = System.nanoTime() + claimWaitNanos;
        Object previous;
        long writtenAt;
        while (true) {
            observer.beforeBlobWrite(jobId);
            writeStore.create(jobId, envelope); // sealed: create need not compute the SHA-256 again
            observer.afterBlobWrite(jobId);
            blobWrittenAt = System.nanoTime();
            writtenAt = cache.now();
            cache.expectOwnAdd(jobId, pointer);
            try {
                previous = map.putIfAbsent(jobId, pointer, writerEpoch);
            } catch (RuntimeException e) {
                cache.ownAddDidNotHappen(jobId, pointer);
                throw new PointerOutcomeUnknownException(jobId, writeStore.location(jobId), e);
            }
            if (previous != null) {
                cache.ownAddDidNotHappen(jobId, pointer); // no add happened, so no add event will come
            }
            if (!(previous instanceof DeleteMarker)) {
                break;
            }
            // The id is claimed by a deletion, which deletes the blob (ours too, whatever create said): wait for
            // the claim to go, then write blob and pointer again.
            DeleteMarker marker = (DeleteMarker) previous;
            observer.claimMet(jobId, marker);
            awaitRelease(jobId, marker, claimDeadline);
        }
        if (previous instanceof FencingProcessors.Rejected) {
            throw new FencedException("the pointer write (the blob is stored and kept for GC; the submit is not"
                    + " acknowledged)", jobId, writeStore.location(jobId), writerEpoch,
                    ((FencingProcessors.Rejected) previous).fence());
        }
        long pointerWrittenAt = System.nanoTime();
        observer.afterPointerWrite(jobId);
        if (previous == null) {
            ensureBlobBehindPointer(jobId, envelope, header);
        }
        meters.submitPhases(start, encodedAt, blobWrittenAt, pointerWrittenAt, System.nanoTime());
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
        cache.putSubmitted(jobId, new CachedJob<>(ContentKey.of(jobId, pointer), pointer.initializationTimestamp(),
                job, payload.length()), payload.length(), writtenAt);
        meters.submitted(start);
        return pointer;
    }

    /**
     * Makes sure the blob this submit wrote is still there now that its pointer is in the map, and writes it again if
     * it is gone. A submit that paused between its blob write and its pointer write (a long GC pause, a slow network)
     * can have its blob taken for an orphan by a garbage collector: GC claimed the id, deleted the blob and released
     * the claim, all before the pointer write. From the moment the pointer is in the map no deleter can claim the id,
     * so a blob found (or written again) here stays. Costs one open of the blob's first bytes per submit.
     *
     * @throws JobInfoStoreException the blob could not be checked or written again: the pointer stays (a later
     *     {@code get} reports a missing blob) and the submit is not acknowledged
     */
    private void ensureBlobBehindPointer(long jobId, SealedEnvelope envelope, EnvelopeHeader header)
            throws JobInfoStoreException {
        try {
            if (header.describesSameBlob(StoredHeader.read(writeStore, jobId))) {
                return; // (the stored blob may carry the timestamp of an earlier identical submit: ALREADY_PRESENT)
            }
            throw new JobInfoConflictException(jobId, writeStore.location(jobId), "the blob under this id was"
                    + " replaced by another between the blob write and the pointer write");
        } catch (io.jobinfo.store.spi.BlobNotFoundException gone) {
            LOG.warn("job {}: its blob at {} was deleted between the blob write and the pointer write (taken for an"
                    + " orphan); writing it again", jobId, writeStore.location(jobId));
            writeStore.create(jobId, envelope);
        } catch (io.jobinfo.store.envelope.EnvelopeFormatException e) {
            throw new JobInfoConflictException(jobId, writeStore.location(jobId), "the blob under this id is not"
                    + " the one this submit wrote: " + e.getMessage());
        }
    }

    /**
     * Waits until {@code marker} is no longer the value of {@code jobId}, polling with a growing pause (1 to 200 ms).
     *
     * @throws JobIdClaimedException the deadline passed first (or the thread was interrupted; its flag is set)
     */
    private void awaitRelease(long jobId, DeleteMarker marker, long deadline) throws JobIdClaimedException {
        long waitStart = System.nanoTime();
        long pause = 1;
        while (true) {
            if (!marker.equals(map.get(jobId))) {
                return;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new JobIdClaimedException(jobId, writeStore.location(jobId), marker,
                        java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - waitStart));
            }
            try {
                Thread.sleep(Math.max(1, Math.min(pause, java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(left))));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new JobIdClaimedException(jobId, writeStore.location(jobId), marker,
                        java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - waitStart));
            }
            pause = Math.min(200, pause * 2);
        }
    }

    /**
     * The description of running job {@code jobId}, or empty if no such job is registered. A cache hit confirmed
     * with the map at most {@code cache.max-staleness} ago makes no network call; an older one reads the job's map
     * value (a small pointer) and is served only if the map still holds exactly the content it was loaded from. So a
     * removed or replaced job stops being served at most {@code max-staleness} plus 100 ms after the change, even if
     * the map's event is lost; see {@link JobCache}. Concurrent misses of one job share one store read, whatever its
     * size.
     *
     * @throws io.jobinfo.store.spi.BlobNotFoundException the pointer exists but its blob is missing
     * @throws CorruptBlobException the blob fails verification or does not match its pointer
     * @throws JobInfoStoreException the store failed, or the pointer names a store this registry does not know
     */
    public Optional<T> get(long jobId) throws JobInfoStoreException {
        CachedJob<T> hit = cache.getIfPresent(jobId);
        if (hit != null && cache.isFresh(hit)) {
            return hit.present();
        }
        long token = cache.token(jobId);
        long readAt = cache.now();
        Object read = map.readValue(jobId);
        // a marker: no job (it ended, its blob is being deleted)
        Object value = read instanceof DeleteMarker ? null : read;
        ContentKey key = value == null ? null : ContentKey.of(jobId, value);
        if (hit != null && cache.revalidate(jobId, hit, key, readAt) != null) {
            return hit.present();
        }
        if (value == null) {
            return Optional.empty();
        }
        return cache.load(jobId, key, JobResolver.payloadLength(value), token, readAt,
                () -> resolver.resolve(jobId, value, key)).present();
    }

    /**
     * The raw map value of {@code jobId}: a {@link JobInfoPointer}, an {@link InlineJobInfo}, a {@link DeleteMarker}
     * (no job: it ended and its blob is being deleted), or {@code null}.
     */
    public Object registeredValue(long jobId) {
        return map.get(jobId);
    }

    /**
     * After a master switch: loads every registered job in parallel ({@code restore-parallelism} at a time), verifies
     * it, warms the cache and hands it to {@code restorer}. One broken or missing blob fails that job alone, with an
     * exception naming job id and location; every other job is restored.
     *
     * @throws IllegalStateException the calling thread was interrupted: the loads in progress were finished, no
     *     further job was started, the interrupt flag is set; restore again
     */
    public RestoreReport restoreAll(JobRestorer<T> restorer) {
        return this.restorer.restoreAll(restorer);
    }

    /**
     * At job end: claims the job id (the pointer is replaced by a {@link DeleteMarker}, atomically), deletes the
     * blob, then removes the marker. From the claim on the job is gone for every reader; while the marker is there
     * no submit can register the id again, so a submit of the same id retried meanwhile waits (see
     * {@link Builder#claimWait}) instead of registering a blob that is being deleted. A blob whose delete fails keeps
     * its claim, and GC finishes the deletion after its grace period (logged, counted in
     * {@code jobinfo.remove.blob.delete.failures}); the job is removed regardless.
     *
     * @return {@code true} if a job was registered under {@code jobId}
     * @throws FencedException a newer master has taken over (fencing registries only); nothing was changed
     * @throws JobInfoStoreException the claim failed or its outcome is unknown; nothing was deleted (if the claim
     *     landed, the job is gone and GC finishes the deletion); retry the removal
     */
    public boolean remove(long jobId) throws JobInfoStoreException {
        Object previous;
        long writerEpoch = map.requireEpoch();
        DeleteMarker marker = DeleteMarker.claim(jobId, "remove", java.time.Instant.now());
        try {
            previous = map.claim(jobId, marker, writerEpoch);
        } catch (RuntimeException e) {
            throw new JobInfoStoreException("Removing the pointer of the job failed or its outcome is unknown (" + e
                    + "); the blob was kept, retry the removal", jobId, writeStore.location(jobId), e);
        } finally {
            cache.invalidate(jobId);
        }
        if (previous instanceof FencingProcessors.Rejected) {
            throw new FencedException("the removal (nothing was removed or deleted)", jobId,
                    writeStore.location(jobId), writerEpoch, ((FencingProcessors.Rejected) previous).fence());
        }
        if (previous == null || previous instanceof DeleteMarker) {
            return false; // nothing registered, or already being deleted by someone else
        }
        DeleteClaims.Claim claim = removals.adopt(marker);
        JobInfoStore store = previous instanceof JobInfoPointer ? resolver.store(((JobInfoPointer) previous).storeId())
                : null;
        if (store == null) {
            if (previous instanceof JobInfoPointer) {
                LOG.warn("job {}: its blob is in store '{}', which this registry does not know; left for GC", jobId,
                        ((JobInfoPointer) previous).storeId());
                meters.blobDeleteFailed();
            }
            try {
                claim.release(); // an inline job has no blob
            } catch (RuntimeException e) {
                LOG.warn("job {}: removed, but releasing its delete claim failed ({}); gc removes the claim after"
                        + " its grace period", jobId, e.toString());
            }
            return true;
        }
        BlobDeletion.Result deletion = BlobDeletion.deleteClaimed(claim, store, BlobDeletion.Steps.NONE);
        if (deletion.outcome() == BlobDeletion.Outcome.FAILED) {
            meters.blobDeleteFailed();
            LOG.warn("job {}: pointer removed but the blob delete failed; the job id stays claimed and gc finishes the"
                    + " deletion: {}", jobId, deletion.detail());
        } else if (deletion.releaseFailure() != null) {
            LOG.warn("job {}: removed, but releasing its delete claim failed ({}); gc removes the claim after its"
                    + " grace period", jobId, deletion.releaseFailure().toString());
        }
        return true;
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
        return map.takeOver();
    }

    /** The epoch of the last successful {@link #takeOver()}; 0 before it (or without fencing). */
    public long epoch() {
        return map.epoch();
    }

    /** Whether pointer writes and removals of this registry are fenced. */
    public boolean fencing() {
        return map.fencing();
    }

    /** The restore machinery (tests: its listing hook). */
    RegistryRestorer<T> restorer() {
        return restorer;
    }

    /** How many blobs {@link #restoreAll} loads at once (the builder's value, else the store's suggestion). */
    public int restoreParallelism() {
        return restoreParallelism;
    }

    /** Ids of every registered job (a cluster-wide call). */
    public Set<Long> runningJobIds() {
        return map.keys();
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
        return cache.weightedSize();
    }

    /** The configured bound of {@link #cachedBytes()}. */
    public long cacheMaxBytes() {
        return cache.maxBytes();
    }

    /** Drops every cached job of this member (the next reads go to the store). */
    public void invalidateAll() {
        cache.invalidateAll();
    }

    /**
     * Whether the map's add event of this registry's own submit of {@code jobId} is still to arrive (tests: an add
     * event that arrives after {@link #invalidateAll()} is no longer known as this member's own and evicts the job).
     */
    boolean ownAddPending(long jobId) {
        return cache.ownAddPending(jobId);
    }

    /** The store new jobs are written to. */
    public JobInfoStore store() {
        return writeStore;
    }

    /** The store that holds blobs of {@code storeId}, if this registry knows it. */
    public Optional<JobInfoStore> store(String storeId) {
        return Optional.ofNullable(resolver.store(storeId));
    }

    /** The codec of this registry. */
    public JobInfoCodec<T> codec() {
        return codec;
    }

    /** The Hazelcast map holding pointers and inline values. */
    public IMap<Long, Object> map() {
        return map.imap();
    }

    @Override
    public void close() {
        invalidator.close();
        if (lossMonitor != null) {
            lossMonitor.close();
        }
        cache.close(); // empties it; the cache clock's thread stops with the last registry of the JVM
    }

    /**
     * Configures a {@link RunningJobInfoRegistry}. Each property can be set once: a second set throws
     * {@link IllegalStateException} naming it ({@link #readAlsoFrom} adds a store each time).
     */
    public static final class Builder<T> {
        private final SetOnce properties = new SetOnce("RunningJobInfoRegistry.Builder");
        private final HazelcastInstance hazelcast;
        private final JobInfoStore store;
        private final JobInfoCodec<T> codec;
        private final List<JobInfoStore> readStores = new ArrayList<>();
        private String mapName = DEFAULT_MAP_NAME;
        private CacheConfig cacheConfig = CacheConfig.defaults();
        private CacheLookup cacheLookup = CacheLookup.MIRRORED;
        private int restoreParallelism; // 0: the write store's suggestedReadParallelism()
        private MeterRegistry meterRegistry = new CompositeMeterRegistry();
        private boolean fencing;
        private SubmitPhaseListener observer = SubmitPhaseListener.NONE;
        private Duration claimWait = DEFAULT_CLAIM_WAIT;
        private boolean watchPartitionLoss = true;
        private String clusterName;
        private ReadVerification readVerification = ReadVerification.FULL;
        private long restorePrefetchBytes = DEFAULT_RESTORE_PREFETCH_BYTES;
        private Duration restoreOutageWait = DEFAULT_RESTORE_OUTAGE_WAIT;

        private Builder(HazelcastInstance hazelcast, JobInfoStore store, JobInfoCodec<T> codec) {
            this.hazelcast = Objects.requireNonNull(hazelcast, "hazelcast");
            this.store = Objects.requireNonNull(store, "store");
            this.codec = Objects.requireNonNull(codec, "codec");
        }

        /** The map of running jobs; default {@value #DEFAULT_MAP_NAME}. */
        public Builder<T> mapName(String mapName) {
            this.mapName = properties.set("mapName", Objects.requireNonNull(mapName, "mapName"));
            return this;
        }

        public Builder<T> cache(CacheConfig cacheConfig) {
            this.cacheConfig = properties.set("cache", Objects.requireNonNull(cacheConfig, "cacheConfig"));
            return this;
        }

        /**
         * How the cache finds a job on a hit; default {@link CacheLookup#MIRRORED}. Both serve the same jobs under
         * the same bound, expiry, staleness and statistics; see {@link CacheLookup} for what each costs.
         */
        public Builder<T> cacheLookup(CacheLookup lookup) {
            this.cacheLookup = properties.set("cacheLookup", Objects.requireNonNull(lookup, "lookup"));
            return this;
        }

        /** Another store whose pointers this registry must resolve (for example the store before a migration). */
        public Builder<T> readAlsoFrom(JobInfoStore other) {
            readStores.add(Objects.requireNonNull(other, "other"));
            return this;
        }

        /**
         * How many blobs {@link #restoreAll} loads at once; default: what the store suggests
         * ({@link JobInfoStore#suggestedReadParallelism()}: 8, 32 for the S3 store).
         */
        public Builder<T> restoreParallelism(int parallelism) {
            this.restoreParallelism = properties.set("restoreParallelism",
                    SetOnce.within("restoreParallelism", parallelism, 1, JobInfoStore.MAX_READ_PARALLELISM));
            return this;
        }

        /**
         * What a load from the store checks before a job is decoded, cached or handed over (restore and cache
         * misses); default {@link ReadVerification#FULL} (header, job id, length, CRC32C, SHA-256).
         * {@link ReadVerification#CRC32C} skips recomputing the SHA-256 (about 15 times the CPU of the CRC32C): as
         * strong against torn writes, truncation, bit rot and a blob of another job, not against a deliberate
         * rewrite of the store; see {@code docs/design.md}, "Read verification".
         */
        public Builder<T> readVerification(ReadVerification level) {
            this.readVerification = properties.set("readVerification", Objects.requireNonNull(level, "level"));
            return this;
        }

        /**
         * How many payload bytes {@link #restoreAll} may read ahead from the write store while it waits for the job
         * map's listing (after a master's death Hazelcast's partition repair holds the listing back for a few
         * hundred milliseconds); default {@value #DEFAULT_RESTORE_PREFETCH_BYTES} bytes (256 MiB), {@code 0} turns
         * the prefetch off. Every prefetched job is verified as a load verifies it and handed over only if its
         * pointer, once listed, matches it; blobs with no pointer (orphans awaiting gc) are read for nothing and
         * dropped when the restore returns, so this is also the most heap the prefetch can hold beyond the jobs the
         * restore hands over. Turn it off where listing the store is costly (a bucket shared with much else) or
         * where most of its blobs are not this map's. Counted in {@code jobinfo.restore.prefetch.reads} and
         * {@code jobinfo.restore.prefetch.used}.
         *
         * @throws IllegalArgumentException a negative value
         */
        public Builder<T> restorePrefetch(long maxBytes) {
            if (maxBytes < 0) {
                throw new IllegalArgumentException("restorePrefetch must be 0 (off) or more bytes, not " + maxBytes);
            }
            this.restorePrefetchBytes = properties.set("restorePrefetch", maxBytes);
            return this;
        }

        /**
         * How long {@link #restoreAll} waits out a store that fails (I/O, network, server errors: not a missing,
         * damaged or foreign blob, which fail their job at once), counted from the restore's start; default
         * {@link #DEFAULT_RESTORE_OUTAGE_WAIT} (10 minutes). Until then the jobs whose loads failed are loaded again
         * with a backoff of 100 ms to 5 s, so an outage shorter than this ends with every job restored and no
         * operator involved; past it each is reported in the {@link RestoreReport} with the store's last error.
         * {@link Duration#ZERO} reports them at once. The wait holds the restoring thread only (never a Hazelcast
         * operation thread); loads run on the restore's own threads.
         *
         * @throws IllegalArgumentException a negative duration
         */
        public Builder<T> restoreOutageWait(Duration wait) {
            if (Objects.requireNonNull(wait, "restoreOutageWait").isNegative()) {
                throw new IllegalArgumentException("restoreOutageWait must be zero (report at once) or more, not "
                        + wait);
            }
            this.restoreOutageWait = properties.set("restoreOutageWait", wait);
            return this;
        }

        /** Where metrics go; by default nowhere. */
        public Builder<T> meterRegistry(MeterRegistry registry) {
            this.meterRegistry = properties.set("meterRegistry", Objects.requireNonNull(registry, "registry"));
            return this;
        }

        /**
         * Leader fencing: pointer writes and removals carry this registry's epoch and are refused once a newer
         * master has called {@link #takeOver()}. Default off (plain {@code putIfAbsent} / {@code remove}). When on,
         * {@link #takeOver()} must be called before the first submit or remove.
         */
        public Builder<T> fencing(boolean enabled) {
            this.fencing = properties.set("fencing", enabled);
            return this;
        }

        /**
         * How long a submit that meets a delete claim ({@link DeleteMarker}) under its job id waits for the claim to
         * go before it fails with {@link JobIdClaimedException}; default 10 s. Zero fails at once.
         */
        public Builder<T> claimWait(Duration wait) {
            if (Objects.requireNonNull(wait, "claimWait").isNegative()) {
                throw new IllegalArgumentException("claimWait must be zero (fail at once) or more, not " + wait);
            }
            this.claimWait = properties.set("claimWait", wait);
            return this;
        }

        /**
         * Whether the registry installs a {@link PartitionLossMonitor} on its member for its map (lost partitions
         * and merges are recorded cluster-wide, and GC holds); default on. Turn it off only where another monitor
         * for this map runs on the same member.
         */
        public Builder<T> watchPartitionLoss(boolean enabled) {
            this.watchPartitionLoss = properties.set("watchPartitionLoss", enabled);
            return this;
        }

        /**
         * The name of the cluster whose job map this registry serves, for the namespace claim ({@link NamespaceClaim}).
         * Default: the Hazelcast member's cluster name; a registry on a Hazelcast client needs it set, or it claims
         * nothing (logged).
         */
        public Builder<T> clusterName(String clusterName) {
            this.clusterName = properties.set("clusterName", Objects.requireNonNull(clusterName, "clusterName"));
            return this;
        }

        /**
         * Tells {@code listener} of each phase of every submit (tracing, fault injection); see
         * {@link SubmitPhaseListener}.
         */
        public Builder<T> submitPhaseListener(SubmitPhaseListener listener) {
            this.observer = properties.set("submitPhaseListener", Objects.requireNonNull(listener, "listener"));
            return this;
        }

        public RunningJobInfoRegistry<T> build() {
            return new RunningJobInfoRegistry<>(this);
        }
    }
}
