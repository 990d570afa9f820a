package io.jobinfo.store.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.hazelcast.internal.serialization.impl.HeapData;
import com.hazelcast.map.IMap;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.jobinfo.store.codec.JobInfoCodec;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.lifecycle.InlineJobInfo;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.local.LocalJobInfoStore;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.testing.HazelcastTestCluster;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, fault class "hostile lengths", on a real Hazelcast member: three jobs restore although the map also holds
 * values of a few bytes whose length headers claim gigabytes: an inline job whose Kryo payload claims a name of
 * 2^31 - 2 characters, an inline job whose Hazelcast byte array claims 2 GiB, and a pointer to an intact blob whose
 * payload claims the same name. Each fails alone, reported with its job id and what was wrong. Before the fix the
 * restore of all jobs threw {@link OutOfMemoryError} and reported nothing: no job came back.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class HostileLengthsRestoreTest {

    /** An engine's job: an id and a name. */
    static final class Named {
        final long id;
        final String name;

        Named(long id, String name) {
            this.id = id;
            this.name = name;
        }
    }

    static final class NamedSerializer extends Serializer<Named> {
        NamedSerializer() {
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output out, Named job) {
            out.writeLong(job.id);
            out.writeString(job.name);
        }

        @Override
        public Named read(Kryo kryo, Input in, Class<? extends Named> type) {
            return new Named(in.readLong(), in.readString());
        }
    }

    private static final KryoJobInfoCodec<Named> CODEC =
            new KryoJobInfoCodec<>(Named.class, new NamedSerializer(), 300);

    private static HazelcastTestCluster cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        cluster = new HazelcastTestCluster(1);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Job id, a UTF-8 string header claiming 2^31 - 2 characters, two bytes: 15 bytes. */
    private static byte[] fifteenHostileBytes(long jobId) {
        Output out = new Output(32);
        out.writeLong(jobId);
        out.writeVarIntFlag(true, Integer.MAX_VALUE, true);
        out.writeByte(0x41);
        out.writeByte(0x42);
        byte[] bytes = out.toBytes();
        assertThat(bytes).hasSize(15);
        return bytes;
    }

    @Test
    void everyOtherJobRestoresAndEachHostileValueIsReportedWithItsJobId() throws Exception {
        String mapName = "hostile-" + System.nanoTime();
        IMap<Long, Object> map = cluster.master().getMap(mapName);
        try (LocalJobInfoStore store = LocalJobInfoStore.open(dir.resolve("store"), null, false, true);
             RunningJobInfoRegistry<Named> registry = RunningJobInfoRegistry
                     .builder(cluster.master(), store, CODEC).mapName(mapName).build()) {
            for (long id = 1; id <= 3; id++) {
                registry.submit(id, new Named(id, "job-" + id));
            }
            // 4: an inline job (as before migration) whose payload claims a name of 2^31 - 2 characters
            map.set(4L, new InlineJobInfo(System.currentTimeMillis(), KryoJobInfoCodec.ID, fifteenHostileBytes(4)));
            // 5: an inline job whose Hazelcast byte array claims 2 GiB, three bytes present
            byte[] inline = ((SerializationServiceSupport) cluster.master()).getSerializationService()
                    .toData(new InlineJobInfo(1, KryoJobInfoCodec.ID, new byte[] {1, 2, 3})).toByteArray();
            ByteBuffer.wrap(inline).putInt(8 + 9 + 8 + 2, Integer.MAX_VALUE - 16);
            map.set(5L, new HeapData(inline));
            // 6: an intact blob (checksums match its pointer) whose payload claims a name of 2^31 - 2 characters
            byte[] payload = fifteenHostileBytes(6);
            store.create(6, BlobSource.ofBytes(BlobEnvelope.wrap(6, KryoJobInfoCodec.ID, payload)));
            EnvelopeHeader header = BlobEnvelope.headerFor(6, KryoJobInfoCodec.ID, payload);
            map.set(6L, new JobInfoPointer(6, System.currentTimeMillis(), store.storeId(), header));

            registry.invalidateAll(); // as on a new master: every job is read from the map and the store
            Map<Long, String> restored = new ConcurrentHashMap<>();
            RestoreReport report = registry.restoreAll((id, ts, job) -> restored.put(id, job.name));

            assertThat(restored).containsOnly(Map.entry(1L, "job-1"), Map.entry(2L, "job-2"), Map.entry(3L, "job-3"));
            assertThat(report.restored()).containsExactlyInAnyOrder(1L, 2L, 3L);
            assertThat(report.failed()).containsOnlyKeys(4L, 5L, 6L);
            for (Map.Entry<Long, JobInfoStoreException> e : report.failed().entrySet()) {
                assertThat(e.getValue().jobId()).isEqualTo(e.getKey());
                assertThat(e.getValue().getMessage()).contains("jobId=" + e.getKey());
            }
            assertThat(report.failed().get(4L).getMessage()).contains("inline:" + mapName)
                    .contains("claims " + (Integer.MAX_VALUE - 1L) + " characters").contains("only 2 bytes remain");
            assertThat(report.failed().get(5L).getMessage()).contains("map:" + mapName)
                    .contains("encoded job claims " + (Integer.MAX_VALUE - 16) + " bytes");
            assertThat(report.failed().get(6L).getMessage()).contains(store.location(6).toString())
                    .contains("claims " + (Integer.MAX_VALUE - 1L) + " characters");
        }
    }

    /**
     * An engine codec that does not bound what it allocates: its {@link OutOfMemoryError} (or a
     * {@link StackOverflowError}) for one job fails that job alone, reported with its id; the others restore. Before
     * the fix the error went through the restore's worker pool and out of {@code restoreAll}.
     */
    @Test
    void anOutOfMemoryOrStackOverflowErrorOfOneJobsLoadFailsThatJobAlone() throws Exception {
        JobInfoCodec<byte[]> careless = new JobInfoCodec<byte[]>() {
            @Override
            public int id() {
                return 4243;
            }

            @Override
            public String name() {
                return "careless-bytes";
            }

            @Override
            public Class<byte[]> type() {
                return byte[].class;
            }

            @Override
            public byte[] encode(byte[] value) {
                return value.clone();
            }

            @Override
            public byte[] decode(byte[] payload) {
                if (payload[0] == 0x7F) {
                    throw new OutOfMemoryError("Java heap space (the test's careless codec)");
                }
                if (payload[0] == 0x7E) {
                    throw new StackOverflowError();
                }
                return payload.clone();
            }
        };
        String mapName = "careless-" + System.nanoTime();
        try (LocalJobInfoStore store = LocalJobInfoStore.open(dir.resolve("store"), null, false, true);
             RunningJobInfoRegistry<byte[]> registry = RunningJobInfoRegistry
                     .builder(cluster.master(), store, careless).mapName(mapName).build()) {
            for (long id = 1; id <= 3; id++) {
                registry.submit(id, new byte[] {(byte) id, 1, 2});
            }
            registry.submit(4, new byte[] {0x7F, 1, 2});
            registry.submit(5, new byte[] {0x7E, 1, 2});

            registry.invalidateAll();
            Map<Long, byte[]> restored = new ConcurrentHashMap<>();
            RestoreReport report = registry.restoreAll((id, ts, job) -> restored.put(id, job));

            assertThat(restored).containsOnlyKeys(1L, 2L, 3L);
            assertThat(report.failed()).containsOnlyKeys(4L, 5L);
            assertThat(report.failed().get(4L).getMessage()).contains("jobId=4").contains(store.location(4).toString())
                    .contains("more memory than the heap has").contains("the test's careless codec");
            assertThat(report.failed().get(5L).getMessage()).contains("jobId=5")
                    .contains("more stack than the thread has");
        }
    }
}
