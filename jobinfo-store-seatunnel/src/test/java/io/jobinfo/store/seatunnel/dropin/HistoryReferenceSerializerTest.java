package io.jobinfo.store.seatunnel.dropin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.config.SerializationConfig;
import com.hazelcast.config.SerializerConfig;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import com.hazelcast.internal.serialization.impl.HeapData;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.HazelcastSerializationException;
import io.jobinfo.store.codec.CodecException;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * The compact history reference ("JIH2") on Hazelcast's own serialization service, beside the first format ("JIH1"),
 * which is still read: its size, what it records, and that bytes which are no reference, or a process without the
 * drop-in, get an error naming the job. Reading a reference back into the value needs a running drop-in: that is
 * {@code DropInHistoryMapsTest}'s (module seatunnel-it, real SeaTunnel clusters).
 */
class HistoryReferenceSerializerTest {

    private static final String STORE_ID = "history-store-16"; // the longest store id: 16 characters
    private static final long EXPIRES_AT = 1_900_000_000_123L;

    private final InternalSerializationService serialization = new DefaultSerializationServiceBuilder()
            .setConfig(new SerializationConfig()
                    .addSerializerConfig(new SerializerConfig().setTypeClass(HistoryReference.class)
                            .setImplementation(new HistoryReferenceSerializer()))
                    .addSerializerConfig(new SerializerConfig().setTypeClass(HistoryReferenceV1Serializer.V1.class)
                            .setImplementation(new HistoryReferenceV1Serializer())))
            .build();

    private static JobInfoPointer pointer(long jobId, int codec) {
        EnvelopeHeader header = BlobEnvelope.headerFor(jobId, codec, EXPIRES_AT, new byte[5000]);
        return new JobInfoPointer(jobId, EXPIRES_AT, STORE_ID, header);
    }

    /** What the first format wrote: the whole pointer, then the expiry. */
    private Data firstFormat(JobInfoPointer pointer) throws Exception {
        ObjectDataOutput out = serialization.createObjectDataOutput();
        pointer.writeData(out);
        out.writeLong(EXPIRES_AT);
        byte[] body = ((com.hazelcast.internal.nio.BufferObjectDataOutput) out).toByteArray();
        ByteBuffer data = ByteBuffer.allocate(8 + body.length);
        data.putInt(0).putInt(HistoryReferenceV1Serializer.TYPE_ID).put(body);
        return new HeapData(data.array());
    }

    @Test
    void aCompactReferenceTakes50BytesAgainst83AndRecordsTheExpiryOnce() throws Exception {
        Data compact = serialization.toData(new HistoryReference(pointer(42, HistoryMover.CODEC_ID),
                HistoryMaps.DAG));
        assertThat(compact.getType()).isEqualTo(HistoryReferenceSerializer.TYPE_ID);
        assertThat(compact.totalSize()).isEqualTo(8 + HistoryReferenceSerializer.BYTES).isEqualTo(50);
        Data first = firstFormat(pointer(42, HistoryMover.CODEC_ID));
        assertThat(first.totalSize()).as("the first format, with the same pointer").isEqualTo(83);

        for (Data reference : new Data[] {compact, first}) {
            assertThat(HistoryReferenceSerializer.isReference(reference.getType())).isTrue();
            assertThat(HistoryReferenceSerializer.expiresAt(reference.getType(),
                    serialization.createObjectDataInput(reference))).isEqualTo(EXPIRES_AT);
        }
        assertThat(HistoryReferenceSerializer.isReference(JobInfoReferenceSerializer.TYPE_ID)).isFalse();
        assertThat((Object) serialization.toData(new HistoryReference(pointer(42, HistoryMover.CODEC_ID), HistoryMaps.DAG)))
                .as("the same reference, the same bytes (the mover's compare-and-set relies on it)").isEqualTo(compact);
    }

    @Test
    void aProcessWithoutTheDropInGetsAnErrorNamingTheJobAndTheMapNeverAValue() throws Exception {
        Data compact = serialization.toData(new HistoryReference(pointer(43, HistoryMover.CODEC_ID),
                HistoryMaps.STATE));
        assertThatThrownBy(() -> serialization.toObject(compact)).isInstanceOf(HazelcastSerializationException.class)
                .hasMessageContaining("job 43").hasMessageContaining(HistoryMaps.STATE)
                .hasMessageContaining("runs no jobinfo-store drop-in");
        Data first = firstFormat(pointer(44, HistoryMover.CODEC_ID));
        assertThatThrownBy(() -> serialization.toObject(first)).isInstanceOf(HazelcastSerializationException.class)
                .hasMessageContaining("job 44").hasMessageContaining(STORE_ID);
    }

    @Test
    void bytesThatAreNoReferenceAreRefusedByName() {
        byte[] body = new byte[HistoryReferenceSerializer.BYTES];
        body[0] = 7; // map number 7: there are three
        ByteBuffer data = ByteBuffer.allocate(8 + body.length);
        data.putInt(0).putInt(HistoryReferenceSerializer.TYPE_ID).put(body);
        assertThatThrownBy(() -> serialization.toObject(new HeapData(data.array())))
                .isInstanceOf(HazelcastSerializationException.class).hasMessageContaining("map number 7");
        assertThatThrownBy(() -> new HistoryReference(pointer(1, HistoryMover.CODEC_ID), "engine_runningJobInfo"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not one of SeaTunnel's history maps");
        assertThatThrownBy(() -> serialization.toData(new HistoryReference(pointer(1, 2), HistoryMaps.DAG)))
                .isInstanceOf(HazelcastSerializationException.class).hasStackTraceContaining("not codec 2");
    }

    @Test
    void aBlobHoldingAReferenceOfEitherFormatIsNoHistoryValue() throws Exception {
        for (Data reference : new Data[] {
                serialization.toData(new HistoryReference(pointer(45, HistoryMover.CODEC_ID), HistoryMaps.METRICS)),
                firstFormat(pointer(45, HistoryMover.CODEC_ID))}) {
            assertThatThrownBy(() -> HistoryMover.checkPayload(45, reference.toByteArray()))
                    .isInstanceOf(CodecException.class).hasMessageContaining("not a history value");
        }
    }
}
