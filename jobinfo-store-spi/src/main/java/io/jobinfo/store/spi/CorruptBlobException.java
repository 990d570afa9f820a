package io.jobinfo.store.spi;

import io.jobinfo.store.location.Location;
/**
 * The stored bytes are not a valid blob: bad magic, unknown format version or codec, wrong length (truncated or
 * extended), or a checksum mismatch. No byte of such a blob is ever handed to a caller as valid data. The blob is left
 * in place for inspection ({@code jobinfo-store inspect}); nothing is deleted automatically.
 */
public class CorruptBlobException extends JobInfoStoreException {
    private static final long serialVersionUID = 1L;

    public CorruptBlobException(String reason, Long jobId, Location location) {
        super("Corrupt job blob: " + reason, jobId, location);
    }

    public CorruptBlobException(String reason, Long jobId, Location location, Throwable cause) {
        super("Corrupt job blob: " + reason, jobId, location, cause);
    }
}
