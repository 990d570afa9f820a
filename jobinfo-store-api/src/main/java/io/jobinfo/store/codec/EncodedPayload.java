package io.jobinfo.store.codec;

import java.util.Arrays;
import java.util.Objects;

/**
 * An encoded job inside a larger buffer: {@code length} bytes from {@code offset}, with {@code offset} free bytes in
 * front for the envelope header, so the envelope is built around the payload without copying it.
 *
 * @param buffer the buffer; not copied, must not be modified by others
 * @param offset where the payload starts (the room left for the header)
 * @param length payload length
 */
public record EncodedPayload(byte[] buffer, int offset, int length) {

    public EncodedPayload {
        Objects.requireNonNull(buffer, "buffer");
        Objects.checkFromIndexSize(offset, length, buffer.length);
    }

    /** A copy of the payload bytes alone. */
    public byte[] toByteArray() {
        return Arrays.copyOfRange(buffer, offset, offset + length);
    }

    /** Whether the payload equals {@code other}, without copying. */
    public boolean contentEquals(byte[] other) {
        return Arrays.equals(buffer, offset, offset + length, other, 0, other.length);
    }
}
