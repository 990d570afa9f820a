package io.jobinfo.store.seatunnel;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.codec.CodecException;
import io.jobinfo.store.seatunnel.dropin.JobInfoReferenceSerializer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.seatunnel.engine.core.serializable.JobDataSerializerHook;
import org.junit.jupiter.api.Test;

/**
 * Issue 23, fault class "hostile lengths", for SeaTunnel's job bytes and the drop-in's reference: a few dozen bytes
 * whose length fields claim a huge name, DAG, vertex count or store id fail with a {@link CodecException} (an
 * {@link IOException} for a reference) naming the field, the claimed and the available size, without allocating
 * the claimed size. Both readers already checked every length against the bytes left; this pins it down.
 */
class SeaTunnelHostileLengthsTest {

    private static final long ALLOCATION_BOUND = 4L << 20;
    private static final long JOB = 77;

    /** Data header, identified-serializable header of a JobImmutableInformation, job id; then {@code rest}. */
    private static byte[] job(byte[] rest) {
        ByteBuffer b = ByteBuffer.allocate(8 + 9 + 8 + rest.length);
        b.putInt(0).putInt(SeaTunnelJobDataCodec.TYPE_DATA_SERIALIZABLE);
        b.put((byte) 1).putInt(JobDataSerializerHook.FACTORY_ID)
                .putInt(JobDataSerializerHook.JOB_IMMUTABLE_INFORMATION);
        b.putLong(JOB).put(rest);
        return b.array();
    }

    /** Job name "x", not from a savepoint, a create time; then {@code rest}. */
    private static byte[] afterName(ByteBuffer rest) {
        ByteBuffer b = ByteBuffer.allocate(4 + 1 + 1 + 8 + rest.remaining());
        b.putInt(1).put((byte) 'x').put((byte) 0).putLong(1_700_000_000_000L).put(rest);
        return job(b.array());
    }

    @Test
    void aHugeJobNameDagOrVertexCountFailsClearlyInBoundedMemory() {
        byte[] name = job(ByteBuffer.allocate(6).putInt(Integer.MAX_VALUE).put(new byte[] {'a', 'b'}).array());
        assertThat(refused(name)).contains("SeaTunnel job " + JOB)
                .contains("job name length " + Integer.MAX_VALUE + " at offset 25 does not fit the 2 remaining bytes");

        byte[] dag = afterName(ByteBuffer.allocate(12).putInt(Integer.MAX_VALUE).putInt(0).putInt(-2).flip());
        assertThat(refused(dag)).contains("SeaTunnel job " + JOB)
                .contains("the logical DAG declares " + Integer.MAX_VALUE + " bytes at offset 39 but 8 remain");

        byte[] vertices = afterName(ByteBuffer.allocate(12).putInt(1 << 30).putInt(5).putInt(0).flip());
        assertThat(refused(vertices)).contains("SeaTunnel job " + JOB)
                .contains("logical vertex count " + (1 << 30) + " at offset 39 does not fit the 8 remaining bytes");
    }

    @Test
    void aReferenceClaimingAHugeStoreIdFailsClearlyInBoundedMemory() {
        ByteBuffer b = ByteBuffer.allocate(ReferenceData.HEADER_AND_FIELDS + 3);
        b.putInt(0).putInt(JobInfoReferenceSerializer.TYPE_ID).putLong(JOB).putLong(1).putLong(3).putInt(0)
                .put(new byte[16]).putShort((short) 1).put((byte) 2).putInt(Integer.MAX_VALUE)
                .put("abc".getBytes(StandardCharsets.UTF_8));
        long before = allocatedBytes();
        Throwable t = null;
        try {
            ReferenceData.pointer(b.array());
        } catch (Throwable e) {
            t = e;
        }
        assertThat(allocatedBytes() - before).isLessThan(ALLOCATION_BOUND);
        assertThat(t).isInstanceOf(IOException.class).hasMessageContaining("reference of job " + JOB)
                .hasMessageContaining("invalid store id length " + Integer.MAX_VALUE);
    }

    /** Inspects on this thread; checks it threw a CodecException, fast and in bounded memory; returns its message. */
    private static String refused(byte[] bytes) {
        assertThat(bytes.length).isLessThan(64);
        long before = allocatedBytes();
        long start = System.nanoTime();
        Throwable thrown = null;
        try {
            SeaTunnelJobDataCodec.inspect(bytes);
        } catch (Throwable t) {
            thrown = t;
        }
        assertThat(allocatedBytes() - before).as("bytes allocated inspecting %d hostile bytes", bytes.length)
                .isLessThan(ALLOCATION_BOUND);
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(2_000);
        assertThat(thrown).isInstanceOf(CodecException.class);
        return thrown.getMessage();
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
