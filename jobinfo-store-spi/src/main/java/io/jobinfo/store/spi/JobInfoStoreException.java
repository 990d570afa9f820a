package io.jobinfo.store.spi;

import io.jobinfo.store.location.Location;
import java.io.IOException;

/**
 * Base of every failure a {@link JobInfoStore} reports. Each instance names the job id and the location it concerns
 * (either may be absent for store-wide failures such as an unreachable backend).
 *
 * <p>A plain {@code JobInfoStoreException} (not one of the subclasses) means the operation <em>did not</em> take
 * effect and may be retried. Subclasses narrow that down: {@link BlobAlreadyExistsException},
 * {@link BlobNotFoundException}, {@link CorruptBlobException} and {@link OutcomeUnknownException}.
 */
public class JobInfoStoreException extends IOException {
    private static final long serialVersionUID = 1L;

    private final Long jobId;
    private final Location location;

    public JobInfoStoreException(String message, Long jobId, Location location, Throwable cause) {
        super(describe(message, jobId, location), cause);
        this.jobId = jobId;
        this.location = location;
    }

    public JobInfoStoreException(String message, Long jobId, Location location) {
        this(message, jobId, location, null);
    }

    /** The job id this failure concerns, or {@code null} for store-wide failures. */
    public Long jobId() {
        return jobId;
    }

    /** The location (of a blob, or of the store's namespace) this failure concerns, or {@code null}. */
    public Location location() {
        return location;
    }

    private static String describe(String message, Long jobId, Location location) {
        StringBuilder sb = new StringBuilder(message);
        if (jobId != null || location != null) {
            sb.append(" [");
            if (jobId != null) {
                sb.append("jobId=").append(jobId);
            }
            if (location != null) {
                if (jobId != null) {
                    sb.append(", ");
                }
                sb.append("location=").append(location);
            }
            sb.append(']');
        }
        return sb.toString();
    }
}
