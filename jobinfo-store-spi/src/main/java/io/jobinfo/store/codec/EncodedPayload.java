package io.jobinfo.store.codec;

import io.jobinfo.store.values.ValueObject;
import java.util.Arrays;
import java.util.Objects;

/**
 * An encoded job inside a larger buffer: {@code length} bytes from {@code offset}, with {@code offset} free bytes in
 * front for the envelope header, so the envelope is built around the payload without copying it.
 */
public final class EncodedPayload extends ValueObject {
    private final byte[] buffer;
    private final int offset;
    private final int length;

    /**
     * @param buffer the buffer; not copied, must not be modified by others
     * @param offset where the payload starts (the room left for the header)
     * @param length payload length
     */
    public EncodedPayload(byte[] buffer, int offset, int length) {
        Objects.requireNonNull(buffer, "buffer");
        if (offset < 0 || length < 0 || offset > buffer.length - length) {
            throw new IndexOutOfBoundsException("Range [" + offset + ", " + offset + " + " + length
                    + ") out of bounds for length " + buffer.length);
        }
        this.buffer = buffer;
        this.offset = offset;
        this.length = length;
    }

    public byte[] buffer() {
        return buffer;
    }

    public int offset() {
        return offset;
    }

    public int length() {
        return length;
    }

    /** A copy of the payload bytes alone. */
    public byte[] toByteArray() {
        return Arrays.copyOfRange(buffer, offset, offset + length);
    }

    /** Whether the payload equals {@code other}, without copying. */
    public boolean contentEquals(byte[] other) {
        if (other.length != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (buffer[offset + i] != other[i]) {
                return false;
            }
        }
        return true;
    }

    @Override
    protected Object[] components() {
        return new Object[] {"buffer", buffer, "offset", offset, "length", length};
    }
}
