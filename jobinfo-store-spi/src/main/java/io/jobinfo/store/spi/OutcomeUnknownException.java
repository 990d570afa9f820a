package io.jobinfo.store.spi;

import io.jobinfo.store.location.Location;
/**
 * The operation may or may not have taken effect (for example a timeout or a connection lost after the request was
 * sent). For a create, the blob may exist: callers must <em>not</em> delete it as a clean-up, because another attempt
 * or an acknowledged pointer may already refer to it. Garbage collection (with its grace period) decides later.
 * Retrying a create with the same bytes is safe: it either creates the blob or reports it as already present.
 */
public class OutcomeUnknownException extends JobInfoStoreException {
    private static final long serialVersionUID = 1L;

    public OutcomeUnknownException(String message, Long jobId, Location location, Throwable cause) {
        super("Outcome unknown: " + message, jobId, location, cause);
    }
}
