package io.jobinfo.store.seatunnel.dropin;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.HeapData;
import com.hazelcast.nio.serialization.HazelcastSerializationException;
import io.jobinfo.store.codec.CodecException;
import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.seatunnel.SeaTunnelJobDataCodec;
import io.jobinfo.store.service.JobInfoPointer;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.spi.CorruptBlobException;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;

import java.util.concurrent.TimeUnit;

/**
 * Turns a {@link JobInfoPointer} back into SeaTunnel's {@code JobImmutableInformation}: the job's verified bytes from
 * a bounded cache (weight = bytes, {@code jobinfo-storage.cache}) or from the store, then deserialized by the
 * member's own serialization service, exactly as SeaTunnel would have deserialized the inline Data. A cached payload
 * is served only for the very pointer it was loaded for (job id, store, length, CRC32C, SHA-256 prefix, codec and
 * initialization timestamp): SeaTunnel reuses job ids, and another instance under the same id is read from the store.
 *
 * <p>Failure: a store that fails (unreachable, throttling) is retried with backoff for
 * {@link DropInSettings#readTimeoutMillis()}: a failed read makes SeaTunnel give up the job's restore. A missing blob,
 * a blob that fails verification or does not match the pointer (length, CRC32C, SHA-256 prefix, codec), and a
 * pointer of another store fail at once. Every failure is a {@link HazelcastSerializationException} naming the job,
 * the location and what to do.
 */
final class JobInfoResolver {

    /** What an operator can do about a job whose blob is gone or damaged (SeaTunnel's cancel leaves its entry). */
    static final String WAY_OUT = "put the blob back from a backup, or remove the job's entry from"
            + " engine_runningJobInfo (SeaTunnel's cancel does not remove it; see docs/seatunnel.md)";


    private final JobInfoStore store;
    /** Payloads by job id, each with the pointer it was loaded for: a hit counts only for that very pointer. */
    private final Cache<Long, CachedPayload> cache;
    private final long maxEntryBytes;
    private final long readTimeoutMillis;
    private final DropInMetrics metrics;

    JobInfoResolver(JobInfoStore store, CacheConfig cacheConfig, long readTimeoutMillis, DropInMetrics metrics) {
        this.store = store;
        this.maxEntryBytes = cacheConfig.maxEntryBytes();
        this.readTimeoutMillis = readTimeoutMillis;
        this.metrics = metrics;
        this.cache = cacheConfig.maxBytes() <= 0 ? null : Caffeine.newBuilder()
                .maximumWeight(cacheConfig.maxBytes())
                .weigher((Long id, CachedPayload cached) -> cached.bytes.length)
                .expireAfterAccess(cacheConfig.expireAfterAccess().toMillis(), TimeUnit.MILLISECONDS)
                .build();
    }

    /** The job {@code pointer} refers to, as SeaTunnel's {@code JobImmutableInformation}. */
    Object resolve(JobInfoPointer pointer, SerializationService serialization) {
        metrics.reads.incrementAndGet();
        TestCrashPoints.reached(TestCrashPoints.RESOLVE, pointer.jobId());
        CachedPayload cached = cache == null ? null : cache.getIfPresent(pointer.jobId());
        byte[] payload;
        if (cached != null && cached.pointer.equals(pointer)) {
            metrics.cacheHits.incrementAndGet();
            payload = cached.bytes;
        } else {
            // absent, or the bytes of another instance of this job id (SeaTunnel reuses ids: a restore from a
            // savepoint, a custom id): only the instance this pointer names may be served
            payload = load(pointer);
            if (cache != null && payload.length <= maxEntryBytes) {
                cache.put(pointer.jobId(), new CachedPayload(pointer, payload));
            }
        }
        return serialization.toObject(new HeapData(payload));
    }

    /** Forgets the cached bytes of a job (its blob is being deleted). */
    void invalidate(long jobId) {
        if (cache != null) {
            cache.invalidate(jobId);
        }
    }

    /**
     * A verified payload and the pointer it was loaded for. Pointers are equal only when job id, store, length,
     * CRC32C, SHA-256 prefix, codec, format and initialization timestamp all are.
     */
    private static final class CachedPayload {
        final JobInfoPointer pointer;
        final byte[] bytes;

        CachedPayload(JobInfoPointer pointer, byte[] bytes) {
            this.pointer = pointer;
            this.bytes = bytes;
        }
    }

    private byte[] load(JobInfoPointer pointer) {
        long jobId = pointer.jobId();
        if (!pointer.storeId().equals(store.storeId())) {
            metrics.readFailures.incrementAndGet();
            throw new HazelcastSerializationException("job " + jobId + ": its JobImmutableInformation is in the store"
                    + " '" + pointer.storeId() + "', but this member's jobinfo-storage is the store '" + store.storeId()
                    + "' (" + store.location(jobId) + "); give every member the same jobinfo-storage section");
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(readTimeoutMillis);
        long backoff = 100;
        while (true) {
            try {
                VerifiedBlob blob = store.read(jobId);
                if (!pointer.matches(blob.header())) {
                    throw new HazelcastSerializationException("job " + jobId + ": the blob at " + blob.location()
                            + " is not the one the map's reference was written for (length, checksums or codec"
                            + " differ); the job cannot be read: " + WAY_OUT);
                }
                SeaTunnelJobDataCodec.inspect(jobId, blob.payload());
                return blob.payload();
            } catch (BlobNotFoundException e) {
                metrics.readFailures.incrementAndGet();
                throw new HazelcastSerializationException("job " + jobId + ": no blob at " + store.location(jobId)
                        + " although the map references one; the job cannot be read: " + WAY_OUT, e);
            } catch (CorruptBlobException | CodecException e) {
                metrics.readFailures.incrementAndGet();
                throw new HazelcastSerializationException("job " + jobId + ": the blob at " + store.location(jobId)
                        + " is damaged (" + e.getMessage() + "); " + WAY_OUT, e);
            } catch (JobInfoStoreException e) {
                if (System.nanoTime() - deadline > 0) {
                    metrics.readFailures.incrementAndGet();
                    throw new HazelcastSerializationException("job " + jobId + ": the store failed for "
                            + readTimeoutMillis + " ms reading " + store.location(jobId) + ": " + e.getMessage()
                            + "; make the store reachable, then resubmit the job", e);
                }
                metrics.readRetries.incrementAndGet();
                sleep(backoff);
                backoff = Math.min(backoff * 2, 5_000);
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HazelcastSerializationException("interrupted while waiting to read a job from the store", e);
        }
    }
}
