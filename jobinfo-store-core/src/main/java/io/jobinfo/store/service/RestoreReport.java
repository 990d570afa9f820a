package io.jobinfo.store.service;

import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.values.ValueObject;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Outcome of {@link RunningJobInfoRegistry#restoreAll}: which jobs were restored and, per job, why the others were
 * not. One broken blob fails its own job only.
 */
public final class RestoreReport extends ValueObject {
    private final Set<Long> restored;
    private final Map<Long, JobInfoStoreException> failed;
    private final Duration duration;

    /**
     * @param restored jobs handed to the callback, verified
     * @param failed   per failed job, an exception naming job id and location
     * @param duration wall time of the whole restore
     */
    public RestoreReport(Set<Long> restored, Map<Long, JobInfoStoreException> failed, Duration duration) {
        restored = Collections.unmodifiableSet(new LinkedHashSet<>(restored));
        failed = Collections.unmodifiableMap(new LinkedHashMap<>(failed));
        this.restored = restored;
        this.failed = failed;
        this.duration = duration;
    }

    public Set<Long> restored() {
        return restored;
    }

    public Map<Long, JobInfoStoreException> failed() {
        return failed;
    }

    public Duration duration() {
        return duration;
    }

    public boolean complete() {
        return failed.isEmpty();
    }

    @Override
    protected Object[] components() {
        return new Object[] {"restored", restored, "failed", failed, "duration", duration};
    }
}
