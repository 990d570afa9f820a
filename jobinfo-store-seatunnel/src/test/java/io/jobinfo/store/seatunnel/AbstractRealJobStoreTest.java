package io.jobinfo.store.seatunnel;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import io.jobinfo.store.codec.EncodedPayload;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.seatunnel.testing.RealSeaTunnelJob;
import io.jobinfo.store.seatunnel.testing.SeaTunnelJobAssertions;
import io.jobinfo.store.seatunnel.testing.SeaTunnelJobs;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStores;
import java.io.ByteArrayOutputStream;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.seatunnel.engine.core.job.JobImmutableInformation;
import org.apache.seatunnel.engine.core.job.JobInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real SeaTunnel jobs (1, 100 and 1000 tables) through a real store: encoded by {@link SeaTunnelJobDataCodec},
 * wrapped, written, read back and verified, decoded; the bytes must be SeaTunnel's own byte for byte, and
 * SeaTunnel's serialization must turn them into a job equal to the original in every field.
 */
abstract class AbstractRealJobStoreTest {

    private static final SerializationService SS = SeaTunnelJobs.serializationService();
    private final SeaTunnelJobDataCodec codec = new SeaTunnelJobDataCodec();

    /** A store configuration for a fresh namespace. */
    protected abstract JobInfoStorageConfig storeConfig(String namespaceName);

    static Stream<RealSeaTunnelJob> jobs() {
        return RealJobs.all();
    }

    private JobInfoStore open() throws Exception {
        return JobInfoStores.open(storeConfig("seatunnel-" + UUID.randomUUID().toString().substring(0, 8)));
    }

    @ParameterizedTest
    @MethodSource("jobs")
    void theJobIsStoredAndReadBackByteForByteAndDeserializesIntoAnEqualJob(RealSeaTunnelJob job) throws Exception {
        try (JobInfoStore store = open()) {
            EncodedPayload payload = codec.encode(job.data(), EnvelopeHeader.LENGTH);
            EnvelopeHeader header = BlobEnvelope.wrapInPlace(job.jobId(), codec.id(), payload);
            assertThat(store.create(job.jobId(), BlobSource.ofBytes(payload.buffer(), 0,
                    EnvelopeHeader.LENGTH + payload.length()))).isEqualTo(CreateOutcome.CREATED);

            VerifiedBlob blob = store.read(job.jobId());
            assertThat(blob.header()).isEqualTo(header);
            assertThat(blob.header().codecId()).isEqualTo(SeaTunnelJobDataCodec.ID);
            assertThat(blob.payload()).isEqualTo(job.bytes());

            Data decoded = codec.decode(job.jobId(), blob.payload());
            assertThat(decoded.toByteArray()).isEqualTo(job.bytes());
            JobImmutableInformation back = SS.toObject(decoded);
            SeaTunnelJobAssertions.assertSameJob(back, job.job(), SS);

            // streamed read: the same bytes
            ByteArrayOutputStream streamed = new ByteArrayOutputStream();
            try (java.io.InputStream raw = store.openRaw(job.jobId())) {
                BlobEnvelope.copyVerified(raw, streamed, job.jobId());
            }
            assertThat(streamed.toByteArray()).isEqualTo(job.bytes());
            // the same job again is a no-op, as for a client retrying its submit
            assertThat(store.create(job.jobId(), BlobSource.ofBytes(BlobEnvelope.wrap(job.jobId(), codec.id(),
                    codec.encode(job.data()))))).isNotEqualTo(CreateOutcome.CREATED);
            assertThat(store.delete(job.jobId())).isTrue();
        }
    }

    @ParameterizedTest
    @MethodSource("jobs")
    void seaTunnelsJobInfoIsStoredAsItsPartsAndJoinedBackIntoAnEqualJobInfo(RealSeaTunnelJob job) throws Exception {
        JobInfo original = new JobInfo(1_764_000_000_000L + job.tables(), job.data());
        Data originalInMap = SS.toData(original);
        try (JobInfoStore store = open()) {
            SeaTunnelJobInfoParts parts = SeaTunnelJobInfos.split(job.jobId(), SS.toObject(originalInMap));
            store.create(job.jobId(), BlobSource.ofBytes(BlobEnvelope.wrap(job.jobId(), codec.id(),
                    parts.jobImmutableInformation())));

            VerifiedBlob blob = store.read(job.jobId());
            JobInfo restored = SeaTunnelJobInfos.join(job.jobId(), parts.initializationTimestamp(), blob.payload());
            assertThat(restored).isEqualTo(original);
            assertThat(SS.toData(restored).toByteArray()).isEqualTo(originalInMap.toByteArray());
            SeaTunnelJobAssertions.assertSameJob(SS.toObject(restored.getJobImmutableInformation()), job.job(), SS);
        }
    }
}
