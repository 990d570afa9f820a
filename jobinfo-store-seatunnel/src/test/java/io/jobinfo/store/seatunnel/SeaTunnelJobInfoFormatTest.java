package io.jobinfo.store.seatunnel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.internal.serialization.impl.HeapData;
import io.jobinfo.store.codec.CodecException;
import io.jobinfo.store.lifecycle.InlineJob;
import io.jobinfo.store.seatunnel.testing.RealSeaTunnelJob;
import io.jobinfo.store.seatunnel.testing.SeaTunnelJobs;
import org.apache.seatunnel.engine.core.job.JobInfo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link SeaTunnelJobInfoFormat} over a REAL SeaTunnel job (FakeSource, one table) in SeaTunnel's own JobInfo. */
class SeaTunnelJobInfoFormatTest {

    private static RealSeaTunnelJob job;
    private final SeaTunnelJobInfoFormat format = new SeaTunnelJobInfoFormat();

    @BeforeAll
    static void build() {
        job = SeaTunnelJobs.build(4242L, 1, 2, false);
    }

    @Test
    void readsTheTimestampAndTheJobsDataBytesAndRebuildsAnEqualJobInfo() throws CodecException {
        JobInfo value = new JobInfo(1_700_000_000_123L, new HeapData(job.bytes()));
        assertThat(format.recognises(value)).isTrue();
        InlineJob inline = format.read(4242L, value);
        assertThat(inline.initializationTimestamp()).isEqualTo(1_700_000_000_123L);
        assertThat(inline.codecId()).isEqualTo(SeaTunnelJobDataCodec.ID);
        assertThat(inline.payload()).isEqualTo(job.bytes());
        JobInfo back = (JobInfo) format.inlineValue(4242L, inline);
        assertThat(back).isEqualTo(value);
        assertThat(back.getJobImmutableInformation().toByteArray()).isEqualTo(job.bytes());
        assertThat(format.valueBytes(inline.payloadLength())).isGreaterThan(inline.payloadLength());
    }

    /**
     * A migrated value is the drop-in's own reference inside SeaTunnel's JobInfo: the same Data bytes the drop-in's
     * serializer writes for the pointer (so members read it), found again as a pointer and never taken for an inline
     * job.
     */
    @Test
    void theMigratedValueIsTheDropInsReferenceInsideAJobInfo() throws Exception {
        io.jobinfo.store.envelope.EnvelopeHeader header = io.jobinfo.store.envelope.BlobEnvelope.headerFor(4242L,
                SeaTunnelJobDataCodec.ID, 1_700_000_000_123L, job.bytes());
        io.jobinfo.store.lifecycle.JobInfoPointer pointer = new io.jobinfo.store.lifecycle.JobInfoPointer(4242L,
                1_700_000_000_123L, "store-a1", header);
        Object value = format.pointerValue(pointer);
        assertThat(value).isInstanceOf(JobInfo.class);
        JobInfo info = (JobInfo) value;
        assertThat(info.getInitializationTimestamp()).isEqualTo(1_700_000_000_123L);
        com.hazelcast.internal.serialization.InternalSerializationService withSerializer =
                new com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder()
                        .setConfig(new com.hazelcast.config.SerializationConfig().addSerializerConfig(
                                new com.hazelcast.config.SerializerConfig()
                                        .setTypeClass(io.jobinfo.store.seatunnel.dropin.JobInfoReference.class)
                                        .setImplementation(
                                                new io.jobinfo.store.seatunnel.dropin.JobInfoReferenceSerializer())))
                        .build();
        byte[] bySerializer = withSerializer.toData(new io.jobinfo.store.seatunnel.dropin.JobInfoReference(pointer))
                .toByteArray();
        assertThat(info.getJobImmutableInformation().toByteArray()).as("what the drop-in's serializer writes")
                .isEqualTo(bySerializer);
        assertThat(info.getJobImmutableInformation().getType())
                .isEqualTo(io.jobinfo.store.seatunnel.dropin.JobInfoReferenceSerializer.TYPE_ID);
        assertThat(format.recognises(value)).as("a reference is no inline job").isFalse();
        assertThat(format.pointerIn(value)).isEqualTo(pointer);
        assertThat(format.pointerIn(value).matches(header)).isTrue();
        assertThat(format.pointerIn(new JobInfo(1L, new HeapData(job.bytes())))).isNull();
        assertThat(format.pointerIn(pointer)).isNull();
        assertThat(format.pointerValueBytes("store-a1"))
                .isEqualTo(SeaTunnelJobInfoFormat.OVERHEAD + bySerializer.length);
        // the value survives Hazelcast serialization as SeaTunnel's JobInfo, reference bytes unchanged
        Object back = withSerializer.toObject(withSerializer.toData(value));
        assertThat(back).isEqualTo(value);
        // a reference cut short is no pointer (and no inline job either)
        byte[] cut = java.util.Arrays.copyOf(bySerializer, bySerializer.length - 3);
        assertThat(format.pointerIn(new JobInfo(1L, new HeapData(cut)))).isNull();
        assertThatThrownBy(() -> ReferenceData.pointer(cut))
                .isInstanceOf(java.io.IOException.class).hasMessageContaining("job 4242");
    }

    @Test
    void restoresCodecTwoOnly() {
        assertThat(format.restores(SeaTunnelJobDataCodec.ID)).isTrue();
        assertThat(format.restores(1)).isFalse();
        assertThat(format.recognises(new Object())).isFalse();
    }

    @Test
    void refusesAJobInfoOfAnotherJobOrWithoutAJob() {
        JobInfo other = new JobInfo(1L, new HeapData(job.bytes()));
        assertThatThrownBy(() -> format.read(4243L, other)).isInstanceOf(CodecException.class)
                .hasMessageContaining("4243");
        assertThatThrownBy(() -> format.read(4242L, new JobInfo(1L, null))).isInstanceOf(CodecException.class)
                .hasMessageContaining("no JobImmutableInformation");
        assertThatThrownBy(() -> format.inlineValue(4242L, new InlineJob(1L, 1, job.bytes())))
                .isInstanceOf(CodecException.class).hasMessageContaining("codec id 1");
    }
}
