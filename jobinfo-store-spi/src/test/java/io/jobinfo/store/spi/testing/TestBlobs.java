package io.jobinfo.store.spi.testing;

import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.envelope.BlobSource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

/** Payloads and damaged envelopes for store tests. */
public final class TestBlobs {

    private TestBlobs() {
    }

    public static byte[] randomPayload(long seed, int size) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** A small payload that names its job id, so a blob read for the wrong id is noticed. */
    public static byte[] payloadNamed(long jobId) {
        return ("payload of job " + jobId + " " + "x".repeat((int) Math.floorMod(jobId, 97L)))
                .getBytes(StandardCharsets.UTF_8);
    }

    /** A copy of {@code bytes} with bit {@code bitIndex} inverted. */
    public static byte[] flipBit(byte[] bytes, long bitIndex) {
        byte[] copy = bytes.clone();
        copy[(int) (bitIndex / 8)] ^= (byte) (1 << (bitIndex % 8));
        return copy;
    }

    /** A copy with another format version written into the header, header checksum recomputed. */
    public static byte[] withVersion(byte[] envelope, int version) {
        byte[] copy = envelope.clone();
        ByteBuffer buf = ByteBuffer.wrap(copy);
        buf.putShort(4, (short) version);
        CRC32C crc = new CRC32C();
        crc.update(copy, 0, EnvelopeHeader.LENGTH - 4);
        buf.putInt(EnvelopeHeader.LENGTH - 4, (int) crc.getValue());
        return copy;
    }

    /** A copy whose header declares payload CRC32C {@code crc}, header checksum recomputed (a consistent lie). */
    public static byte[] withPayloadCrc32c(byte[] envelope, int crc) {
        byte[] copy = envelope.clone();
        ByteBuffer.wrap(copy).putInt(28, crc);
        return withHeaderChecksum(copy);
    }

    /** A copy whose header declares payload SHA-256 {@code sha}, header checksum recomputed. */
    public static byte[] withPayloadSha256(byte[] envelope, byte[] sha) {
        byte[] copy = envelope.clone();
        System.arraycopy(sha, 0, copy, 32, 32);
        return withHeaderChecksum(copy);
    }

    /** A source that declares {@code envelope.length} bytes but whose stream ends {@code shortBy} bytes early. */
    public static BlobSource yieldingFewerBytes(byte[] envelope, int shortBy) {
        return new BlobSource() {
            @Override
            public long length() {
                return envelope.length;
            }

            @Override
            public InputStream open() {
                return new ByteArrayInputStream(envelope, 0, envelope.length - shortBy);
            }
        };
    }

    /** A source that declares {@code envelope.length} bytes but whose stream yields {@code extra} more after them. */
    public static BlobSource yieldingMoreBytes(byte[] envelope, int extra) {
        byte[] longer = java.util.Arrays.copyOf(envelope, envelope.length + extra);
        return new BlobSource() {
            @Override
            public long length() {
                return envelope.length;
            }

            @Override
            public InputStream open() {
                return new ByteArrayInputStream(longer);
            }
        };
    }

    private static byte[] withHeaderChecksum(byte[] copy) {
        CRC32C crc = new CRC32C();
        crc.update(copy, 0, EnvelopeHeader.LENGTH - 4);
        ByteBuffer.wrap(copy).putInt(EnvelopeHeader.LENGTH - 4, (int) crc.getValue());
        return copy;
    }

    /** A re-openable source of {@code size} pseudo-random bytes that is never held in memory. */
    public static BlobSource pseudoRandomSource(long seed, long size) {
        return new BlobSource() {
            @Override
            public long length() {
                return size;
            }

            @Override
            public InputStream open() {
                return new InputStream() {
                    private final SplittableRandom random = new SplittableRandom(seed);
                    private long remaining = size;
                    private final byte[] one = new byte[1];

                    @Override
                    public int read() {
                        int n = read(one, 0, 1);
                        return n < 0 ? -1 : one[0] & 0xFF;
                    }

                    @Override
                    public int read(byte[] b, int off, int len) {
                        if (remaining <= 0) {
                            return -1;
                        }
                        int n = (int) Math.min(len, remaining);
                        for (int i = 0; i < n; i++) {
                            b[off + i] = (byte) random.nextInt(256);
                        }
                        remaining -= n;
                        return n;
                    }
                };
            }
        };
    }

    /**
     * Yields {@code bytes}, but once {@code pauseAt} bytes have been read it signals {@code paused} and waits for
     * {@code resume}: a write caught half-way.
     */
    public static final class PausingInputStream extends InputStream {
        private final ByteArrayInputStream in;
        private final long pauseAt;
        private final CountDownLatch paused;
        private final CountDownLatch resume;
        private long position;

        public PausingInputStream(byte[] bytes, long pauseAt, CountDownLatch paused, CountDownLatch resume) {
            this.in = new ByteArrayInputStream(bytes);
            this.pauseAt = pauseAt;
            this.paused = paused;
            this.resume = resume;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (position >= pauseAt) {
                paused.countDown();
                try {
                    if (!resume.await(2, TimeUnit.MINUTES)) {
                        throw new InterruptedIOException("test never resumed the write");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted");
                }
            } else {
                len = (int) Math.min(len, pauseAt - position);
            }
            int n = in.read(b, off, len);
            if (n > 0) {
                position += n;
            }
            return n;
        }

        @Override
        public int available() {
            return 0;
        }
    }
}
