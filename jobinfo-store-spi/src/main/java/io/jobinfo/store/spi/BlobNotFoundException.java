package io.jobinfo.store.spi;

import io.jobinfo.store.location.Location;
/** No complete blob exists for this job id (never written, still being written, or deleted). */
public class BlobNotFoundException extends JobInfoStoreException {
    private static final long serialVersionUID = 1L;

    public BlobNotFoundException(long jobId, Location location) {
        super("No blob stored for this job", jobId, location);
    }
}
