package io.jobinfo.store.envelope;

import io.jobinfo.store.values.ValueObject;
/**
 * A blob whose envelope was verified: the payload has exactly the header's length, the header names the expected
 * job, and the payload's checksums match the header to the {@link #verification()} level (both CRC32C and SHA-256 at
 * {@link ReadVerification#FULL}, CRC32C at {@link ReadVerification#CRC32C}).
 */
public final class VerifiedBlob extends ValueObject {
    private final EnvelopeHeader header;
    private final byte[] payload;
    private final String location;
    private final ReadVerification verification;

    /** A blob verified to {@link ReadVerification#FULL}. */
    public VerifiedBlob(EnvelopeHeader header, byte[] payload, String location) {
        this(header, payload, location, ReadVerification.FULL);
    }

    /**
     * @param header   the verified header
     * @param payload  the payload bytes (not the envelope); callers must not modify the array
     * @param location where it was read from
     * @param verification what was checked
     */
    public VerifiedBlob(EnvelopeHeader header, byte[] payload, String location, ReadVerification verification) {
        this.header = header;
        this.payload = payload;
        this.location = location;
        this.verification = java.util.Objects.requireNonNull(verification, "verification");
    }

    /** What was checked before this blob was handed over. */
    public ReadVerification verification() {
        return verification;
    }

    public EnvelopeHeader header() {
        return header;
    }

    public byte[] payload() {
        return payload;
    }

    public String location() {
        return location;
    }

    /** Bytes this blob occupies in memory, for cache weighing. */
    public long weight() {
        return (long) payload.length + EnvelopeHeader.LENGTH + 64;
    }

    @Override
    protected Object[] components() {
        return new Object[] {"header", header, "payload", payload, "location", location};
    }
}
