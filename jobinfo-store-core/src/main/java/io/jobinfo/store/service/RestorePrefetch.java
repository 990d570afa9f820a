package io.jobinfo.store.service;

import com.google.auto.value.AutoValue;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.lifecycle.NamespaceClaim;

import io.jobinfo.store.codec.CodecException;
import io.jobinfo.store.codec.JobInfoCodec;
import io.jobinfo.store.concurrent.WorkerPool;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.envelope.ReadVerification;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.StoredBlob;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blob phase of a restore, started before the job map can be listed. After a master dies the survivors cannot
 * read the map until Hazelcast has repaired its partition table (a few hundred milliseconds, measured in the
 * benchmark report); a prefetch lists the write store meanwhile and reads, verifies and decodes its blobs, so the
 * restore has most jobs in hand when the pointers arrive.
 *
 * <p><b>What it changes, and what not.</b> Nothing read here is handed over unchecked: a blob is verified as any load
 * verifies it ({@link JobInfoStore#read(long, ReadVerification)} at the registry's level: header, job id, length,
 * CRC32C, SHA-256 at {@code FULL}), and {@link #take} gives it to the restore only if the job's pointer, read from
 * the map afterwards, names this store and {@linkplain JobInfoPointer#matches matches} the blob's header, the same
 * check {@link JobResolver#resolve} makes. A blob with no pointer (an orphan awaiting gc) is read for nothing and
 * dropped; one that does not match, fails its checks or cannot be decoded is left to the restore's own load, which
 * reads it again and reports what is wrong. So the restore's result is the same with or without the prefetch, only
 * earlier.
 *
 * <p><b>Bounds.</b> At most {@code parallelism} reads at once, at most {@code maxBytes} of blobs held (the cache's
 * byte bound: what the restore would cache anyway), and no new read once {@link #stop} is called; reads in flight
 * then finish and are waited for by {@link #take} of their job only. The store is listed lazily
 * ({@link JobInfoStore#listUntil}) and only until the first blob that would pass the bound: a store far larger than
 * the bound is listed only as far as the bound reaches (with jobs of 200 KB and the default 256 MiB, 2 pages of 1,000
 * keys on S3 rather than 10 at 10,000 jobs), and the blobs after that point are left to the restore even if a
 * smaller one among them would still fit.
 *
 * <p>Failures of the prefetch (the store's listing or a read) are never reported by it: the restore loads those jobs
 * itself.
 *
 * @param <T> the job description type
 */
final class RestorePrefetch<T> {

    private static final Logger LOG = LoggerFactory.getLogger(RestorePrefetch.class);

    /** A blob read, verified on its own and decoded; not yet matched with a pointer. */
    @AutoValue
    abstract static class Fetched<T> {
        abstract EnvelopeHeader header();

        abstract T job();

        /** How long the read, its verification and the decoding took. */
        abstract long loadNanos();
    }

    private final JobInfoStore store;
    private final JobInfoCodec<T> codec;
    private final ReadVerification verification;
    private final long maxBytes;
    private final WorkerPool pool;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final AtomicLong heldBytes = new AtomicLong();
    private final Map<Long, CompletableFuture<Fetched<T>>> fetched = new ConcurrentHashMap<>();
    private final AtomicLong used = new AtomicLong();
    private final AtomicLong reads = new AtomicLong();
    private final Thread driver;
    private final LongPredicate cached;

    private RestorePrefetch(JobInfoStore store, JobResolver<T> resolver, LongPredicate cached, int parallelism,
                            long maxBytes) {
        this.store = store;
        this.cached = cached;
        this.codec = resolver.codec();
        this.verification = resolver.verification();
        this.maxBytes = maxBytes;
        this.pool = new WorkerPool("jobinfo-prefetch", parallelism);
        this.driver = new Thread(this::run, "jobinfo-prefetch");
        driver.setDaemon(true);
    }

    /**
     * Starts prefetching the blobs of {@code store} on threads of its own, read and decoded as {@code resolver}
     * reads and decodes them, except those of jobs for which {@code cached} is true (the cache holds them: the
     * restore finds them there, or reads them itself if its entry is not current); returns at once.
     */
    static <T> RestorePrefetch<T> start(JobInfoStore store, JobResolver<T> resolver, LongPredicate cached,
                                        int parallelism, long maxBytes) {
        RestorePrefetch<T> p = new RestorePrefetch<>(store, resolver, cached, parallelism, maxBytes);
        p.driver.start();
        return p;
    }

    private void run() {
        List<StoredBlob> chosen = new ArrayList<>();
        try {
            // the listing goes only as far as the bound: a store far larger than the cache is not listed whole
            store.listUntil(b -> {
                if (stopped.get()) {
                    return false;
                }
                if (b.incomplete() || NamespaceClaim.isClaim(b.jobId()) || cached.test(b.jobId())) {
                    return true;
                }
                if (heldBytes.get() + b.sizeBytes() > maxBytes) {
                    return false;
                }
                heldBytes.addAndGet(b.sizeBytes());
                chosen.add(b);
                return true;
            });
        } catch (JobInfoStoreException | RuntimeException e) {
            LOG.debug("restore prefetch: listing {} failed after {} blobs, the restore loads the others itself: {}",
                    store.storeId(), chosen.size(), e.toString());
        }
        pool.forEach(chosen, stopped::get, this::fetch);
    }

    private void fetch(StoredBlob blob) {
        CompletableFuture<Fetched<T>> result = new CompletableFuture<>();
        fetched.put(blob.jobId(), result); // a store lists one complete blob per job id
        Fetched<T> out = null;
        reads.incrementAndGet();
        long start = System.nanoTime();
        try {
            VerifiedBlob read = store.read(blob.jobId(), verification);
            if (read.header().codecId() == codec.id()) {
                T job = codec.decode(read.payload());
                out = new AutoValue_RestorePrefetch_Fetched<>(read.header(), job, System.nanoTime() - start);
            }
        } catch (JobInfoStoreException | CodecException | RuntimeException | OutOfMemoryError | StackOverflowError e) {
            // the restore loads the job again and reports what is wrong with it, under its job id
            LOG.debug("restore prefetch: job {} left to the restore: {}", blob.jobId(), e.toString());
        } finally {
            result.complete(out);
        }
    }

    /**
     * Tests: waits up to {@code millis} until the prefetch has nothing left to do (every blob read, or the bound or
     * {@link #stop} reached); returns whether it has.
     */
    boolean awaitDone(long millis) throws InterruptedException {
        driver.join(millis);
        return !driver.isAlive();
    }

    /** No new read from now on; reads in flight finish. Returns at once. */
    void stop() {
        stopped.set(true);
    }

    /**
     * The prefetched job of {@code jobId} if its blob matches {@code pointer} (and is of this store), waiting for
     * its read if that is in flight; else {@code null}: the caller loads the job itself. Each job is taken once;
     * the caller calls {@link #countUse} if it does use what it took (its cache may serve the job instead).
     */
    Fetched<T> take(long jobId, JobInfoPointer pointer) {
        if (!pointer.storeId().equals(store.storeId())) {
            return null;
        }
        CompletableFuture<Fetched<T>> f = fetched.remove(jobId);
        if (f == null) {
            return null;
        }
        Fetched<T> got = f.join(); // completed by fetch's finally, never exceptionally
        if (got == null || !pointer.matches(got.header())) {
            return null;
        }
        return got;
    }

    /** Counts a job of {@link #take} that the restore loaded from the prefetch. */
    void countUse() {
        used.incrementAndGet();
    }

    /** How many jobs the restore loaded from the prefetch ({@link #countUse}). */
    long used() {
        return used.get();
    }

    /** How many blobs were read (or are being read), whether used or not. */
    long reads() {
        return reads.get();
    }
}
