package io.jobinfo.store.seatunnel.dropin;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.google.auto.value.AutoValue;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.HeapData;
import com.hazelcast.nio.serialization.HazelcastSerializationException;
import com.hazelcast.spi.impl.operationexecutor.impl.OperationThread;
import io.jobinfo.store.codec.CodecException;
import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.seatunnel.SeaTunnelJobDataCodec;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.spi.CorruptBlobException;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Turns a {@link JobInfoPointer} back into SeaTunnel's {@code JobImmutableInformation}: the job's verified bytes from
 * a bounded cache (weight = bytes, {@code jobinfo-storage.cache}) or from the store, then deserialized by the
 * member's own serialization service, exactly as SeaTunnel would have deserialized the inline Data. A cached payload
 * is served only for the very pointer it was loaded for (job id, store, length, CRC32C, SHA-256 prefix, codec and
 * initialization timestamp): SeaTunnel reuses job ids, and another instance under the same id is read from the store.
 *
 * <p><b>Where the store is read.</b> Never on the caller's thread: a load runs on one of the drop-in's reader threads
 * ({@code jobinfo-dropin-reader-#}), shared by every caller that wants the same pointer meanwhile, and retries a
 * failing store (unreachable, throttling) with backoff for {@link DropInSettings#readTimeoutMillis()} (10 minutes by
 * default), so that a store outage shorter than that, across a master switch, ends with the job restored: SeaTunnel
 * 2.3.8 never retries a failed restore. The caller waits that long on any thread but Hazelcast's partition and
 * operation threads, which it holds at most {@link DropInSettings#operationThreadWaitMillis()} (5 s by default): such
 * a call fails then, while the load goes on and its result is cached for the next call. A read that hangs holds a
 * reader thread, never the caller's.
 *
 * <p>Failure: a missing blob, a blob that fails verification or does not match the pointer (length, CRC32C, SHA-256
 * prefix, codec), and a pointer of another store fail at once. Every failure is a
 * {@link HazelcastSerializationException} naming the job, the location and what to do.
 */
final class JobInfoResolver implements AutoCloseable {

    /** What an operator can do about a job whose blob is gone or damaged (SeaTunnel's cancel leaves its entry). */
    static final String WAY_OUT = "put the blob back from a backup, or remove the job's entry from"
            + " engine_runningJobInfo (SeaTunnel's cancel does not remove it; see docs/seatunnel.md)";
    private final JobInfoStore store;
    /**
     * Payloads by store and job id, each with the pointer it was loaded for: a hit counts only for that very pointer.
     * The history maps' resolvers share one ({@link #sharedCache}); the running jobs' resolver has its own.
     */
    private final Cache<PayloadKey, CachedPayload> cache;
    private final long maxEntryBytes;
    private final long readTimeoutMillis;
    private final long operationThreadWaitMillis;
    private final DropInMetrics metrics;
    private final ExecutorService readers;
    private final ConcurrentHashMap<JobInfoPointer, CompletableFuture<byte[]>> loading = new ConcurrentHashMap<>();

    JobInfoResolver(JobInfoStore store, CacheConfig cacheConfig, long readTimeoutMillis, long operationThreadWaitMillis,
                    DropInMetrics metrics) {
        this(store, sharedCache(cacheConfig.maxBytes(), cacheConfig), cacheConfig.maxEntryBytes(), readTimeoutMillis,
                operationThreadWaitMillis, metrics, SeaTunnelJobDataCodec::inspect, WAY_OUT);
    }

    /**
     * A payload cache of at most {@code maxBytes} (payload bytes; 0: none, {@code null} is returned), with
     * {@code cacheConfig}'s expire-after-access, for one resolver or shared by several (keys name the store).
     */
    static Cache<PayloadKey, CachedPayload> sharedCache(long maxBytes, CacheConfig cacheConfig) {
        return maxBytes <= 0 ? null : Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((PayloadKey key, CachedPayload cached) -> cached.bytes.length)
                .expireAfterAccess(cacheConfig.expireAfterAccess().toMillis(), TimeUnit.MILLISECONDS)
                .build();
    }

    /** What a blob's verified payload must be before it is served (a job's Data; a history value's Data). */
    interface PayloadCheck {
        void check(long jobId, byte[] payload) throws CodecException;
    }

    private final PayloadCheck payloadCheck;
    /** The store id of {@link #store}: the cache's keys name it, so that several resolvers may share one cache. */
    private final String storeId;
    /** What an operator can do about a blob that is gone or damaged, for messages. */
    private final String wayOut;

    /**
     * @param cache         where payloads are kept ({@link #sharedCache}; {@code null}: none)
     * @param maxEntryBytes payloads above this are served but not cached
     */
    JobInfoResolver(JobInfoStore store, Cache<PayloadKey, CachedPayload> cache, long maxEntryBytes,
                    long readTimeoutMillis, long operationThreadWaitMillis, DropInMetrics metrics,
                    PayloadCheck payloadCheck, String wayOut) {
        this.payloadCheck = payloadCheck;
        this.wayOut = wayOut;
        this.store = store;
        this.storeId = store.storeId();
        this.maxEntryBytes = maxEntryBytes;
        this.readTimeoutMillis = readTimeoutMillis;
        this.operationThreadWaitMillis = operationThreadWaitMillis;
        this.metrics = metrics;
        this.cache = cache;
        final AtomicInteger n = new AtomicInteger();
        int threads = readerThreads(store);
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<Runnable>(), r -> {
                    Thread t = new Thread(r, "jobinfo-dropin-reader-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
        this.readers = pool;
    }

    /**
     * Reader threads, that is loads of distinct jobs in flight at once (a restore after a master switch loads every
     * job): the store's {@link JobInfoStore#suggestedReadParallelism()} (8 for a disk or HDFS, more for an object
     * store whose latency per request they hide), bounded by {@link JobInfoStore#boundedReadParallelism}. Idle ones
     * end after a minute.
     */
    static int readerThreads(JobInfoStore store) {
        return JobInfoStore.boundedReadParallelism(store);
    }

    /** The id of the store this resolver reads. */
    String storeId() {
        return storeId;
    }

    /** The job {@code pointer} refers to, as SeaTunnel's {@code JobImmutableInformation}. */
    Object resolve(JobInfoPointer pointer, SerializationService serialization) {
        metrics.reads.incrementAndGet();
        DropInSteps.reached(DropInStepListener.Step.RESOLVE, pointer.jobId());
        CachedPayload cached = cache == null ? null : cache.getIfPresent(PayloadKey.of(storeId, pointer.jobId()));
        byte[] payload;
        if (cached != null && cached.pointer.equals(pointer)) {
            metrics.cacheHits.incrementAndGet();
            payload = cached.bytes;
        } else {
            // absent, or the bytes of another instance of this job id (SeaTunnel reuses ids: a restore from a
            // savepoint, a custom id): only the instance this pointer names may be served
            payload = await(pointer);
        }
        return serialization.toObject(new HeapData(payload));
    }

    /** Forgets the cached bytes of a job (its blob is being deleted). */
    void invalidate(long jobId) {
        if (cache != null) {
            cache.invalidate(PayloadKey.of(storeId, jobId));
        }
    }

    /** Stops the reader threads (a load in progress is interrupted; one that hangs in the kernel stays there). */
    @Override
    public void close() {
        readers.shutdownNow();
    }

    /** Whether {@code thread} is one of Hazelcast's partition or operation threads (held only briefly). */
    static boolean isOperationThread(Thread thread) {
        String name = thread.getName();
        return thread instanceof OperationThread || name.contains(".partition-operation.")
                || name.contains(".generic-operation.") || name.contains(".priority-generic-operation.");
    }

    private byte[] await(JobInfoPointer pointer) {
        long jobId = pointer.jobId();
        if (!pointer.storeId().equals(store.storeId())) {
            metrics.readFailures.incrementAndGet();
            throw new HazelcastSerializationException("job " + jobId + ": its JobImmutableInformation is in the store"
                    + " '" + pointer.storeId() + "', but this member's jobinfo-storage is the store '" + store.storeId()
                    + "' (" + store.location(jobId) + "); give every member the same jobinfo-storage section");
        }
        Thread caller = Thread.currentThread();
        boolean operationThread = isOperationThread(caller);
        long waitMillis = operationThread ? operationThreadWaitMillis : readTimeoutMillis;
        CompletableFuture<byte[]> load = loading.computeIfAbsent(pointer, this::startLoad);
        try {
            return load.get(waitMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            metrics.readTimeouts.incrementAndGet();
            throw new HazelcastSerializationException("job " + jobId + ": the store did not return "
                    + store.location(jobId) + " within " + waitMillis + " ms" + (operationThread
                    ? " on the Hazelcast thread " + caller.getName() + ", which the drop-in never holds longer ("
                    + DropInSettings.OPERATION_THREAD_WAIT + "); the load goes on and a later call finds it cached"
                    : " (" + DropInSettings.READ_TIMEOUT + "); make the store reachable, then resubmit the job"
                    + " (see docs/seatunnel.md, 'Store outage')"));
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof HazelcastSerializationException) {
                throw (HazelcastSerializationException) cause;
            }
            throw new HazelcastSerializationException("job " + jobId + ": reading " + store.location(jobId)
                    + " failed: " + cause, cause);
        } catch (InterruptedException e) {
            caller.interrupt();
            throw new HazelcastSerializationException("job " + jobId + ": interrupted while waiting for "
                    + store.location(jobId), e);
        }
    }

    private CompletableFuture<byte[]> startLoad(final JobInfoPointer pointer) {
        final CompletableFuture<byte[]> result = new CompletableFuture<>();
        try {
            readers.execute(() -> {
                try {
                    byte[] payload = load(pointer);
                    if (cache != null && payload.length <= maxEntryBytes) {
                        cache.put(PayloadKey.of(storeId, pointer.jobId()), new CachedPayload(pointer, payload));
                    }
                    result.complete(payload);
                } catch (Throwable t) {
                    result.completeExceptionally(t);
                } finally {
                    loading.remove(pointer, result);
                }
            });
        } catch (RuntimeException rejected) {
            result.completeExceptionally(new HazelcastSerializationException("job " + pointer.jobId()
                    + ": the drop-in is stopping; its job cannot be read on this member", rejected));
            loading.remove(pointer, result);
        }
        return result;
    }

    /**
     * A verified payload and the pointer it was loaded for. Pointers are equal only when job id, store, length,
     * CRC32C, SHA-256 prefix, codec, format and initialization timestamp all are.
     */
    /** A cached payload's key: the store (one per history map) and the job id. */
    @AutoValue
    abstract static class PayloadKey {
        static PayloadKey of(String storeId, long jobId) {
            return new AutoValue_JobInfoResolver_PayloadKey(storeId, jobId);
        }

        abstract String storeId();

        abstract long jobId();
    }

    static final class CachedPayload {
        final JobInfoPointer pointer;
        final byte[] bytes;

        CachedPayload(JobInfoPointer pointer, byte[] bytes) {
            this.pointer = pointer;
            this.bytes = bytes;
        }
    }

    /** Reads and checks the blob, retrying a failing store until the read timeout; on a reader thread. */
    private byte[] load(JobInfoPointer pointer) {
        long jobId = pointer.jobId();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(readTimeoutMillis);
        long backoff = 100;
        while (true) {
            try {
                VerifiedBlob blob = store.read(jobId);
                if (!pointer.matches(blob.header())) {
                    throw new HazelcastSerializationException("job " + jobId + ": the blob at " + blob.location()
                            + " is not the one the map's reference was written for (length, checksums or codec"
                            + " differ); the job cannot be read: " + wayOut);
                }
                payloadCheck.check(jobId, blob.payload());
                return blob.payload();
            } catch (BlobNotFoundException e) {
                metrics.readFailures.incrementAndGet();
                throw new HazelcastSerializationException("job " + jobId + ": no blob at " + store.location(jobId)
                        + " although the map references one; the job cannot be read: " + wayOut, e);
            } catch (CorruptBlobException | CodecException e) {
                metrics.readFailures.incrementAndGet();
                throw new HazelcastSerializationException("job " + jobId + ": the blob at " + store.location(jobId)
                        + " is damaged (" + e.getMessage() + "); " + wayOut, e);
            } catch (JobInfoStoreException e) {
                if (System.nanoTime() - deadline > 0) {
                    metrics.readFailures.incrementAndGet();
                    throw new HazelcastSerializationException("job " + jobId + ": the store failed for "
                            + readTimeoutMillis + " ms reading " + store.location(jobId) + ": " + e.getMessage()
                            + "; make the store reachable, then resubmit the job (see docs/seatunnel.md, 'Store"
                            + " outage')", e);
                }
                metrics.readRetries.incrementAndGet();
                sleep(jobId, backoff);
                backoff = Math.min(backoff * 2, 5_000);
            }
        }
    }

    private static void sleep(long jobId, long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HazelcastSerializationException("job " + jobId + ": interrupted while waiting to read it from"
                    + " the store (the drop-in is stopping)", e);
        }
    }
}
