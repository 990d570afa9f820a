package io.jobinfo.store.service;

import io.jobinfo.store.location.Location;
import io.jobinfo.store.spi.JobInfoStoreException;

/**
 * A job id is already registered with a different job description. Nothing was changed: the registered job keeps its
 * pointer and blob.
 */
public class JobInfoConflictException extends JobInfoStoreException {
    private static final long serialVersionUID = 1L;

    public JobInfoConflictException(long jobId, Location location, String detail) {
        super("Job id is already registered with a different job description (" + detail
                + "); submit under a new job id, or remove the running job first", jobId, location);
    }
}
