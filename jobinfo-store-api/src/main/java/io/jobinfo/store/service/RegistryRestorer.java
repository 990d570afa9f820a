package io.jobinfo.store.service;

import io.jobinfo.store.concurrent.WorkerPool;
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
 * reported in the {@link RestoreReport} with an exception naming job id and location; the others are restored.
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

    RegistryRestorer(PointerMap map, JobCache<T> cache, JobResolver<T> resolver, RegistryMeters meters,
                     int parallelism) {
        this.map = map;
        this.cache = cache;
        this.resolver = resolver;
        this.meters = meters;
        this.pool = new WorkerPool("jobinfo-restore", parallelism);
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
        List<Map.Entry<Long, Object>> entries = map.readableEntries(failed); // without delete markers: no job
        Set<Long> restored = ConcurrentHashMap.newKeySet();
        boolean complete = pool.forEach(entries, entry -> {
            long jobId = entry.getKey();
            Object value = entry.getValue();
            try {
                ContentKey key = ContentKey.of(jobId, value);
                CachedJob<T> job = cache.load(jobId, key, JobResolver.payloadLength(value), tokens.token(jobId),
                        readAt, () -> resolver.resolve(jobId, value, key));
                restorer.restore(jobId, job.initializationTimestamp(), job.job());
                restored.add(jobId);
            } catch (JobInfoStoreException e) {
                failed.put(jobId, e);
            } catch (Exception e) {
                failed.put(jobId, new JobInfoStoreException("Restoring the job failed: " + e, jobId,
                        resolver.locationOf(jobId, value), e));
            }
        });
        if (!complete) {
            throw new IllegalStateException("restore interrupted after " + (restored.size() + failed.size()) + " of "
                    + entries.size() + " jobs; restore again");
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        meters.restored(took, failed.size());
        for (JobInfoStoreException e : failed.values()) {
            LOG.error("job {} could not be restored: {}", e.jobId(), e.getMessage());
        }
        return new RestoreReport(restored, failed, took);
    }
}
