package io.jobinfo.store.ops;

import io.jobinfo.store.lifecycle.JobValueFormats;
import io.jobinfo.store.lifecycle.InlineJobInfoFormat;
import io.jobinfo.store.lifecycle.JobValueFormat;
import io.jobinfo.store.lifecycle.InlineJob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.codec.CodecException;
import io.jobinfo.store.lifecycle.InlineJobInfo;
import org.junit.jupiter.api.Test;

class JobValueFormatsTest {

    /** A second format for the ordering checks: a String "job" restoring codec 7 only. */
    private static final JobValueFormat STRINGS = new JobValueFormat() {
        @Override
        public String name() {
            return "strings";
        }

        @Override
        public boolean recognises(Object value) {
            return value instanceof String;
        }

        @Override
        public InlineJob read(long jobId, Object value) throws CodecException {
            if (((String) value).isEmpty()) {
                throw new CodecException("job " + jobId + ": empty");
            }
            return new InlineJob(0, 7, ((String) value).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }

        @Override
        public boolean restores(int codecId) {
            return codecId == 7;
        }

        @Override
        public Object inlineValue(long jobId, InlineJob job) {
            return new String(job.payload(), java.nio.charset.StandardCharsets.UTF_8);
        }

        @Override
        public long valueBytes(long payloadLength) {
            return payloadLength;
        }
    };

    @Test
    void aValueBelongsToTheFirstFormatThatRecognisesIt() {
        JobValueFormats formats = JobValueFormats.of(STRINGS, new InlineJobInfoFormat());
        assertThat(formats.forValue("job").name()).isEqualTo("strings");
        assertThat(formats.forValue(new InlineJobInfo(1, 1, new byte[] {1})).name()).isEqualTo("inline");
        assertThat(formats.forValue(42L)).isNull();
        assertThat(formats.forValue(null)).isNull();
        assertThat(formats.names()).isEqualTo("strings|inline");
    }

    @Test
    void aRollbackRestoresTheFirstFormatThatRestoresTheCodec() {
        JobValueFormats formats = JobValueFormats.of(STRINGS, new InlineJobInfoFormat());
        assertThat(formats.forRollback(7).name()).isEqualTo("strings");
        assertThat(formats.forRollback(1).name()).isEqualTo("inline");
        assertThat(JobValueFormats.of(STRINGS).forRollback(1)).isNull();
    }

    @Test
    void inlineJobInfoRoundTripsThroughItsFormat() throws CodecException {
        InlineJobInfoFormat format = new InlineJobInfoFormat();
        InlineJobInfo value = new InlineJobInfo(1234L, 1, new byte[] {5, 6, 7});
        InlineJob job = format.read(9, value);
        assertThat(job.initializationTimestamp()).isEqualTo(1234L);
        assertThat(job.codecId()).isEqualTo(1);
        assertThat(job.payload()).containsExactly(5, 6, 7);
        assertThat(format.inlineValue(9, job)).isEqualTo(value);
        assertThat(format.valueBytes(3)).isEqualTo(Migrator.inlineValueBytes(3));
        assertThat(job.sameJobAs(new InlineJob(1234L, 1, new byte[] {5, 6, 7}))).isTrue();
        assertThat(job.sameJobAs(new InlineJob(1235L, 1, new byte[] {5, 6, 7}))).isFalse();
    }

    @Test
    void noFormatsIsRefused() {
        assertThatThrownBy(() -> JobValueFormats.of(new java.util.ArrayList<>()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one value format");
    }
}
