package io.jobinfo.store.service;

import io.jobinfo.store.lifecycle.PointerMap;

import io.jobinfo.store.lifecycle.JobInfoPointer;

import io.jobinfo.store.concurrent.WorkerPool;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
    /** Tests: runs on the restoring thread between the prefetch's start and the listing of the map. */
    volatile java.util.function.Consumer<RestorePrefetch<T>> beforeListing = p -> { };

    RegistryRestorer(PointerMap map, JobCache<T> cache, JobResolver<T> resolver, RegistryMeters meters,
                     int parallelism, long prefetchBytes, JobInfoStore prefetchStore) {
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
        Set<Long> restored = ConcurrentHashMap.newKeySet();
        boolean complete = pool.forEach(entries, entry -> {
            long jobId = entry.getKey();
            Object value = entry.getValue();
            try {
                ContentKey key = ContentKey.of(jobId, value);
                RestorePrefetch.Fetched<T> early = prefetch != null && value instanceof JobInfoPointer
                        ? prefetch.take(jobId, (JobInfoPointer) value) : null;
                JobCache.Loader<T> loader = early == null ? () -> resolver.resolve(jobId, value, key) : () -> {
                    prefetch.countUse();
                    meters.loadTook(early.loadNanos); // a load like any other, only done before the listing
                    JobInfoPointer pointer = (JobInfoPointer) value;
                    return new CachedJob<>(key, pointer.initializationTimestamp(), early.job,
                            pointer.payloadLength());
                };
                CachedJob<T> job = cache.load(jobId, key, JobResolver.payloadLength(value), tokens.token(jobId),
                        readAt, loader);
                restorer.restore(jobId, job.initializationTimestamp(), job.job());
                restored.add(jobId);
            } catch (JobInfoStoreException e) {
                failed.put(jobId, e);
            } catch (Exception e) {
                failed.put(jobId, new JobInfoStoreException("Restoring the job failed: " + e, jobId,
                        resolver.locationOf(jobId, value), e));
            } catch (OutOfMemoryError | StackOverflowError e) {
                // one value that asks for more than the heap or the stack has (a hostile or damaged length or
                // nesting a codec did not refuse) fails its own job, like any other bad value; the others restore
                failed.put(jobId, new JobInfoStoreException("Restoring the job failed: loading it needed more "
                        + (e instanceof OutOfMemoryError ? "memory than the heap has" : "stack than the thread has")
                        + " (" + e + "); its value or blob is damaged, or the heap too small for it", jobId,
                        resolver.locationOf(jobId, value), e));
            }
        });
        if (!complete) {
            throw new IllegalStateException("restore interrupted after " + (restored.size() + failed.size()) + " of "
                    + entries.size() + " jobs; restore again");
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        meters.restored(took, failed.size());
        if (prefetch != null) {
            meters.prefetched(prefetch.reads(), prefetch.used());
        }
        for (JobInfoStoreException e : failed.values()) {
            LOG.error("job {} could not be restored: {}", e.jobId(), e.getMessage());
        }
        return new RestoreReport(restored, failed, took);
    }
}
