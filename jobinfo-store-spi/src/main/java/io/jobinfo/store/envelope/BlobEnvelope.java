package io.jobinfo.store.envelope;

import io.jobinfo.store.codec.EncodedPayload;
import io.jobinfo.store.location.Location;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.zip.Checksum;

/**
 * Builds and verifies envelopes: a {@link EnvelopeHeader} followed by the payload. Every blob a store holds is an
 * envelope, so that a reader can tell a complete, intact blob from anything else before using a byte of it.
 */
public final class BlobEnvelope {

    private static final int BUFFER = 64 * 1024;
    /** Payloads up to this size are read straight into an array of their declared length. */
    private static final int DIRECT_READ_LIMIT = 16 << 20;

    private BlobEnvelope() {
    }

    /** Wraps an in-memory payload, without an initialization timestamp. */
    public static byte[] wrap(long jobId, int codecId, byte[] payload) {
        return wrap(jobId, codecId, EnvelopeHeader.NO_TIMESTAMP, payload);
    }

    /**
     * Wraps an in-memory payload in a current-version envelope that records the job's initialization timestamp (so
     * that its pointer can be rebuilt from the blob alone).
     */
    public static byte[] wrap(long jobId, int codecId, long initializationTimestamp, byte[] payload) {
        EnvelopeHeader header = headerFor(jobId, codecId, initializationTimestamp, payload);
        byte[] out = Arrays.copyOf(header.toBytes(), EnvelopeHeader.LENGTH + payload.length);
        System.arraycopy(payload, 0, out, EnvelopeHeader.LENGTH, payload.length);
        return out;
    }

    /**
     * Builds the envelope around a payload encoded with header room ({@code payload.offset()} must be
     * {@link EnvelopeHeader#LENGTH}): computes the checksums, writes the header into the room, and returns it. The
     * envelope is then {@code payload.buffer()[0 .. LENGTH + payload.length())}; nothing is copied.
     */
    public static EnvelopeHeader wrapInPlace(long jobId, int codecId, EncodedPayload payload) {
        return wrapInPlace(jobId, codecId, EnvelopeHeader.NO_TIMESTAMP, payload);
    }

    /** {@link #wrapInPlace(long, int, EncodedPayload)}, recording the job's initialization timestamp. */
    public static EnvelopeHeader wrapInPlace(long jobId, int codecId, long initializationTimestamp,
            EncodedPayload payload) {
        if (payload.offset() != EnvelopeHeader.LENGTH) {
            throw new IllegalArgumentException("the payload must leave exactly " + EnvelopeHeader.LENGTH
                    + " bytes of header room, not " + payload.offset());
        }
        Checksum crc = Crc32c.create();
        crc.update(payload.buffer(), payload.offset(), payload.length());
        MessageDigest sha = sha256();
        sha.update(payload.buffer(), payload.offset(), payload.length());
        EnvelopeHeader header = new EnvelopeHeader(EnvelopeHeader.CURRENT_VERSION, codecId, jobId, payload.length(),
                (int) crc.getValue(), sha.digest(), initializationTimestamp);
        System.arraycopy(header.toBytes(), 0, payload.buffer(), 0, EnvelopeHeader.LENGTH);
        return header;
    }

    /**
     * {@link #wrapInPlace(long, int, long, EncodedPayload)}, returned as a {@link SealedEnvelope}: a blob source a
     * store's {@code create} accepts without computing the payload's SHA-256 a second time.
     */
    public static SealedEnvelope seal(long jobId, int codecId, long initializationTimestamp, EncodedPayload payload) {
        EnvelopeHeader header = wrapInPlace(jobId, codecId, initializationTimestamp, payload);
        return new SealedEnvelope(header, header.toBytes(), payload.buffer());
    }

    /** The header an envelope of {@code payload} carries (without an initialization timestamp). */
    public static EnvelopeHeader headerFor(long jobId, int codecId, byte[] payload) {
        return headerFor(jobId, codecId, EnvelopeHeader.NO_TIMESTAMP, payload);
    }

    /** The header an envelope of {@code payload} carries, recording the job's initialization timestamp. */
    public static EnvelopeHeader headerFor(long jobId, int codecId, long initializationTimestamp, byte[] payload) {
        Checksum crc = Crc32c.create();
        crc.update(payload, 0, payload.length);
        byte[] sha = sha256().digest(payload);
        return new EnvelopeHeader(EnvelopeHeader.CURRENT_VERSION, codecId, jobId, payload.length,
                (int) crc.getValue(), sha, initializationTimestamp);
    }

    /**
     * Wraps a payload of any size without holding it in memory: reads {@code payload} once to compute the checksums,
     * then returns a source that streams header and payload.
     */
    public static BlobSource wrap(long jobId, int codecId, BlobSource payload) throws IOException {
        Checksum crc = Crc32c.create();
        MessageDigest sha = sha256();
        long length = 0;
        byte[] buf = new byte[BUFFER];
        try (InputStream in = payload.open()) {
            int n;
            while ((n = in.read(buf)) > 0) {
                crc.update(buf, 0, n);
                sha.update(buf, 0, n);
                length += n;
            }
        }
        if (length != payload.length()) {
            throw new IOException("payload source yielded " + length + " bytes but declares " + payload.length());
        }
        byte[] header = new EnvelopeHeader(EnvelopeHeader.CURRENT_VERSION, codecId, jobId, length,
                (int) crc.getValue(), sha.digest()).toBytes();
        long total = header.length + length;
        return new BlobSource() {
            @Override
            public long length() {
                return total;
            }

            @Override
            public InputStream open() throws IOException {
                return new SequenceInputStream(new java.io.ByteArrayInputStream(header), payload.open());
            }
        };
    }

    /**
     * Reads just the header (of either version) from the start of {@code in}, leaving the stream at the first
     * payload byte.
     */
    public static EnvelopeHeader readHeader(InputStream in) throws IOException, EnvelopeFormatException {
        byte[] bytes = new byte[EnvelopeHeader.V2_LENGTH];
        int n = readFully(in, bytes, 0, EnvelopeHeader.PREFIX);
        int length = EnvelopeHeader.announcedLength(bytes, n);
        n += readFully(in, bytes, n, length - n);
        return EnvelopeHeader.parse(bytes, n);
    }

    /**
     * Reads a whole envelope from {@code in} into memory and verifies it.
     *
     * @param expectedJobId the job id the blob must belong to
     * @throws EnvelopeFormatException naming the first problem found
     */
    public static VerifiedBlob readVerified(InputStream in, long expectedJobId, Location location)
            throws IOException, EnvelopeFormatException {
        return readVerified(in, expectedJobId, location, ReadVerification.FULL);
    }

    /**
     * Reads a whole envelope from {@code in} into memory and verifies it to {@code level}: header, job id and length
     * always, the payload's CRC32C always, its SHA-256 only at {@link ReadVerification#FULL}.
     *
     * @throws EnvelopeFormatException naming the first problem found
     */
    public static VerifiedBlob readVerified(InputStream in, long expectedJobId, Location location,
            ReadVerification level) throws IOException, EnvelopeFormatException {
        EnvelopeHeader header = readHeader(in);
        checkJobId(header, expectedJobId);
        if (header.payloadLength() > Integer.MAX_VALUE - 16) {
            throw new IOException("payload of " + header.payloadLength()
                    + " bytes does not fit in memory; stream it with BlobEnvelope.copyVerified over the store's"
                    + " openRaw(jobId)");
        }
        int length = (int) header.payloadLength();
        byte[] payload;
        if (length <= DIRECT_READ_LIMIT) {
            // One read into the final array. InputStream.readNBytes(int) reads in 8 KiB chunks and copies them all
            // again at the end (JDK 17), which cost more than the read itself on the restore path.
            payload = new byte[length];
            int n = readFully(in, payload, 0, length);
            if (n < length) {
                throw new EnvelopeFormatException("truncated payload: " + n + " of " + length + " bytes");
            }
        } else {
            // a large declared length is only allocated as the bytes actually arrive
            payload = readUpTo(in, length);
            if (payload.length < length) {
                throw new EnvelopeFormatException("truncated payload: " + payload.length + " of " + length
                        + " bytes");
            }
        }
        if (in.read() != -1) {
            throw new EnvelopeFormatException("trailing bytes after the " + length + "-byte payload");
        }
        if (level == ReadVerification.CRC32C) {
            int crc = Crc32c.of(payload, 0, payload.length);
            if (crc != header.payloadCrc32c()) {
                throw new EnvelopeFormatException("CRC32C mismatch: stored "
                        + Integer.toHexString(header.payloadCrc32c()) + ", computed " + Integer.toHexString(crc));
            }
            return VerifiedBlob.of(header, payload, location, ReadVerification.CRC32C);
        }
        verifyChecksums(header, payload, 0, payload.length);
        return VerifiedBlob.of(header, payload, location);
    }

    /** Verifies an envelope held in memory and returns its payload. */
    public static VerifiedBlob verify(byte[] envelope, long expectedJobId, Location location)
            throws EnvelopeFormatException {
        try {
            return readVerified(new java.io.ByteArrayInputStream(envelope), expectedJobId, location);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Streams the payload of the envelope in {@code in} to {@code out}, verifying length and checksums. What was
     * written to {@code out} is only valid if this returns normally.
     *
     * @return the verified header
     */
    public static EnvelopeHeader copyVerified(InputStream in, OutputStream out, long expectedJobId)
            throws IOException, EnvelopeFormatException {
        EnvelopeHeader header = readHeader(in);
        checkJobId(header, expectedJobId);
        copyPayload(in, out, header);
        return header;
    }

    private static void copyPayload(InputStream in, OutputStream out, EnvelopeHeader header)
            throws IOException, EnvelopeFormatException {
        Checksum crc = Crc32c.create();
        MessageDigest sha = sha256();
        long remaining = header.payloadLength();
        byte[] buf = new byte[BUFFER];
        while (remaining > 0) {
            int n = in.read(buf, 0, (int) Math.min(buf.length, remaining));
            if (n < 0) {
                throw new EnvelopeFormatException("truncated payload: " + (header.payloadLength() - remaining)
                        + " of " + header.payloadLength() + " bytes");
            }
            crc.update(buf, 0, n);
            sha.update(buf, 0, n);
            out.write(buf, 0, n);
            remaining -= n;
        }
        if (in.read() != -1) {
            throw new EnvelopeFormatException("trailing bytes after the " + header.payloadLength() + "-byte payload");
        }
        checkDigests(header, (int) crc.getValue(), sha.digest());
    }

    /**
     * Reads the payload that follows an already parsed {@code header} from {@code in} and checks it against the
     * header: exactly {@code payloadLength} bytes, nothing after them, CRC32C and SHA-256 equal.
     *
     * @throws EnvelopeFormatException naming the first mismatch (truncated, trailing bytes, CRC32C or SHA-256)
     */
    public static void verifyPayload(InputStream in, EnvelopeHeader header)
            throws IOException, EnvelopeFormatException {
        copyPayload(in, DISCARD, header);
    }

    /** Verifies that a stream holds exactly the envelope {@code header} describes (for write-once comparisons). */
    public static EnvelopeHeader verifyStream(InputStream in, long expectedJobId)
            throws IOException, EnvelopeFormatException {
        return copyVerified(in, DISCARD, expectedJobId);
    }

    /**
     * Reads until {@code length} bytes are in {@code into} from {@code offset} or the stream ends.
     *
     * @return how many bytes were read: {@code length}, or fewer if the stream ended first
     */
    static int readFully(InputStream in, byte[] into, int offset, int length) throws IOException {
        int total = 0;
        while (total < length) {
            int n = in.read(into, offset + total, length - total);
            if (n < 0) {
                break;
            }
            total += n;
        }
        return total;
    }

    /** Reads up to {@code length} bytes, allocating only as they arrive; fewer if the stream ends first. */
    private static byte[] readUpTo(InputStream in, int length) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(BUFFER);
        byte[] buf = new byte[BUFFER];
        int remaining = length;
        while (remaining > 0) {
            int n = in.read(buf, 0, Math.min(buf.length, remaining));
            if (n < 0) {
                break;
            }
            out.write(buf, 0, n);
            remaining -= n;
        }
        return out.toByteArray();
    }

    private static final OutputStream DISCARD = new OutputStream() {
        @Override
        public void write(int b) {
            // discarded
        }

        @Override
        public void write(byte[] b, int off, int len) {
            // discarded
        }
    };

    private static void checkJobId(EnvelopeHeader header, long expectedJobId) throws EnvelopeFormatException {
        if (header.jobId() != expectedJobId) {
            throw new EnvelopeFormatException("blob belongs to job " + header.jobId() + ", not to job "
                    + expectedJobId);
        }
    }

    private static void verifyChecksums(EnvelopeHeader header, byte[] payload, int off, int len)
            throws EnvelopeFormatException {
        Checksum crc = Crc32c.create();
        crc.update(payload, off, len);
        MessageDigest sha = sha256();
        sha.update(payload, off, len);
        checkDigests(header, (int) crc.getValue(), sha.digest());
    }

    private static void checkDigests(EnvelopeHeader header, int crc, byte[] sha) throws EnvelopeFormatException {
        if (crc != header.payloadCrc32c()) {
            throw new EnvelopeFormatException("CRC32C mismatch: stored " + Integer.toHexString(header.payloadCrc32c())
                    + ", computed " + Integer.toHexString(crc));
        }
        if (!MessageDigest.isEqual(sha, header.payloadSha256())) {
            throw new EnvelopeFormatException("SHA-256 mismatch");
        }
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }
}
