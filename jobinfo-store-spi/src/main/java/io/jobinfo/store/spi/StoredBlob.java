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
    private final String leftoverToken;

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
        this(jobId, location, sizeBytes, lastModified, incomplete, null);
    }

    private StoredBlob(long jobId, String location, long sizeBytes, Instant lastModified, boolean incomplete,
            String leftoverToken) {
        this.jobId = jobId;
        this.location = location;
        this.sizeBytes = sizeBytes;
        this.lastModified = lastModified;
        this.incomplete = incomplete;
        this.leftoverToken = leftoverToken;
    }

    /**
     * The entry of an interrupted write's leftover, as a backend lists it.
     *
     * @param leftoverToken what the backend that listed it needs to remove it (a temporary file's name, an S3 upload
     *                      id), opaque to everyone else; the backend checks it again when it is handed back
     */
    public static StoredBlob leftover(long jobId, String location, long sizeBytes, Instant lastModified,
            String leftoverToken) {
        if (leftoverToken == null || leftoverToken.isEmpty()) {
            throw new IllegalArgumentException("the leftover of job " + jobId + " at " + location + " needs the"
                    + " backend's token to be removed, got none");
        }
        return new StoredBlob(jobId, location, sizeBytes, lastModified, true, leftoverToken);
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

    /**
     * For a leftover a backend listed ({@link #leftover}), what that backend needs to remove it; {@code null} for a
     * complete blob and for an entry no backend listed. Never parsed out of {@link #location()}, which is for people.
     */
    public String leftoverToken() {
        return leftoverToken;
    }

    @Override
    protected Object[] components() {
        return new Object[] {"jobId", jobId, "location", location, "sizeBytes", sizeBytes, "lastModified", lastModified,
                "incomplete", incomplete, "leftoverToken", leftoverToken};
    }
}
