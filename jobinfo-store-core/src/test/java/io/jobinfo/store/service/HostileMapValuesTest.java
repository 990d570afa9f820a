package io.jobinfo.store.service;

import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.lifecycle.InlineJobInfo;
import io.jobinfo.store.lifecycle.JobInfoSerialization;
import io.jobinfo.store.lifecycle.DeleteMarker;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import com.hazelcast.internal.serialization.impl.HeapData;
import com.hazelcast.nio.serialization.HazelcastSerializationException;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.EnvelopeHeader;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 23, fault class "hostile lengths", for the map values of this library: a value of a few dozen bytes whose
 * length fields claim a huge byte array or string fails to deserialize with an error naming the job and the field,
 * quickly and without allocating the claimed size. Before the fix, an {@link InlineJobInfo} claiming a 2 GiB job
 * made Hazelcast's {@code readByteArray} allocate it first: {@link OutOfMemoryError} wherever the map was read.
 */
class HostileMapValuesTest {

    private static final long ALLOCATION_BOUND = 4L << 20;
    /** Hazelcast's Data header (8) and the identified-serializable header (9). */
    private static final int HEADERS = 17;

    private final InternalSerializationService serialization = new DefaultSerializationServiceBuilder()
            .addDataSerializableFactory(JobInfoSerialization.FACTORY_ID, new JobInfoSerialization.Factory()).build();

    @AfterEach
    void close() {
        serialization.dispose();
    }

    @Test
    void anInlineJobClaimingTwoGibibytesFailsClearlyInBoundedMemory() {
        byte[] bytes = serialization.toData(new InlineJobInfo(11, 1, new byte[] {1, 2, 3})).toByteArray();
        int lengthAt = HEADERS + 8 + 2; // timestamp, codec id
        assertThat(ByteBuffer.wrap(bytes).getInt(lengthAt)).isEqualTo(3);
        for (int claimed : new int[] {Integer.MAX_VALUE - 16, 1 << 30, 4}) {
            ByteBuffer.wrap(bytes).putInt(lengthAt, claimed);
            Throwable t = measured(bytes);
            assertThat(t).as("claiming %d", claimed).isInstanceOf(HazelcastSerializationException.class);
            assertThat(messages(t)).as("claiming %d", claimed).contains("inline job info")
                    .contains("encoded job claims " + claimed + " bytes").contains("value ends after 3");
        }
        ByteBuffer.wrap(bytes).putInt(lengthAt, -7);
        assertThat(messages(measured(bytes))).contains("encoded job claims a negative length -7");
        ByteBuffer.wrap(bytes).putInt(lengthAt, 3);
        InlineJobInfo back = serialization.toObject(new HeapData(bytes));
        assertThat(back.encodedJob()).containsExactly(1, 2, 3);
    }

    @Test
    void aPointerOrDeleteMarkerClaimingAHugeStringFailsClearlyInBoundedMemory() {
        byte[] payload = {1, 2, 3};
        EnvelopeHeader header = BlobEnvelope.headerFor(12, 1, payload);
        byte[] pointer = serialization.toData(new JobInfoPointer(12, 99, "store-a", header)).toByteArray();
        int storeAt = HEADERS + 8 + 8 + 8 + 4 + 16 + 2 + 1;
        assertThat(ByteBuffer.wrap(pointer).getInt(storeAt)).isEqualTo("store-a".length());
        byte[] marker = serialization.toData(DeleteMarker.claim(13, "member-1", Instant.now())).toByteArray();
        int ownerAt = HEADERS + 8 + 8 + 8 + 8;
        assertThat(ByteBuffer.wrap(marker).getInt(ownerAt)).isEqualTo("member-1".length());
        for (int claimed : new int[] {Integer.MAX_VALUE - 16, 1 << 30}) {
            ByteBuffer.wrap(pointer).putInt(storeAt, claimed);
            assertThat(messages(measured(pointer))).as("claiming %d", claimed)
                    .contains("store id of the job info pointer of job 12 cannot be read");
            ByteBuffer.wrap(marker).putInt(ownerAt, claimed);
            assertThat(messages(measured(marker))).as("claiming %d", claimed)
                    .contains("owner of the delete marker of job 13 cannot be read");
        }
    }

    /** Deserializes on this thread; checks it threw (no Error), fast and in bounded memory; returns what it threw. */
    private Throwable measured(byte[] bytes) {
        Data data = new HeapData(Arrays.copyOf(bytes, bytes.length));
        long before = allocatedBytes();
        long start = System.nanoTime();
        Throwable thrown = null;
        try {
            serialization.toObject(data);
        } catch (Throwable t) {
            thrown = t;
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        long allocated = allocatedBytes() - before;
        assertThat(thrown).as("%d hostile bytes deserialized", bytes.length).isNotNull();
        assertThat(thrown).as("deserializing %d hostile bytes", bytes.length).isNotInstanceOf(Error.class);
        assertThat(allocated).as("bytes allocated deserializing %d hostile bytes (%s)", bytes.length, thrown)
                .isLessThan(ALLOCATION_BOUND);
        assertThat(millis).as("ms to refuse %d hostile bytes", bytes.length).isLessThan(2_000);
        return thrown;
    }

    private static String messages(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            b.append(c).append(" | ");
        }
        return b.toString();
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
