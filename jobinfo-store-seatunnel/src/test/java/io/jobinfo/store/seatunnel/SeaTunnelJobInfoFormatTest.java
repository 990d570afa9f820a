package io.jobinfo.store.seatunnel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.internal.serialization.impl.HeapData;
import io.jobinfo.store.codec.CodecException;
import io.jobinfo.store.ops.InlineJob;
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
