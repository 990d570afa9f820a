package io.jobinfo.store.lifecycle;

import java.util.Arrays;
import java.util.Objects;

/**
 * The job inside an inline map value, as a {@link JobValueFormat} found it: the initialization timestamp the engine
 * set, the id of the codec that encoded the job and the encoded job (the bytes a blob's envelope wraps).
 */
public final class InlineJob {

    private final long initializationTimestamp;
    private final int codecId;
    private final byte[] payload;

    /**
     * @param payload the encoded job; kept, not copied: do not modify it afterwards
     */
    public InlineJob(long initializationTimestamp, int codecId, byte[] payload) {
        this.initializationTimestamp = initializationTimestamp;
        this.codecId = codecId;
        this.payload = Objects.requireNonNull(payload, "payload");
    }

    public long initializationTimestamp() {
        return initializationTimestamp;
    }

    public int codecId() {
        return codecId;
    }

    /** The encoded job; shared, not copied: do not modify it. */
    public byte[] payload() {
        return payload;
    }

    public int payloadLength() {
        return payload.length;
    }

    /** Same timestamp, codec and bytes. */
    public boolean sameJobAs(InlineJob other) {
        return other != null && initializationTimestamp == other.initializationTimestamp && codecId == other.codecId
                && Arrays.equals(payload, other.payload);
    }

    @Override
    public String toString() {
        return "InlineJob{initializedAt=" + initializationTimestamp + ", codec=" + codecId + ", " + payload.length
                + " bytes}";
    }
}
