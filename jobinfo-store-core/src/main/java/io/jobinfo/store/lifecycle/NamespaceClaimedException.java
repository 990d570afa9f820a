package io.jobinfo.store.lifecycle;

import io.jobinfo.store.location.Location;
import io.jobinfo.store.spi.JobInfoStoreException;

/** The store namespace belongs to another cluster ({@link NamespaceClaim}); nothing was written. */
public final class NamespaceClaimedException extends JobInfoStoreException {

    private static final long serialVersionUID = 1L;

    NamespaceClaimedException(String message, Location location) {
        super(message, null, location);
    }
}
