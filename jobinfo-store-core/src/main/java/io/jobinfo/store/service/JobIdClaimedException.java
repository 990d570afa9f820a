package io.jobinfo.store.service;

import io.jobinfo.store.lifecycle.DeleteMarker;

import io.jobinfo.store.location.Location;
import io.jobinfo.store.spi.JobInfoStoreException;

/**
 * A submit met a {@link DeleteMarker} under its job id: the id is being deleted (its job ended, or GC is deleting
 * an orphan blob under it) and the claim was not released within the registry's claim wait. Nothing was
 * registered; the blob written by this submit may be deleted with the claim. Retry the submit once the deletion has
 * finished (a claim left by a crashed deleter is finished by GC after its grace period).
 */
public final class JobIdClaimedException extends JobInfoStoreException {
    private static final long serialVersionUID = 1L;

    public JobIdClaimedException(long jobId, Location location, DeleteMarker marker, long waitedMillis) {
        super("The job id is being deleted (" + (marker == null ? "claimed" : "claimed by " + marker.owner()
                + " at " + marker.claimedAt()) + ") and the claim was not released within " + waitedMillis
                + " ms; nothing was registered. Retry the submit once the deletion has finished", jobId, location);
    }
}
