package io.jobinfo.store.service;

import io.jobinfo.store.location.Location;
import io.jobinfo.store.spi.OutcomeUnknownException;

/**
 * The blob was stored, but whether its pointer reached {@code engine_runningJobInfo} is unknown (a member died or the
 * call timed out). The submit is <em>not</em> acknowledged. The blob is kept: if the pointer did land, the job is
 * intact; if not, garbage collection removes the orphan after its grace period. Retrying the submit with the same job
 * is safe.
 */
public class PointerOutcomeUnknownException extends OutcomeUnknownException {
    private static final long serialVersionUID = 1L;

    public PointerOutcomeUnknownException(long jobId, Location location, Throwable cause) {
        super("the blob is stored and kept, but the pointer write to the job map may or may not have happened ("
                + cause + "); the submit is not acknowledged, retry it", jobId, location, cause);
    }
}
