package io.jobinfo.store.spi;

import io.jobinfo.store.location.Location;
/**
 * A blob for this job id already exists with <em>different</em> content. Blobs are write-once: the existing blob was
 * not modified. A second create with identical content is not an error (it is reported as
 * {@link CreateOutcome#ALREADY_PRESENT}).
 */
public class BlobAlreadyExistsException extends JobInfoStoreException {
    private static final long serialVersionUID = 1L;

    public BlobAlreadyExistsException(long jobId, Location location) {
        super("A different blob already exists for this job id; blobs are write-once, so the existing one was kept."
                + " Use a new job id, or remove the job first", jobId, location);
    }
}
