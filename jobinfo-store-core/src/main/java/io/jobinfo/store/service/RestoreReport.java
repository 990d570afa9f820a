package io.jobinfo.store.service;

import com.google.auto.value.AutoValue;
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
@AutoValue
public abstract class RestoreReport {
    RestoreReport() {
    }

    /**
     * @param restored jobs handed to the callback, verified
     * @param failed   per failed job, an exception naming job id and location
     * @param listing  wall time from the restore's start until the job map was listed (a prefetch reads blobs
     *                 meanwhile); at most {@code duration}
     * @param duration wall time of the whole restore
     * @throws IllegalArgumentException {@code listing} is negative or longer than {@code duration}
     */
    public static RestoreReport of(Set<Long> restored, Map<Long, JobInfoStoreException> failed, Duration listing,
                                   Duration duration) {
        if (listing.isNegative() || listing.compareTo(duration) > 0) {
            throw new IllegalArgumentException("the listing took " + listing + ", outside the restore's " + duration);
        }
        return new AutoValue_RestoreReport(Collections.unmodifiableSet(new LinkedHashSet<>(restored)),
                Collections.unmodifiableMap(new LinkedHashMap<>(failed)), listing, duration);
    }

    public abstract Set<Long> restored();

    public abstract Map<Long, JobInfoStoreException> failed();

    /** How long the restore listed the job map, from its start (the rest of {@link #duration()} loads jobs). */
    public abstract Duration listing();

    public abstract Duration duration();

    public boolean complete() {
        return failed().isEmpty();
    }
}
