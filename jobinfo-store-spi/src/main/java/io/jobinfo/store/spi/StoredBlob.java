package io.jobinfo.store.spi;

import io.jobinfo.store.location.Location;
import com.google.auto.value.AutoValue;
import io.jobinfo.store.values.Nullable;
import java.time.Instant;

/**
 * One entry of a {@link JobInfoStore#list()} listing.
 */
@AutoValue
public abstract class StoredBlob {
    StoredBlob() {
    }

    /**
     * @param jobId        the job id the object belongs to
     * @param location     where it is stored (for messages and operators)
     * @param sizeBytes    its size in bytes, envelope included
     * @param lastModified when it was last written, as reported by the backend
     * @param incomplete   {@code true} for the leftover of an interrupted write (a temporary file or upload), which no
     * reader can see and which only garbage collection removes, through
     * {@link JobInfoStore#deleteIncomplete(StoredBlob)}
     * @throws NullPointerException if {@code location} or {@code lastModified} is null
     */
    public static StoredBlob of(long jobId, Location location, long sizeBytes, Instant lastModified,
            boolean incomplete) {
        return new AutoValue_StoredBlob(jobId, location, sizeBytes, lastModified, incomplete, null);
    }

    /**
     * The entry of an interrupted write's leftover, as a backend lists it.
     *
     * @param leftoverToken what the backend that listed it needs to remove it (a temporary file's name, an S3 upload
     *                      id), opaque to everyone else; the backend checks it again when it is handed back
     * @throws IllegalArgumentException if {@code leftoverToken} is null or empty
     */
    public static StoredBlob leftover(long jobId, Location location, long sizeBytes, Instant lastModified,
            String leftoverToken) {
        if (leftoverToken == null || leftoverToken.isEmpty()) {
            throw new IllegalArgumentException("the leftover of job " + jobId + " at " + location + " needs the"
                    + " backend's token to be removed, got none");
        }
        return new AutoValue_StoredBlob(jobId, location, sizeBytes, lastModified, true, leftoverToken);
    }

    public abstract long jobId();

    public abstract Location location();

    public abstract long sizeBytes();

    public abstract Instant lastModified();

    public abstract boolean incomplete();

    /**
     * For a leftover a backend listed ({@link #leftover}), what that backend needs to remove it; {@code null} for a
     * complete blob and for an entry no backend listed. Never parsed out of {@link #location()}, which is for people.
     */
    @Nullable
    public abstract String leftoverToken();
}
