package io.jobinfo.store.spi;

import java.time.Instant;

/**
 * One entry of a {@link JobInfoStore#list()} listing.
 *
 * @param jobId        the job id the object belongs to
 * @param location     where it is stored, in URI form (for messages and operators)
 * @param sizeBytes    its size in bytes, envelope included
 * @param lastModified when it was last written, as reported by the backend
 * @param incomplete   {@code true} for the leftover of an interrupted write (a temporary file or upload), which no
 *                     reader can see and which only garbage collection removes, through
 *                     {@link JobInfoStore#deleteIncomplete(StoredBlob)}
 */
public record StoredBlob(long jobId, String location, long sizeBytes, Instant lastModified, boolean incomplete) {
}
