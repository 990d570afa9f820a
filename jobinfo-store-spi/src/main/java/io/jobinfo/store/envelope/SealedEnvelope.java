package io.jobinfo.store.envelope;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * An envelope this process just built in memory around an encoded payload ({@link BlobEnvelope#seal}): header
 * computed from these very bytes (CRC32C and SHA-256) and written in front of them. A store's {@code create} need not
 * compute the SHA-256 of every byte again to know it is an intact envelope; it checks {@link #unchanged()}, which
 * costs a CRC32C pass (about 1/15 of the SHA-256 here), to catch a caller that changed the buffer after sealing it.
 * Instances can only be made by {@link BlobEnvelope}.
 */
public final class SealedEnvelope implements BlobSource {

    private final EnvelopeHeader header;
    private final byte[] headerBytes;
    private final byte[] buffer;
    private final int length;

    SealedEnvelope(EnvelopeHeader header, byte[] headerBytes, byte[] buffer) {
        this.header = header;
        this.headerBytes = headerBytes;
        this.buffer = buffer;
        this.length = headerBytes.length + (int) header.payloadLength();
    }

    /** The header the envelope starts with. */
    public EnvelopeHeader header() {
        return header;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public InputStream open() {
        return new ByteArrayInputStream(buffer, 0, length);
    }

    @Override
    public ByteBuffer asByteBuffer() {
        return ByteBuffer.wrap(buffer, 0, length).asReadOnlyBuffer();
    }

    /**
     * Whether the buffer still holds exactly what was sealed: the header bytes unchanged and the payload's CRC32C equal
     * to the header's. The payload's SHA-256 is not recomputed: it was computed from these bytes when sealing, and a
     * later change of them is caught by the CRC32C (every change of up to 32 consecutive bits, and any other with
     * probability 1 - 2^-32). Tampering by code inside this process is out of scope: such code could change the job
     * before it is encoded as well.
     */
    public boolean unchanged() {
        if (!Arrays.equals(Arrays.copyOfRange(buffer, 0, headerBytes.length), headerBytes)) {
            return false;
        }
        return Crc32c.of(buffer, headerBytes.length, length - headerBytes.length) == header.payloadCrc32c();
    }
}
