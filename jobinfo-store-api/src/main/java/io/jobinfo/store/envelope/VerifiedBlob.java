package io.jobinfo.store.envelope;

/**
 * A blob whose envelope was fully verified: the payload has exactly the header's length and both checksums match.
 *
 * @param header   the verified header
 * @param payload  the payload bytes (not the envelope); callers must not modify the array
 * @param location where it was read from
 */
public record VerifiedBlob(EnvelopeHeader header, byte[] payload, String location) {

    /** Bytes this blob occupies in memory, for cache weighing. */
    public long weight() {
        return (long) payload.length + EnvelopeHeader.LENGTH + 64;
    }
}
