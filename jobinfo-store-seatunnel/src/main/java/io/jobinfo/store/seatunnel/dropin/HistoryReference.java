package io.jobinfo.store.seatunnel.dropin;

import io.jobinfo.store.lifecycle.JobInfoPointer;

import java.util.Objects;

/**
 * What the drop-in puts in one of SeaTunnel's history maps ({@link HistoryMaps}) in place of a finished job's value:
 * the pointer of the blob that holds the value's Hazelcast Data verbatim, and the time at which SeaTunnel's entry
 * expires ({@code history-job-expire-minutes} after SeaTunnel's put), so that an entry whose TTL was lost can get it
 * back. Only ever serialized: {@link HistoryReferenceSerializer} reads it back as the original value.
 */
final class HistoryReference {

    private final JobInfoPointer pointer;
    private final long expiresAt;

    HistoryReference(JobInfoPointer pointer, long expiresAt) {
        this.pointer = Objects.requireNonNull(pointer, "pointer");
        this.expiresAt = expiresAt;
    }

    JobInfoPointer pointer() {
        return pointer;
    }

    /** Epoch milliseconds at which SeaTunnel's entry expires. */
    long expiresAt() {
        return expiresAt;
    }

    @Override
    public String toString() {
        return "HistoryReference{job " + pointer.jobId() + " in store " + pointer.storeId() + ", "
                + pointer.payloadLength() + " bytes, expires at " + expiresAt + "}";
    }
}
