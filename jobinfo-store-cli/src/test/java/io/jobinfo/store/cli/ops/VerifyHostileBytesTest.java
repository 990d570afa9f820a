package io.jobinfo.store.cli.ops;

import static io.jobinfo.store.cli.ops.OpsFixture.CODEC;
import static io.jobinfo.store.cli.ops.OpsFixture.args;
import static io.jobinfo.store.cli.ops.OpsFixture.cli;
import static org.assertj.core.api.Assertions.assertThat;

import com.esotericsoftware.kryo.io.Output;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.impl.HeapData;
import com.hazelcast.map.IMap;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.lifecycle.InlineJobInfo;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.testing.HazelcastTestCluster;
import io.jobinfo.store.spi.testing.TestBlobs;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code verify} against hostile bytes: payloads whose envelope is intact but which are not a job (garbage Kryo bytes
 * in a blob and inline, garbage under SeaTunnel's codec id, which this CLI has no codec for) and a Java-serialized
 * object placed in the map as a value. Each is a broken job named by its id, exit code 1, and the Java-serialized
 * object is never instantiated. Hostile lengths (issue 23): a 15-byte payload whose header claims a 2^31-character
 * job name and an inline value whose byte array claims 2 GiB are broken jobs too, named with what they claim, and
 * {@code inspect} reports the payload as undecodable (exit 1) instead of dying of {@link OutOfMemoryError}.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class VerifyHostileBytesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Counts instances made by Java deserialization (a "tripwire" standing for a gadget class). */
    static final class Tripwire implements Serializable {
        private static final long serialVersionUID = 1L;
        static final AtomicInteger DESERIALIZED = new AtomicInteger();

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            DESERIALIZED.incrementAndGet();
            in.defaultReadObject();
        }
    }

    @TempDir
    Path dir;

    private HazelcastTestCluster cluster;

    @BeforeEach
    void start() {
        cluster = new HazelcastTestCluster(2);
        Tripwire.DESERIALIZED.set(0);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void undecodablePayloadsAndJavaSerializedValuesAreBrokenJobs() throws Exception {
        String mapName = "hostile-" + System.nanoTime();
        Path storeDir = dir.resolve("store");
        Path yaml = OpsFixture.storageYaml(dir, storeDir);
        List<String> conn = OpsFixture.connection(cluster, mapName, yaml);
        IMap<Long, Object> map = cluster.master().getMap(mapName);
        try (JobInfoStore store = OpsFixture.openStore(yaml);
             RunningJobInfoRegistry<JobImmutableInformation> registry =
                     RunningJobInfoRegistry.builder(cluster.master(), store, CODEC).mapName(mapName).build()) {
            registry.submit(1, new JobGenerator(5).generate(1, 8 * 1024));
            pointTo(map, store, 2, CODEC.id(), TestBlobs.randomPayload(2, 3000)); // garbage Kryo bytes
            pointTo(map, store, 3, 2, TestBlobs.randomPayload(3, 3000)); // garbage under SeaTunnel's codec id
            map.set(4L, new InlineJobInfo(4, CODEC.id(), TestBlobs.randomPayload(4, 500)));
            Data javaSerialized = ((SerializationServiceSupport) cluster.master()).getSerializationService()
                    .toData(new Tripwire());
            map.set(5L, javaSerialized);
            // hostile lengths (issue 23): an intact blob whose 15-byte payload claims a 2^31-character job name, and
            // an inline value whose byte array claims 2 GiB with 3 bytes present
            pointTo(map, store, 6, CODEC.id(), fifteenHostileBytes());
            byte[] inline = ((SerializationServiceSupport) cluster.master()).getSerializationService()
                    .toData(new InlineJobInfo(7, CODEC.id(), new byte[] {1, 2, 3})).toByteArray();
            ByteBuffer.wrap(inline).putInt(8 + 9 + 8 + 2, Integer.MAX_VALUE - 16);
            map.set(7L, new HeapData(inline));
        }

        OpsFixture.Run run = cli(args(conn, "verify", "--json", "--progress", "none"));
        assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(1);
        JsonNode r = JSON.readTree(run.out());
        assertThat(r.get("validPointers").asInt()).as("only the real job is valid").isEqualTo(1);
        assertThat(ids(r.get("broken"))).containsExactly(2L, 3L, 4L, 5L, 6L, 7L);
        assertThat(reason(r, 2)).contains("passes its checksums").contains("does not decode with codec "
                + CODEC.name());
        // garbage under codec id 2: the CLI knows SeaTunnel's codec, whose header checks refuse it
        assertThat(reason(r, 3)).contains("passes its checksums")
                .contains("does not decode with codec seatunnel-job-data-v1").contains("not a job serialized by SeaTunnel");
        assertThat(reason(r, 4)).contains("does not decode");
        assertThat(reason(r, 5)).contains("cannot be read").contains("not allowed");
        assertThat(reason(r, 6)).contains("does not decode with codec " + CODEC.name())
                .contains("jobName: a string at offset 9 claims 2147483646 characters but only 1 bytes remain");
        assertThat(reason(r, 7)).contains("cannot be read").contains("encoded job claims 2147483631 bytes");

        OpsFixture.Run text = cli(args(conn, "verify", "--progress", "none"));
        assertThat(text.exit()).isEqualTo(1);
        assertThat(text.out()).contains("BROKEN job 2").contains("BROKEN job 5").contains("PROBLEMS FOUND");
        assertThat(Tripwire.DESERIALIZED.get()).as("Java deserialization instantiated the tripwire").isZero();

        OpsFixture.Run inspect = cli(args(conn, "inspect", "6", "--json"));
        assertThat(inspect.exit()).as(inspect.out() + inspect.err()).isEqualTo(1);
        JsonNode i = JSON.readTree(inspect.out());
        assertThat(i.get("job").get("decoded").asBoolean()).isFalse();
        assertThat(i.get("problems").toString()).contains("cannot be decoded")
                .contains("claims 2147483646 characters");
    }

    /** Schema byte, job id, a UTF-8 string header claiming 2^31 - 2 characters for the job name, one byte. */
    private static byte[] fifteenHostileBytes() {
        Output out = new Output(32);
        out.writeByte(1);
        out.writeLong(6);
        out.writeVarIntFlag(true, Integer.MAX_VALUE, true);
        out.writeByte(0x41);
        byte[] bytes = out.toBytes();
        assertThat(bytes).hasSize(15);
        return bytes;
    }

    /** Stores a valid envelope around {@code payload} and a pointer that matches it exactly. */
    private static void pointTo(IMap<Long, Object> map, JobInfoStore store, long jobId, int codecId, byte[] payload)
            throws Exception {
        byte[] envelope = BlobEnvelope.wrap(jobId, codecId, payload);
        store.create(jobId, BlobSource.ofBytes(envelope));
        EnvelopeHeader header = BlobEnvelope.headerFor(jobId, codecId, payload);
        map.set(jobId, new JobInfoPointer(jobId, System.currentTimeMillis(), store.storeId(), header));
    }

    private static String reason(JsonNode report, long jobId) {
        for (JsonNode n : report.get("broken")) {
            if (n.get("jobId").asLong() == jobId) {
                return n.get("reason").asText();
            }
        }
        throw new AssertionError("job " + jobId + " is not reported as broken: " + report);
    }

    private static List<Long> ids(JsonNode array) {
        List<Long> ids = new ArrayList<>();
        array.forEach(n -> ids.add(n.get("jobId").asLong()));
        return ids;
    }
}
