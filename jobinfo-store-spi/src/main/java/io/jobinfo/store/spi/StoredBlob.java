package io.jobinfo.store.spi;

import io.jobinfo.store.values.ValueObject;
import java.time.Instant;

/**
 * One entry of a {@link JobInfoStore#list()} listing.
 */
public final class StoredBlob extends ValueObject {
    private final long jobId;
    private final String location;
    private final long sizeBytes;
    private final Instant lastModified;
    private final boolean incomplete;

    /**
     * @param jobId        the job id the object belongs to
     * @param location     where it is stored, in URI form (for messages and operators)
     * @param sizeBytes    its size in bytes, envelope included
     * @param lastModified when it was last written, as reported by the backend
     * @param incomplete   {@code true} for the leftover of an interrupted write (a temporary file or upload), which no
     * reader can see and which only garbage collection removes, through
     * {@link JobInfoStore#deleteIncomplete(StoredBlob)}
     */
    public StoredBlob(long jobId, String location, long sizeBytes, Instant lastModified, boolean incomplete) {
        this.jobId = jobId;
        this.location = location;
        this.sizeBytes = sizeBytes;
        this.lastModified = lastModified;
        this.incomplete = incomplete;
    }

    public long jobId() {
        return jobId;
    }

    public String location() {
        return location;
    }

    public long sizeBytes() {
        return sizeBytes;
    }

    public Instant lastModified() {
        return lastModified;
    }

    public boolean incomplete() {
        return incomplete;
    }

    @Override
    protected Object[] components() {
        return new Object[] {"jobId", jobId, "location", location, "sizeBytes", sizeBytes, "lastModified", lastModified,
                "incomplete", incomplete};
    }
}
