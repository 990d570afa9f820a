package io.jobinfo.store.service;

import io.jobinfo.store.spi.JobInfoStoreException;
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
public final class RestoreReport {
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
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (o == null || o.getClass() != getClass()) {
            return false;
        }
        RestoreReport other = (RestoreReport) o;
        return java.util.Objects.equals(restored, other.restored)
                && java.util.Objects.equals(failed, other.failed)
                && java.util.Objects.equals(duration, other.duration);
    }

    @Override
    public int hashCode() {
        int h = 0;
        h = 31 * h + java.util.Objects.hashCode(restored);
        h = 31 * h + java.util.Objects.hashCode(failed);
        h = 31 * h + java.util.Objects.hashCode(duration);
        return h;
    }

    @Override
    public String toString() {
        return "RestoreReport[restored=" + restored + ", failed=" + failed + ", duration=" + duration + "]";
    }
}
