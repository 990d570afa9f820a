package io.jobinfo.store.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.location.Location;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * Issue 23, fault class "hostile lengths", for the envelope: a blob that is only a (valid, checksummed) header whose
 * payload length claims gigabytes fails with an error naming claimed and present size, without allocating the
 * claimed size. The envelope already bounded this (declared lengths above 16 MiB are allocated as the bytes
 * arrive, above 2 GiB refused); this pins it down.
 */
class EnvelopeHostileLengthsTest {

    private static final long ALLOCATION_BOUND = 4L << 20;

    private static byte[] headerOnly(long payloadLength) {
        return new EnvelopeHeader(EnvelopeHeader.CURRENT_VERSION, 1, 5, payloadLength, 0, new byte[32]).toBytes();
    }

    @Test
    void aHeaderClaimingGigabytesOfPayloadFailsInBoundedMemory() {
        assertThat(refused(headerOnly(Integer.MAX_VALUE - 17L))).isInstanceOf(EnvelopeFormatException.class)
                .hasMessageContaining("truncated payload: 0 of " + (Integer.MAX_VALUE - 17L) + " bytes");
        assertThat(refused(headerOnly(1L << 30))).isInstanceOf(EnvelopeFormatException.class)
                .hasMessageContaining("truncated payload: 0 of " + (1L << 30) + " bytes");
        assertThat(refused(headerOnly(1L << 40))).isInstanceOf(IOException.class)
                .hasMessageContaining("payload of " + (1L << 40) + " bytes does not fit in memory");
    }

    private static Throwable refused(byte[] blob) {
        long before = allocatedBytes();
        Throwable thrown = null;
        try {
            BlobEnvelope.readVerified(new ByteArrayInputStream(blob), 5, Location.of("test:5"));
        } catch (Throwable t) {
            thrown = t;
        }
        assertThat(allocatedBytes() - before).as("bytes allocated reading a %d-byte blob", blob.length)
                .isLessThan(ALLOCATION_BOUND);
        assertThat(thrown).isNotNull().isNotInstanceOf(Error.class);
        return thrown;
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
