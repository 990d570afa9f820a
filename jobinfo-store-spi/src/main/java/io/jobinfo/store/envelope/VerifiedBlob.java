package io.jobinfo.store.envelope;

import com.google.auto.value.AutoValue;
import io.jobinfo.store.location.Location;

/**
 * A blob whose envelope was verified: the payload has exactly the header's length, the header names the expected
 * job, and the payload's checksums match the header to the {@link #verification()} level (both CRC32C and SHA-256 at
 * {@link ReadVerification#FULL}, CRC32C at {@link ReadVerification#CRC32C}). Equal when header, payload bytes,
 * location and verification are; the string form names the payload's length, never its bytes.
 */
@AutoValue
public abstract class VerifiedBlob {
    VerifiedBlob() {
    }

    /** A blob verified to {@link ReadVerification#FULL}. */
    public static VerifiedBlob of(EnvelopeHeader header, byte[] payload, Location location) {
        return of(header, payload, location, ReadVerification.FULL);
    }

    /**
     * @param header   the verified header
     * @param payload  the payload bytes (not the envelope); callers must not modify the array
     * @param location where it was read from
     * @param verification what was checked
     * @throws NullPointerException if any argument is null
     */
    public static VerifiedBlob of(EnvelopeHeader header, byte[] payload, Location location,
            ReadVerification verification) {
        return new AutoValue_VerifiedBlob(header, payload, location, verification);
    }

    public abstract EnvelopeHeader header();

    /** The payload bytes, not copied: callers must not modify them. */
    @SuppressWarnings("mutable")
    public abstract byte[] payload();

    public abstract Location location();

    /** What was checked before this blob was handed over. */
    public abstract ReadVerification verification();

    /** Bytes this blob occupies in memory, for cache weighing. */
    public long weight() {
        return (long) payload().length + EnvelopeHeader.LENGTH + 64;
    }

    @Override
    public String toString() {
        return "VerifiedBlob[" + location() + ", " + payload().length + " payload bytes, " + verification() + "]";
    }
}
