package io.jobinfo.store.seatunnel.dropin;

import io.jobinfo.store.lifecycle.JobInfoPointer;

import java.util.Objects;

/**
 * What the drop-in puts inside SeaTunnel's {@code JobInfo} in place of the job's {@code JobImmutableInformation}: a
 * {@link JobInfoPointer} (store id, job id, payload length, CRC32C, SHA-256 prefix, codec id). Only ever serialized:
 * {@link JobInfoReferenceSerializer} writes it, and reading it back yields the real {@code JobImmutableInformation}
 * loaded from the store, never an instance of this class.
 */
public final class JobInfoReference {

    private final JobInfoPointer pointer;

    public JobInfoReference(JobInfoPointer pointer) {
        this.pointer = Objects.requireNonNull(pointer, "pointer");
    }

    public JobInfoPointer pointer() {
        return pointer;
    }

    @Override
    public String toString() {
        return "JobInfoReference{job " + pointer.jobId() + " in store " + pointer.storeId() + ", "
                + pointer.payloadLength() + " bytes}";
    }
}
