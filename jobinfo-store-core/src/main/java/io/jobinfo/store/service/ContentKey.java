package io.jobinfo.store.service;

import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.lifecycle.InlineJobInfo;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * What a map value says a job's content is, so that a cached job can be compared with the map's current value
 * without reading the blob: for a {@link JobInfoPointer}, the pointer itself (job id, store id, payload length,
 * CRC32C, SHA-256 prefix, codec, format version, initialization timestamp); for an {@link InlineJobInfo}, job id,
 * initialization timestamp, codec, length and the SHA-256 of the encoded job. Two values with equal keys describe the
 * same job; a removed-and-resubmitted job with other bytes gets another key.
 */
final class ContentKey {

    private final long jobId;
    private final Object identity;

    private ContentKey(long jobId, Object identity) {
        this.jobId = jobId;
        this.identity = identity;
    }

    /** The key of {@code value} (a pointer or an inline job); {@code null} for a value of any other kind. */
    static ContentKey of(long jobId, Object value) {
        if (value instanceof JobInfoPointer) {
            return new ContentKey(jobId, value);
        }
        if (value instanceof InlineJobInfo) {
            InlineJobInfo inline = (InlineJobInfo) value;
            return new ContentKey(jobId, new InlineIdentity(inline.initializationTimestamp(), inline.codecId(),
                    inline.encodedLength(), sha256(inline.encodedJob())));
        }
        return null;
    }

    long jobId() {
        return jobId;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ContentKey)) {
            return false;
        }
        ContentKey k = (ContentKey) o;
        return jobId == k.jobId && identity.equals(k.identity);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(jobId) * 31 + identity.hashCode();
    }

    @Override
    public String toString() {
        return "ContentKey[jobId=" + jobId + ", " + identity + "]";
    }

    private static final class InlineIdentity {
        private final long initializationTimestamp;
        private final int codecId;
        private final int length;
        private final byte[] sha256;

        InlineIdentity(long initializationTimestamp, int codecId, int length, byte[] sha256) {
            this.initializationTimestamp = initializationTimestamp;
            this.codecId = codecId;
            this.length = length;
            this.sha256 = sha256;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof InlineIdentity)) {
                return false;
            }
            InlineIdentity i = (InlineIdentity) o;
            return initializationTimestamp == i.initializationTimestamp && codecId == i.codecId
                    && length == i.length && Arrays.equals(sha256, i.sha256);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(sha256);
        }

        @Override
        public String toString() {
            return "inline[initializedAt=" + initializationTimestamp + ", codec=" + codecId + ", length=" + length
                    + "]";
        }
    }
}
