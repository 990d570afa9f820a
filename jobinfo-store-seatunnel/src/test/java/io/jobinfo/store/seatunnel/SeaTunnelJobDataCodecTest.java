package io.jobinfo.store.seatunnel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import com.hazelcast.internal.serialization.impl.HeapData;
import io.jobinfo.store.codec.CodecException;
import io.jobinfo.store.codec.EncodedPayload;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.seatunnel.testing.RealSeaTunnelJob;
import io.jobinfo.store.seatunnel.testing.SeaTunnelJobAssertions;
import io.jobinfo.store.seatunnel.testing.SeaTunnelJobs;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;
import org.apache.seatunnel.engine.core.job.JobImmutableInformation;
import org.apache.seatunnel.engine.core.job.JobInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link SeaTunnelJobDataCodec} and {@link SeaTunnelJobInfos} on real SeaTunnel jobs (1, 100 and 1000 tables) built
 * and serialized by SeaTunnel's own classes, and on damaged bytes. Needs no store: the Hazelcast version under test
 * is whatever is on the classpath (5.1 here), so another module can run this class again on another Hazelcast through
 * surefire's {@code dependenciesToScan} over this module's test-jar.
 */
class SeaTunnelJobDataCodecTest {

    private static final SerializationService SS = SeaTunnelJobs.serializationService();
    private final SeaTunnelJobDataCodec codec = new SeaTunnelJobDataCodec();

    static Stream<RealSeaTunnelJob> jobs() {
        return RealJobs.all();
    }

    @Test
    void idAndNameAreTheLibrarysOwnAndDistinct() {
        assertThat(codec.id()).isEqualTo(SeaTunnelJobDataCodec.ID).isBetween(1, 255)
                .isNotEqualTo(KryoJobInfoCodec.ID);
        assertThat(codec.name()).isEqualTo("seatunnel-job-data-v1");
        assertThat(codec.type()).isEqualTo(Data.class);
    }

    @ParameterizedTest
    @MethodSource("jobs")
    void encodesTheBytesSeaTunnelSerializedAndDecodesThemByteForByte(RealSeaTunnelJob job) throws Exception {
        byte[] original = job.bytes();
        byte[] encoded = codec.encode(job.data());
        assertThat(encoded).isEqualTo(original);

        EncodedPayload withRoom = codec.encode(job.data(), 68);
        assertThat(withRoom.offset()).isEqualTo(68);
        assertThat(withRoom.contentEquals(original)).isTrue();

        Data decoded = codec.decode(job.jobId(), encoded.clone());
        assertThat(decoded).isInstanceOf(HeapData.class);
        assertThat(decoded.toByteArray()).isEqualTo(original);
        assertThat(decoded).isEqualTo(job.data());

        JobImmutableInformation back = SS.toObject(decoded);
        SeaTunnelJobAssertions.assertSameJob(back, job.job(), SS);
    }

    @ParameterizedTest
    @MethodSource("jobs")
    void inspectReadsTheLeadingFields(RealSeaTunnelJob job) throws Exception {
        SeaTunnelJobHeader header = SeaTunnelJobDataCodec.inspect(job.bytes());
        assertThat(header.jobId()).isEqualTo(job.jobId());
        assertThat(header.jobName()).isEqualTo(job.job().getJobName());
        assertThat(header.startWithSavePoint()).isFalse();
        assertThat(header.createTime()).isEqualTo(job.job().getCreateTime());
        assertThat(header.logicalDagLength()).isEqualTo(job.job().getLogicalDag().totalSize());
        assertThat(header.byteOrder()).isEqualTo(ByteOrder.BIG_ENDIAN);
        assertThat(header.totalLength()).isEqualTo(job.size());
    }

    @ParameterizedTest
    @MethodSource("jobs")
    void jobInfoSplitsIntoTimestampAndBytesAndJoinsBackIntoTheSameJobInfo(RealSeaTunnelJob job) throws Exception {
        long timestamp = 1_764_000_000_123L;
        JobInfo jobInfo = new JobInfo(timestamp, job.data());
        Data jobInfoData = SS.toData(jobInfo);
        JobInfo fromMap = SS.toObject(jobInfoData); // what engine_runningJobInfo returns: the inner Data raw

        SeaTunnelJobInfoParts parts = SeaTunnelJobInfos.split(job.jobId(), fromMap);
        assertThat(parts.initializationTimestamp()).isEqualTo(timestamp);
        assertThat(parts.jobId()).isEqualTo(job.jobId());
        assertThat(parts.jobImmutableInformation()).isEqualTo(job.bytes());

        JobInfo joined = SeaTunnelJobInfos.join(job.jobId(), parts.initializationTimestamp(),
                parts.jobImmutableInformation().clone());
        assertThat(joined).isEqualTo(jobInfo);
        assertThat(SS.toData(joined).toByteArray()).isEqualTo(jobInfoData.toByteArray());
        assertThat(SeaTunnelJobInfos.join(parts)).isEqualTo(jobInfo);
        SeaTunnelJobAssertions.assertSameJob(SS.toObject(joined.getJobImmutableInformation()), job.job(), SS);
    }

    @Test
    void aSerializationServiceWithLittleEndianByteOrderIsRead() throws Exception {
        RealSeaTunnelJob job = RealJobs.one();
        InternalSerializationService little = new DefaultSerializationServiceBuilder()
                .setByteOrder(ByteOrder.LITTLE_ENDIAN).setClassLoader(getClass().getClassLoader()).build();
        try {
            Data data = little.toData(job.job());
            assertThat(data.toByteArray()).isNotEqualTo(job.bytes());
            SeaTunnelJobHeader header = SeaTunnelJobDataCodec.inspect(data.toByteArray());
            assertThat(header.byteOrder()).isEqualTo(ByteOrder.LITTLE_ENDIAN);
            assertThat(header.jobId()).isEqualTo(job.jobId());
            assertThat(header.jobName()).isEqualTo(job.job().getJobName());
            assertThat(header.createTime()).isEqualTo(job.job().getCreateTime());
            Data decoded = codec.decode(job.jobId(), codec.encode(data));
            JobImmutableInformation back = little.toObject(decoded);
            assertThat(back.getJobId()).isEqualTo(job.jobId());
            SeaTunnelJobAssertions.assertSameJobConfig(back.getJobConfig(), job.job().getJobConfig());
        } finally {
            little.dispose();
        }
    }

    // ---- bad bytes: every error names the job (once its id is known) and what is wrong

    @Test
    void nullAndTooShortBytesAreRefused() {
        assertThatThrownBy(() -> codec.decode(7, null)).isInstanceOf(CodecException.class)
                .hasMessageContaining("SeaTunnel job 7").hasMessageContaining("no bytes");
        assertThatThrownBy(() -> codec.decode(7, new byte[10])).isInstanceOf(CodecException.class)
                .hasMessageContaining("SeaTunnel job 7").hasMessageContaining("10 bytes are too short");
        assertThatThrownBy(() -> codec.decode(new byte[0])).isInstanceOf(CodecException.class)
                .hasMessageContaining("(id unknown)").hasMessageContaining("0 bytes are too short");
    }

    @Test
    void aNonZeroPartitionHashIsRefused() {
        byte[] bytes = RealJobs.one().bytes();
        bytes[3] = 5;
        assertThatThrownBy(() -> codec.decode(RealJobs.one().jobId(), bytes)).isInstanceOf(CodecException.class)
                .hasMessageContaining("SeaTunnel job " + RealJobs.one().jobId())
                .hasMessageContaining("partition hash 5 at offset 0, expected 0");
    }

    @Test
    void anotherHazelcastTypeIsRefused() {
        byte[] string = SS.toData("a string that is not a job, long enough to pass the length check").toByteArray();
        assertThatThrownBy(() -> codec.decode(string)).isInstanceOf(CodecException.class)
                .hasMessageContaining("Hazelcast type id -11 at offset 4, expected -2 (DataSerializable)");
        byte[] serializedNull = new byte[40];
        assertThatThrownBy(() -> codec.decode(9, serializedNull)).isInstanceOf(CodecException.class)
                .hasMessageContaining("SeaTunnel job 9").hasMessageContaining("type id 0 (a serialized null)");
    }

    @Test
    void aJobInfoOrALogicalDagIsNotAJobImmutableInformation() {
        RealSeaTunnelJob job = RealJobs.one();
        byte[] jobInfo = SS.toData(new JobInfo(1L, job.data())).toByteArray();
        assertThatThrownBy(() -> codec.decode(job.jobId(), jobInfo)).isInstanceOf(CodecException.class)
                .hasMessageContaining("class id 4 at offset 13").hasMessageContaining("not JobImmutableInformation (3)")
                .hasMessageContaining("a JobInfo: take its JobImmutableInformation with SeaTunnelJobInfos.split");
        byte[] dag = job.job().getLogicalDag().toByteArray();
        assertThatThrownBy(() -> codec.decode(job.jobId(), dag)).isInstanceOf(CodecException.class)
                .hasMessageContaining("class id 0 at offset 13");
    }

    @Test
    void aForeignFactoryIdIsRefused() {
        byte[] bytes = RealJobs.one().bytes();
        ByteBuffer.wrap(bytes).putInt(9, -30001);
        assertThatThrownBy(() -> codec.decode(bytes)).isInstanceOf(CodecException.class)
                .hasMessageContaining("factory id -30001 at offset 9 is not SeaTunnel's job factory -30002");
    }

    @Test
    void aDataSerializableNamingAClassIsRefusedWithoutLoadingTheClass() {
        byte[] name = "io.jobinfo.store.seatunnel.Tripwire".getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(8 + 1 + 4 + name.length + 16);
        b.putInt(0).putInt(-2).put((byte) 0).putInt(name.length).put(name);
        byte[] bytes = b.array();
        assertThatThrownBy(() -> codec.decode(bytes)).isInstanceOf(CodecException.class)
                .hasMessageContaining("names a class instead of factory and class ids");
        assertThatThrownBy(() -> SeaTunnelJobInfos.join(3, 1L, bytes)).isInstanceOf(CodecException.class)
                .hasMessageContaining("SeaTunnel job 3");
        assertThat(Tripwire.Flag.INITIALIZED).as("the class named by the bytes was initialized").isFalse();
    }

    @Test
    void bytesOfAnotherJobAreRefused() {
        RealSeaTunnelJob job = RealJobs.one();
        assertThatThrownBy(() -> codec.decode(job.jobId() + 1, job.bytes())).isInstanceOf(CodecException.class)
                .hasMessageContaining("SeaTunnel job " + (job.jobId() + 1) + ": the bytes hold job " + job.jobId()
                        + ", not job " + (job.jobId() + 1));
        assertThatThrownBy(() -> SeaTunnelJobInfos.split(job.jobId() + 1, new JobInfo(1L, job.data())))
                .isInstanceOf(CodecException.class).hasMessageContaining("not job " + (job.jobId() + 1));
    }

    @Test
    void truncatedBytesAreRefusedNamingTheJob() throws Exception {
        RealSeaTunnelJob job = RealJobs.hundred();
        byte[] bytes = job.bytes();
        SeaTunnelJobHeader header = SeaTunnelJobDataCodec.inspect(bytes);
        int nameEnd = 25 + 4 + header.jobName().getBytes(StandardCharsets.UTF_8).length;
        int dagStart = nameEnd + 1 + 8;
        int dagEnd = dagStart + 4 + header.logicalDagLength();
        for (int cut : new int[] {26, nameEnd - 3, nameEnd + 4, dagStart + 2, dagStart + 100, dagEnd - 1,
                                  dagEnd, dagEnd + 11}) {
            byte[] truncated = Arrays.copyOf(bytes, cut);
            assertThatThrownBy(() -> codec.decode(truncated)).as("cut at %d", cut).isInstanceOf(CodecException.class)
                    .hasMessageContaining("SeaTunnel job " + job.jobId());
        }
        assertThatThrownBy(() -> codec.decode(Arrays.copyOf(bytes, dagStart + 100)))
                .hasMessageContaining("truncated: the logical DAG declares " + header.logicalDagLength() + " bytes");
        assertThatThrownBy(() -> codec.decode(Arrays.copyOf(bytes, dagEnd + 11)))
                .hasMessageContaining("truncated: 11 bytes after the logical DAG");
        // whole: fine
        assertThat(codec.decode(bytes).totalSize()).isEqualTo(bytes.length);
    }

    @Test
    void damagedFieldsAreRefused() {
        RealSeaTunnelJob job = RealJobs.one();
        byte[] badName = job.bytes();
        ByteBuffer.wrap(badName).putInt(25, 1 << 30);
        assertThatThrownBy(() -> codec.decode(badName)).hasMessageContaining("SeaTunnel job " + job.jobId())
                .hasMessageContaining("job name length 1073741824 at offset 25");

        byte[] badFlag = job.bytes();
        int savePointAt = 25 + 4 + job.job().getJobName().getBytes(StandardCharsets.UTF_8).length;
        badFlag[savePointAt] = 7;
        assertThatThrownBy(() -> codec.decode(badFlag))
                .hasMessageContaining("isStartWithSavePoint byte 7 at offset " + savePointAt);

        byte[] badDag = job.bytes();
        ByteBuffer.wrap(badDag).putInt(savePointAt + 1 + 8 + 4 + 4, -11);
        assertThatThrownBy(() -> codec.decode(badDag))
                .hasMessageContaining("the logical DAG at offset " + (savePointAt + 1 + 8 + 4)
                        + " has Hazelcast type id -11");

        byte[] flags = job.bytes();
        flags[8] = (byte) 0x81;
        assertThatThrownBy(() -> codec.decode(flags)).hasMessageContaining("unknown DataSerializable flags 0x81");
    }

    @Test
    void encodeRefusesWhatIsNotASeaTunnelJob() {
        assertThatThrownBy(() -> codec.encode(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the job's Data is null");
        Data notAJob = SS.toData(new JobInfo(1L, RealJobs.one().data()));
        assertThatThrownBy(() -> codec.encode(notAJob)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("class id 4");
        assertThatThrownBy(() -> codec.encode(notAJob, 68)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aJobInfoWithoutTimestampOrJobIsRefused() {
        assertThatThrownBy(() -> SeaTunnelJobInfos.split(5, null)).isInstanceOf(CodecException.class)
                .hasMessageContaining("SeaTunnel job 5: the JobInfo is null");
        assertThatThrownBy(() -> SeaTunnelJobInfos.split(5, new JobInfo(null, RealJobs.one().data())))
                .isInstanceOf(CodecException.class).hasMessageContaining("SeaTunnel job 5: the JobInfo has no"
                        + " initialization timestamp");
        assertThatThrownBy(() -> SeaTunnelJobInfos.split(5, new JobInfo(1L, null)))
                .isInstanceOf(CodecException.class).hasMessageContaining("holds no JobImmutableInformation");
    }
}
