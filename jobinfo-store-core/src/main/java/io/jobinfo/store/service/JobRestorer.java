package io.jobinfo.store.service;

/**
 * Receives each restored job during {@link RunningJobInfoRegistry#restoreAll}. Called concurrently from the restore
 * threads; an exception thrown here fails that job alone and is reported in the {@link RestoreReport}.
 *
 * @param <T> the job description type
 */
@FunctionalInterface
public interface JobRestorer<T> {
    void restore(long jobId, long initializationTimestamp, T job) throws Exception;
}
