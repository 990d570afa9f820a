package io.jobinfo.store.benchmarks.jmh;

import io.jobinfo.store.service.RunningJobInfoRegistry;

import io.jobinfo.store.codec.EncodedPayload;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.demo.model.JobImmutableInformationSerializer;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import java.security.MessageDigest;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Item 5: what submit does before any I/O (Kryo encode, CRC32C, SHA-256, the envelope) against the checksums alone,
 * on the same ~200 KB job; plus each part alone, whose throughput gives the checksum anchors.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class EnvelopeBenchmark {

    @Param("204800")
    public int jobBytes;

    private final KryoJobInfoCodec<JobImmutableInformation> codec = JobImmutableInformationSerializer.codec();
    private JobImmutableInformation job;
    private byte[] payload;
    private long jobId;

    @Setup(Level.Trial)
    public void setUp() {
        jobId = 990_000_000_123_456L;
        job = new JobGenerator(42).generate(jobId, jobBytes);
        payload = codec.encode(job);
    }

    /** Exactly what {@code RunningJobInfoRegistry.submit} does before the store: encode, checksum, envelope. */
    /** What a submit does: encode with header room, then checksums and header in place (no copy of the payload). */
    @Benchmark
    public byte[] encodeAndChecksums() {
        EncodedPayload encoded = codec.encode(job, EnvelopeHeader.LENGTH);
        BlobEnvelope.wrapInPlace(jobId, KryoJobInfoCodec.ID, encoded);
        return encoded.buffer();
    }

    /** CRC32C and SHA-256 of the same payload, nothing else. */
    @Benchmark
    public void checksumsOnly(Blackhole bh) throws Exception {
        CRC32C crc = new CRC32C();
        crc.update(payload);
        bh.consume(crc.getValue());
        bh.consume(MessageDigest.getInstance("SHA-256").digest(payload));
    }

    @Benchmark
    public byte[] encodeOnly() {
        return codec.encode(job);
    }

    @Benchmark
    public long crc32cOnly() {
        CRC32C crc = new CRC32C();
        crc.update(payload);
        return crc.getValue();
    }

    @Benchmark
    public byte[] sha256Only() throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(payload);
    }

    public int payloadLength() {
        return payload.length;
    }
}
