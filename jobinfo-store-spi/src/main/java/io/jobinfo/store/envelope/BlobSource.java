package io.jobinfo.store.envelope;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The bytes of one blob (a complete envelope), which a store may read more than once (a retried request, or a
 * comparison against an existing blob). Not limited to 2 GB: {@link #length()} is a {@code long} and content is
 * streamed.
 */
public interface BlobSource {

    /** Exact number of bytes {@link #open()} yields. */
    long length();

    /** A new stream over the whole content, from its first byte. The caller closes it. */
    InputStream open() throws IOException;

    /**
     * The whole content as a buffer, if this source holds it in memory (so that a store can write it without copying
     * it through a stream); {@code null} otherwise. The buffer is positioned at the first byte and limited to
     * {@link #length()}; each call returns a new one.
     */
    default ByteBuffer asByteBuffer() {
        return null;
    }

    /** A source over an in-memory array; the array must not be modified afterwards. */
    static BlobSource ofBytes(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        return ofBytes(bytes, 0, bytes.length);
    }

    /** A source over {@code length} bytes of {@code bytes} from {@code offset}; not copied, must not change. */
    static BlobSource ofBytes(byte[] bytes, int offset, int length) {
        Objects.requireNonNull(bytes, "bytes");
        if (offset < 0 || length < 0 || offset > bytes.length - length) {
            throw new IndexOutOfBoundsException("Range [" + offset + ", " + offset + " + " + length
                    + ") out of bounds for length " + bytes.length);
        }
        return new BlobSource() {
            @Override
            public long length() {
                return length;
            }

            @Override
            public InputStream open() {
                return new ByteArrayInputStream(bytes, offset, length);
            }

            @Override
            public ByteBuffer asByteBuffer() {
                return ByteBuffer.wrap(bytes, offset, length).slice().asReadOnlyBuffer();
            }
        };
    }
}
