package io.jobinfo.store.codec;

import com.google.auto.value.AutoValue;
import java.util.Arrays;
import java.util.Objects;

/**
 * An encoded job inside a larger buffer: {@code length} bytes from {@code offset}, with {@code offset} free bytes in
 * front for the envelope header, so the envelope is built around the payload without copying it. Equal when the
 * buffers' bytes, offsets and lengths are; the string form names offset and length, never the bytes.
 */
@AutoValue
public abstract class EncodedPayload {
    EncodedPayload() {
    }

    /**
     * @param buffer the buffer; not copied, must not be modified by others
     * @param offset where the payload starts (the room left for the header)
     * @param length payload length
     * @throws NullPointerException      if {@code buffer} is null
     * @throws IndexOutOfBoundsException if the range is not inside {@code buffer}
     */
    public static EncodedPayload of(byte[] buffer, int offset, int length) {
        Objects.requireNonNull(buffer, "buffer");
        if (offset < 0 || length < 0 || offset > buffer.length - length) {
            throw new IndexOutOfBoundsException("Range [" + offset + ", " + offset + " + " + length
                    + ") out of bounds for length " + buffer.length);
        }
        return new AutoValue_EncodedPayload(buffer, offset, length);
    }

    /** The buffer, not copied. */
    @SuppressWarnings("mutable")
    public abstract byte[] buffer();

    public abstract int offset();

    public abstract int length();

    /** A copy of the payload bytes alone. */
    public byte[] toByteArray() {
        return Arrays.copyOfRange(buffer(), offset(), offset() + length());
    }

    /** Whether the payload equals {@code other}, without copying. */
    public boolean contentEquals(byte[] other) {
        if (other.length != length()) {
            return false;
        }
        byte[] buffer = buffer();
        int offset = offset();
        for (int i = 0; i < other.length; i++) {
            if (buffer[offset + i] != other[i]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return "EncodedPayload[offset=" + offset() + ", length=" + length() + "]";
    }
}
