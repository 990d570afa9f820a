package io.jobinfo.store.service;

import io.jobinfo.store.location.Location;
import io.jobinfo.store.spi.JobInfoStoreException;

/**
 * A read of a job's blob failed in the store itself (I/O, the network, a server error, a timeout), not because the
 * blob is missing, damaged or of another job: what a store outage looks like, and so the one read failure that
 * {@link RegistryRestorer} retries. Message, job id and location are the store's exception's, which is the cause.
 */
final class StoreReadFailure extends JobInfoStoreException {

    private static final long serialVersionUID = 1L;

    private final Long storeJobId;
    private final Location storeLocation;

    StoreReadFailure(JobInfoStoreException storeFailure) {
        super(storeFailure.getMessage(), null, null, storeFailure);
        this.storeJobId = storeFailure.jobId();
        this.storeLocation = storeFailure.location();
    }

    @Override
    public Long jobId() {
        return storeJobId;
    }

    @Override
    public Location location() {
        return storeLocation;
    }
}
