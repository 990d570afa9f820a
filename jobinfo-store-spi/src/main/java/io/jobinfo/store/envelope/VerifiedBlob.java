package io.jobinfo.store.envelope;

/**
 * A blob whose envelope was verified: the payload has exactly the header's length, the header names the expected
 * job, and the payload's checksums match the header to the {@link #verification()} level (both CRC32C and SHA-256 at
 * {@link ReadVerification#FULL}, CRC32C at {@link ReadVerification#CRC32C}).
 */
public final class VerifiedBlob {
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
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (o == null || o.getClass() != getClass()) {
            return false;
        }
        VerifiedBlob other = (VerifiedBlob) o;
        return java.util.Objects.equals(header, other.header)
                && java.util.Objects.equals(payload, other.payload)
                && java.util.Objects.equals(location, other.location);
    }

    @Override
    public int hashCode() {
        int h = 0;
        h = 31 * h + java.util.Objects.hashCode(header);
        h = 31 * h + java.util.Objects.hashCode(payload);
        h = 31 * h + java.util.Objects.hashCode(location);
        return h;
    }

    @Override
    public String toString() {
        return "VerifiedBlob[header=" + header + ", payload=" + payload + ", location=" + location + "]";
    }
}
