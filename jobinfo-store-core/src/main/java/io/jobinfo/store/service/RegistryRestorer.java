package io.jobinfo.store.service;

import io.jobinfo.store.lifecycle.DeleteMarker;
import io.jobinfo.store.lifecycle.PointerMap;

import io.jobinfo.store.lifecycle.JobInfoPointer;

import io.jobinfo.store.concurrent.WorkerPool;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link RunningJobInfoRegistry#restoreAll}: reads every entry of the job map once, loads the jobs on a
 * {@link WorkerPool} ({@code restore-parallelism} at a time) through the cache (so they are verified and the cache
 * is warm afterwards) and hands each to the caller's {@link JobRestorer}. A job whose load or hand-over fails is
 * reported in the {@link RestoreReport} with an exception naming job id and location; the others are restored. That
 * holds for an {@link OutOfMemoryError} or {@link StackOverflowError} of one job's load too (a length or nesting in
 * its bytes that a codec did not refuse): it fails that job alone.
 *
 * <p>Unless turned off, a {@link RestorePrefetch} reads the write store's blobs while the map is being listed (after a
 * master's death the listing waits for Hazelcast's partition repair); a job whose prefetched blob matches its pointer
 * is taken from there instead of being read again. The result is the same either way (see {@link RestorePrefetch}).
 *
 * @param <T> the job description type
 */
final class RegistryRestorer<T> {

    private static final Logger LOG = LoggerFactory.getLogger(RegistryRestorer.class);

    private final PointerMap map;
    private final JobCache<T> cache;
    private final JobResolver<T> resolver;
    private final RegistryMeters meters;
    private final WorkerPool pool;
    private final int parallelism;
    /** The store to prefetch from, or {@code null}: no prefetch. */
    private final JobInfoStore prefetchStore;
    private final long prefetchBytes;
    /** How long a failing store is waited out from the restore's start ({@code restore-outage-wait}). */
    private final Duration outageWait;
    /** Tests: runs on the restoring thread between the prefetch's start and the listing of the map. */
    volatile java.util.function.Consumer<RestorePrefetch<T>> beforeListing = p -> { };

    RegistryRestorer(PointerMap map, JobCache<T> cache, JobResolver<T> resolver, RegistryMeters meters,
                     int parallelism, long prefetchBytes, JobInfoStore prefetchStore, Duration outageWait) {
        this.outageWait = outageWait;
        this.map = map;
        this.cache = cache;
        this.resolver = resolver;
        this.meters = meters;
        this.parallelism = parallelism;
        this.pool = new WorkerPool("jobinfo-restore", parallelism);
        this.prefetchStore = prefetchBytes > 0 ? prefetchStore : null;
        this.prefetchBytes = prefetchBytes;
    }

    /**
     * @throws IllegalStateException the calling thread was interrupted (the loads in progress were finished first,
     *     no further job was started), or a job's hand-over failed in a way that escaped its own handling
     */
    RestoreReport restoreAll(JobRestorer<T> restorer) {
        long start = System.nanoTime();
        JobCache.Tokens tokens = cache.tokens();
        long readAt = cache.now();
        Map<Long, JobInfoStoreException> failed = new ConcurrentHashMap<>();
        RestorePrefetch<T> prefetch = prefetchStore == null ? null
                : RestorePrefetch.start(prefetchStore, resolver, cache::holds, parallelism, prefetchBytes);
        List<Map.Entry<Long, Object>> entries;
        try {
            if (prefetch != null) {
                beforeListing.accept(prefetch);
            }
            entries = map.readableEntries(failed); // without delete markers: no job
        } finally {
            if (prefetch != null) {
                prefetch.stop();
            }
        }
        Duration listing = Duration.ofNanos(System.nanoTime() - start);
        Set<Long> restored = ConcurrentHashMap.newKeySet();
        Map<Long, Object> outage = new ConcurrentHashMap<>(); // jobs whose load met a failing store: retried
        RestorePrefetch<T> early = prefetch;
        Consumer<Map.Entry<Long, Object>> restoreOne = entry -> restoreOne(entry.getKey(), entry.getValue(),
                early, tokens, readAt, restorer, restored, failed, outage);
        if (!pool.forEach(entries, restoreOne)) {
            throw interrupted(restored.size() + failed.size(), entries.size());
        }
        waitOutTheStore(start, outage, failed, restoreOne);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        meters.restored(took, failed.size());
        if (prefetch != null) {
            meters.prefetched(prefetch.reads(), prefetch.used());
        }
        for (JobInfoStoreException e : failed.values()) {
            LOG.error("job {} could not be restored: {}", e.jobId(), e.getMessage());
        }
        return RestoreReport.of(restored, failed, listing, took);
    }

    /** Loads one job and hands it over; a failure is recorded in {@code failed}, a store outage in {@code outage}. */
    private void restoreOne(long jobId, Object value, RestorePrefetch<T> prefetch, JobCache.Tokens tokens, long readAt,
                            JobRestorer<T> restorer, Set<Long> restored, Map<Long, JobInfoStoreException> failed,
                            Map<Long, Object> outage) {
        try {
            ContentKey key = ContentKey.of(jobId, value);
            RestorePrefetch.Fetched<T> early = prefetch != null && value instanceof JobInfoPointer
                    ? prefetch.take(jobId, (JobInfoPointer) value) : null;
            JobCache.Loader<T> loader = early == null ? () -> resolver.resolve(jobId, value, key) : () -> {
                prefetch.countUse();
                meters.loadTook(early.loadNanos()); // a load like any other, only done before the listing
                JobInfoPointer pointer = (JobInfoPointer) value;
                return new CachedJob<>(key, pointer.initializationTimestamp(), early.job(), pointer.payloadLength());
            };
            CachedJob<T> job = cache.load(jobId, key, JobResolver.payloadLength(value), tokens.token(jobId), readAt,
                    loader);
            restorer.restore(jobId, job.initializationTimestamp(), job.job());
            restored.add(jobId);
            failed.remove(jobId);
        } catch (StoreReadFailure e) {
            failed.put(jobId, e);
            outage.put(jobId, value);
        } catch (JobInfoStoreException e) {
            failed.put(jobId, e);
        } catch (Exception e) {
            failed.put(jobId, new JobInfoStoreException("Restoring the job failed: " + e, jobId,
                    resolver.locationOf(jobId, value), e));
        } catch (OutOfMemoryError | StackOverflowError e) {
            // one value that asks for more than the heap or the stack has (a hostile or damaged length or nesting a
            // codec did not refuse) fails its own job, like any other bad value; the others restore
            failed.put(jobId, new JobInfoStoreException("Restoring the job failed: loading it needed more "
                    + (e instanceof OutOfMemoryError ? "memory than the heap has" : "stack than the thread has")
                    + " (" + e + "); its value or blob is damaged, or the heap too small for it", jobId,
                    resolver.locationOf(jobId, value), e));
        }
    }

    /**
     * Waits out a store outage: the jobs whose load met a failing store ({@link StoreReadFailure}) are loaded again,
     * with a backoff from 100 ms to 5 s, until each is restored or {@code outageWait} has passed since the restore
     * began (then they stay in {@code failed}, each with the store's last error). A job whose entry is gone meanwhile
     * (it ended) is no failure any more; its current value is the one loaded.
     */
    private void waitOutTheStore(long start, Map<Long, Object> outage, Map<Long, JobInfoStoreException> failed,
                                 Consumer<Map.Entry<Long, Object>> restoreOne) {
        long deadline = start + outageWait.toNanos();
        long backoff = 100;
        boolean logged = false;
        while (!outage.isEmpty() && System.nanoTime() - deadline < 0) {
            if (!logged) {
                logged = true;
                JobInfoStoreException first = failed.get(outage.keySet().iterator().next());
                LOG.warn("restore: the store failed for {} job(s) ({}); loading them again until {} s after the"
                                + " restore began (restore-outage-wait)", outage.size(),
                        first == null ? "" : first.getMessage(), outageWait.getSeconds());
            }
            try {
                Thread.sleep(Math.max(1, Math.min(backoff,
                        TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()))));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("restore interrupted while waiting out a store outage for "
                        + outage.size() + " job(s); restore again", e);
            }
            backoff = Math.min(backoff * 2, 5_000);
            List<Map.Entry<Long, Object>> again = new ArrayList<>();
            for (Long jobId : new ArrayList<>(outage.keySet())) {
                outage.remove(jobId);
                Object now;
                try {
                    now = map.readValue(jobId);
                } catch (JobInfoStoreException unreadable) {
                    failed.put(jobId, unreadable); // its value changed into one that cannot be read
                    continue;
                }
                if (now == null || now instanceof DeleteMarker) {
                    failed.remove(jobId); // ended meanwhile: nothing to restore
                } else {
                    again.add(new AbstractMap.SimpleImmutableEntry<>(jobId, now));
                }
            }
            if (!pool.forEach(again, restoreOne)) {
                throw new IllegalStateException("restore interrupted while waiting out a store outage; restore"
                        + " again");
            }
        }
    }

    private static IllegalStateException interrupted(int done, int of) {
        return new IllegalStateException("restore interrupted after " + done + " of " + of + " jobs; restore again");
    }
}
