package io.jobinfo.store.seatunnel.dropin;

import io.jobinfo.store.lifecycle.JobInfoPointer;

import java.util.Objects;

/**
 * What the drop-in puts in one of SeaTunnel's history maps ({@link HistoryMaps}) in place of a finished job's value:
 * the pointer of the blob that holds the value's Hazelcast Data verbatim, and which history map it belongs to (so the
 * reference need not carry its store's id: each history map has one store). The pointer's timestamp is the time at
 * which SeaTunnel's entry expires ({@code history-job-expire-minutes} after SeaTunnel's put; the blob is sealed with
 * it), so that an entry whose TTL was lost can get it back. Only ever serialized: {@link HistoryReferenceSerializer}
 * reads it back as the original value.
 */
final class HistoryReference {

    private final JobInfoPointer pointer;
    private final int mapIndex;

    /**
     * @param map one of {@link HistoryMaps#ALL}
     * @throws IllegalArgumentException {@code map} is not a history map
     */
    HistoryReference(JobInfoPointer pointer, String map) {
        this.pointer = Objects.requireNonNull(pointer, "pointer");
        this.mapIndex = HistoryMaps.ALL.indexOf(map);
        if (mapIndex < 0) {
            throw new IllegalArgumentException(map + " is not one of SeaTunnel's history maps " + HistoryMaps.ALL);
        }
    }

    JobInfoPointer pointer() {
        return pointer;
    }

    /** The index of the reference's map in {@link HistoryMaps#ALL}. */
    int mapIndex() {
        return mapIndex;
    }

    /** Epoch milliseconds at which SeaTunnel's entry expires: the pointer's timestamp. */
    long expiresAt() {
        return pointer.initializationTimestamp();
    }

    @Override
    public String toString() {
        return "HistoryReference{job " + pointer.jobId() + " of " + HistoryMaps.ALL.get(mapIndex) + " in store "
                + pointer.storeId() + ", " + pointer.payloadLength() + " bytes, expires at " + expiresAt() + "}";
    }
}
