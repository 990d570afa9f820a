package io.jobinfo.store.lifecycle;


import io.jobinfo.store.location.Location;
import io.jobinfo.store.spi.JobInfoStoreException;

/**
 * This registry's leader epoch is older than the fence of the job's partition: a newer master has taken over with
 * {@link io.jobinfo.store.service.RunningJobInfoRegistry#takeOver()}, so this member is deposed. The pointer write or removal was refused
 * atomically on the partition that owns the job: the job map is unchanged. For a submit, the blob that was already
 * stored is kept (the submit is not acknowledged; garbage collection removes the orphan after its grace period).
 * Do not retry: the caller is no longer the master.
 */
public class FencedException extends JobInfoStoreException {
    private static final long serialVersionUID = 1L;

    private final long writerEpoch;
    private final long currentEpoch;

    public FencedException(String action, long jobId, Location location, long writerEpoch, long currentEpoch) {
        super("Fenced: this member's leader epoch " + writerEpoch + " is older than the current epoch "
                + currentEpoch + " (a newer master has taken over); " + action + " was refused and the job map is"
                + " unchanged", jobId, location);
        this.writerEpoch = writerEpoch;
        this.currentEpoch = currentEpoch;
    }

    /** The epoch this registry wrote with. */
    public long writerEpoch() {
        return writerEpoch;
    }

    /** The fence found on the job's partition (at least the newest master's epoch). */
    public long currentEpoch() {
        return currentEpoch;
    }
}
