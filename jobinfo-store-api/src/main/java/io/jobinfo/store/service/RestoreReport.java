package io.jobinfo.store.service;

import io.jobinfo.store.spi.JobInfoStoreException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * Outcome of {@link RunningJobInfoRegistry#restoreAll}: which jobs were restored and, per job, why the others were
 * not. One broken blob fails its own job only.
 *
 * @param restored jobs handed to the callback, verified
 * @param failed   per failed job, an exception naming job id and location
 * @param duration wall time of the whole restore
 */
public record RestoreReport(Set<Long> restored, Map<Long, JobInfoStoreException> failed, Duration duration) {

    public RestoreReport {
        restored = Set.copyOf(restored);
        failed = Map.copyOf(failed);
    }

    public boolean complete() {
        return failed.isEmpty();
    }
}
