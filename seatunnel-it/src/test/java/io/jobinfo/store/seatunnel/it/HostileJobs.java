package io.jobinfo.store.seatunnel.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.internal.serialization.impl.HeapData;
import com.hazelcast.map.IMap;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.seatunnel.SeaTunnelJobDataCodec;
import io.jobinfo.store.seatunnel.SeaTunnelJobInfoFormat;
import io.jobinfo.store.seatunnel.harness.ClusterClient;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.seatunnel.engine.core.job.JobInfo;
import org.apache.seatunnel.engine.core.serializable.JobDataSerializerHook;

/**
 * Values of a few bytes that a client can put into {@code engine_runningJobInfo} (issue 23, fault classes "hostile
 * lengths" and "one bad value"), made behind the drop-in's back on a real cluster.
 */
final class HostileJobs {

    private static final SeaTunnelJobInfoFormat SEATUNNEL = new SeaTunnelJobInfoFormat();

    private HostileJobs() {
    }

    /**
     * SeaTunnel job bytes of 31 bytes for {@code jobId}: the Data and identified-serializable headers of a
     * {@code JobImmutableInformation}, the job id, and a job name claiming {@link Integer#MAX_VALUE} bytes of which 2
     * are there.
     */
    static byte[] hostilePayload(long jobId) {
        return ByteBuffer.allocate(8 + 9 + 8 + 6).putInt(0).putInt(-2) // Data header: DataSerializable
                .put((byte) 1).putInt(JobDataSerializerHook.FACTORY_ID)
                .putInt(JobDataSerializerHook.JOB_IMMUTABLE_INFORMATION)
                .putLong(jobId).putInt(Integer.MAX_VALUE).put(new byte[] {'a', 'b'}).array();
    }

    /**
     * Replaces the running job's blob (at {@code blob}) by an intact envelope of {@link #hostilePayload}, and its
     * reference by one whose length and checksums match that envelope: only decoding the payload can tell.
     */
    static void replaceByHostilePayload(ClusterClient client, long jobId, Path blob) throws IOException {
        IMap<Long, JobInfo> map = client.runningJobInfo();
        JobInfoPointer old = SEATUNNEL.pointerIn(map.get(jobId));
        assertThat(old).as("reference of job %d", jobId).isNotNull();
        byte[] payload = hostilePayload(jobId);
        long ts = old.initializationTimestamp();
        Files.write(blob, BlobEnvelope.wrap(jobId, SeaTunnelJobDataCodec.ID, ts, payload));
        JobInfoPointer hostile = new JobInfoPointer(jobId, ts, old.storeId(),
                BlobEnvelope.headerFor(jobId, SeaTunnelJobDataCodec.ID, ts, payload));
        map.put(jobId, (JobInfo) SEATUNNEL.pointerValue(hostile));
    }

    /**
     * Puts a raw Hazelcast value of a serializer type id no member knows (4242) under {@code jobId}, as any client can
     * send it. Returns what happened: "refused: ..." when the member rejected the put (the drop-in's map interceptor
     * makes Hazelcast deserialize every value put), or "stored". In both cases the value must not stop anything else.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static String putUndecodableValue(ClusterClient client, long jobId) {
        byte[] raw = ByteBuffer.allocate(8 + 7).putInt(0).putInt(4242).put(new byte[] {1, 2, 3, 4, 5, 6, 7}).array();
        IMap map = client.runningJobInfo();
        try {
            map.put(jobId, new HeapData(raw));
            return "stored";
        } catch (RuntimeException e) {
            return "refused: " + e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }
}
