package io.jobinfo.store.cli.ops;

import static io.jobinfo.store.cli.ops.OpsFixture.CODEC;
import static io.jobinfo.store.cli.ops.OpsFixture.args;
import static io.jobinfo.store.cli.ops.OpsFixture.cli;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hazelcast.internal.nio.BufferObjectDataOutput;
import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.impl.HeapData;
import com.hazelcast.map.IMap;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.DataSerializable;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.lifecycle.MapValue;
import io.jobinfo.store.lifecycle.MapValueReader;
import io.jobinfo.store.lifecycle.InlineJobInfo;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.StoreNaming;
import io.jobinfo.store.testing.HazelcastTestCluster;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, "one bad value": a value in the job map that does not decode never stops {@code gc} (dry run and
 * {@code --delete}), {@code verify}, {@code inspect} or {@code migrate} (and its rollback) for the other jobs; each
 * tool names the bad job id, exits with its documented code, keeps the blob of the bad job, and nothing is
 * instantiated from a class that the stored bytes name. On a real cluster of three members in this JVM, the CLI as a
 * real client.
 *
 * <p>The bad values, put into the map as raw Hazelcast Data: a Java-serialized object of a class nobody has; an
 * IdentifiedDataSerializable of an unknown factory id; a DataSerializable naming by class name a class that does not
 * exist; random bytes of a custom serializer type id; and a DataSerializable naming a class that does exist (a
 * tripwire that counts its instances, standing for any class a value could name).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class OneBadValueTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static final long JAVA_CLASS_MISSING = 11;
    static final long UNKNOWN_FACTORY = 12;
    static final long NAMED_CLASS_MISSING = 13;
    static final long CUSTOM_TYPE_ID = 14;
    static final long NAMED_CLASS_PRESENT = 15;
    static final List<Long> BAD = List.of(JAVA_CLASS_MISSING, UNKNOWN_FACTORY, NAMED_CLASS_MISSING, CUSTOM_TYPE_ID,
            NAMED_CLASS_PRESENT);
    /** A blob without any map value: the one orphan gc must still find and delete. */
    static final long ORPHAN = 20;
    static final int UNKNOWN_FACTORY_ID = 777;
    static final int CUSTOM_TYPE = 4242;
    static final String MISSING_CLASS = "com.example.jobs.NoSuchJobValue";

    /** A DataSerializable whose constructor counts: any instance means a class named by stored bytes was made. */
    public static final class NamedTripwire implements DataSerializable {
        static final AtomicInteger MADE = new AtomicInteger();

        public NamedTripwire() {
            MADE.incrementAndGet();
        }

        @Override
        public void writeData(ObjectDataOutput out) {
        }

        @Override
        public void readData(ObjectDataInput in) {
        }
    }

    /** Java-serialized, then its class name is changed in the bytes to one that does not exist. */
    static final class JavaTripwire implements Serializable {
        private static final long serialVersionUID = 1L;
        static final AtomicInteger DESERIALIZED = new AtomicInteger();

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            DESERIALIZED.incrementAndGet();
            in.defaultReadObject();
        }
    }

    private static HazelcastTestCluster cluster;

    @TempDir
    Path dir;

    private String mapName;
    private IMap<Long, Object> map;
    private Path storeDir;
    private Path yaml;
    private List<String> conn;
    private Map<Long, byte[]> badBytes;

    @BeforeAll
    static void start() {
        cluster = new HazelcastTestCluster(3);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @BeforeEach
    void fill() throws Exception {
        NamedTripwire.MADE.set(0);
        JavaTripwire.DESERIALIZED.set(0);
        mapName = "bad-value-" + System.nanoTime();
        map = cluster.master().getMap(mapName);
        storeDir = dir.resolve("store");
        yaml = OpsFixture.storageYaml(dir, storeDir);
        conn = OpsFixture.connection(cluster, mapName, yaml);
        JobGenerator gen = new JobGenerator(7);
        try (JobInfoStore store = OpsFixture.openStore(yaml);
             RunningJobInfoRegistry<JobImmutableInformation> registry =
                     RunningJobInfoRegistry.builder(cluster.master(), store, CODEC).mapName(mapName).build()) {
            registry.submit(1, gen.generate(1, 8 * 1024));
            registry.submit(2, gen.generate(2, 8 * 1024));
            map.set(3L, new InlineJobInfo(1_700_000_000_003L, CODEC.id(), CODEC.encode(gen.generate(3, 8 * 1024))));
            // each bad job id also has a blob: written by a coordinator whose values this tool cannot read
            for (long id : BAD) {
                store.create(id, BlobSource.ofBytes(BlobEnvelope.wrap(id, CODEC.id(), CODEC.encode(gen.generate(id,
                        4096)))));
            }
            store.create(ORPHAN, BlobSource.ofBytes(BlobEnvelope.wrap(ORPHAN, CODEC.id(),
                    CODEC.encode(gen.generate(ORPHAN, 4096)))));
        }
        badBytes = badValues();
        for (Map.Entry<Long, byte[]> e : badBytes.entrySet()) {
            map.set(e.getKey(), new HeapData(e.getValue()));
        }
        // every blob older than the grace period: only the map decides what gc keeps
        try (var files = Files.list(storeDir)) {
            for (Path f : files.toList()) {
                Files.setLastModifiedTime(f, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
            }
        }
    }

    @AfterEach
    void drop() {
        map.destroy();
    }

    @Test
    void gcFindsAndDeletesTheOtherOrphansNamesEachBadValueAndKeepsItsBlob() throws Exception {
        OpsFixture.Run dry = cli(args(conn, "gc", "--grace", "1h", "--json", "--progress", "none"));
        assertThat(dry.exit()).as(dry.out() + dry.err()).isEqualTo(1);
        JsonNode d = JSON.readTree(dry.out());
        assertThat(ids(d.get("orphans"))).containsExactly(ORPHAN);
        assertThat(ids(d.get("undecodable"))).containsExactlyElementsOf(BAD);
        assertThat(d.get("referenced").asInt()).as("2 pointers, 5 bad values").isEqualTo(7);

        OpsFixture.Run text = cli(args(conn, "gc", "--grace", "1h", "--progress", "none"));
        assertThat(text.exit()).as(text.out() + text.err()).isEqualTo(1);
        for (long id : BAD) {
            assertThat(text.out()).contains("UNDECODABLE job " + id + " ");
        }

        OpsFixture.Run delete = cli(args(conn, "gc", "--delete", "--grace", "1h", "--json", "--progress", "none"));
        assertThat(delete.exit()).as(delete.out() + delete.err()).isEqualTo(1);
        JsonNode r = JSON.readTree(delete.out());
        assertThat(ids(r.get("deleted"))).containsExactly(ORPHAN);
        assertThat(ids(r.get("undecodable"))).containsExactlyElementsOf(BAD);
        assertThat(r.get("failures")).isEmpty();
        assertThat(Files.exists(storeDir.resolve(StoreNaming.blobName(ORPHAN)))).isFalse();
        for (long id : List.of(1L, 2L, JAVA_CLASS_MISSING, UNKNOWN_FACTORY, NAMED_CLASS_MISSING, CUSTOM_TYPE_ID,
                NAMED_CLASS_PRESENT)) {
            assertThat(Files.exists(storeDir.resolve(StoreNaming.blobName(id)))).as("blob of job %d", id).isTrue();
        }
        assertNothingInstantiatedAndBadValuesUnchanged();
    }

    @Test
    void verifyChecksTheOtherJobsAndNamesEachBadValue() throws Exception {
        OpsFixture.Run run = cli(args(conn, "verify", "--json", "--progress", "none"));
        assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(1);
        JsonNode r = JSON.readTree(run.out());
        assertThat(r.get("validPointers").asInt()).isEqualTo(2);
        assertThat(ids(r.get("inline"))).containsExactly(3L);
        assertThat(ids(r.get("broken"))).containsExactlyElementsOf(BAD);
        assertThat(reason(r, JAVA_CLASS_MISSING)).contains("Java-serialized");
        assertThat(reason(r, UNKNOWN_FACTORY)).contains("factory id " + UNKNOWN_FACTORY_ID);
        assertThat(reason(r, NAMED_CLASS_MISSING)).contains(MISSING_CLASS);
        assertThat(reason(r, CUSTOM_TYPE_ID)).contains("type id " + CUSTOM_TYPE);
        assertThat(reason(r, NAMED_CLASS_PRESENT)).contains(NamedTripwire.class.getName());
        for (long id : BAD) {
            assertThat(reason(r, id)).as("job %d", id).contains("nothing was deserialized");
        }
        assertThat(ids(r.get("orphans"))).containsExactly(ORPHAN);
        assertNothingInstantiatedAndBadValuesUnchanged();
    }

    @Test
    void inspectOfABadValueNamesTheJobAndExitsOneAndTheOthersStillInspect() throws Exception {
        for (long id : BAD) {
            OpsFixture.Run json = cli(args(conn, "inspect", Long.toString(id), "--json"));
            assertThat(json.exit()).as("job %d: %s%s", id, json.out(), json.err()).isEqualTo(1);
            JsonNode r = JSON.readTree(json.out());
            assertThat(r.get("jobId").asLong()).isEqualTo(id);
            assertThat(r.get("value").asText()).isEqualTo("undecodable");
            assertThat(r.get("problems").get(0).asText()).contains("job " + id).contains("nothing was deserialized");
            assertThat(r.get("header").get("jobId").asLong()).as("its blob is still shown").isEqualTo(id);
            OpsFixture.Run text = cli(args(conn, "inspect", Long.toString(id)));
            assertThat(text.exit()).isEqualTo(1);
            assertThat(text.out()).contains("Job " + id).contains("PROBLEM: ").contains("PROBLEMS FOUND");
        }
        OpsFixture.Run good = cli(args(conn, "inspect", "1", "--json"));
        assertThat(good.exit()).as(good.out() + good.err()).isZero();
        assertThat(JSON.readTree(good.out()).get("verified").asBoolean()).isTrue();
        assertNothingInstantiatedAndBadValuesUnchanged();
    }

    @Test
    void migrateAndRollbackConvertTheOtherJobsAndFailEachBadValueByJobId() throws Exception {
        OpsFixture.Run migrate = cli(args(conn, "migrate", "--json", "--progress", "none"));
        assertThat(migrate.exit()).as(migrate.out() + migrate.err()).isEqualTo(1);
        JsonNode m = JSON.readTree(migrate.out());
        assertThat(m.get("migrated").asInt()).isEqualTo(1);
        assertThat(m.get("skippedByReason").get("ALREADY_POINTER").asInt()).isEqualTo(2);
        assertThat(ids(m.get("failures"))).containsExactlyElementsOf(BAD);
        for (JsonNode f : m.get("failures")) {
            assertThat(f.get("reason").asText()).isEqualTo("UNDECODABLE_VALUE");
            assertThat(f.get("message").asText()).contains("nothing was deserialized");
        }
        assertThat(map.get(3L)).isInstanceOf(JobInfoPointer.class);

        OpsFixture.Run text = cli(args(conn, "migrate", "--progress", "none"));
        assertThat(text.exit()).isEqualTo(1);
        for (long id : BAD) {
            assertThat(text.out()).contains("job " + id + ": the map value does not decode");
        }

        OpsFixture.Run rollback = cli(args(conn, "migrate", "--rollback", "--json", "--progress", "none"));
        assertThat(rollback.exit()).as(rollback.out() + rollback.err()).isEqualTo(1);
        JsonNode b = JSON.readTree(rollback.out());
        assertThat(b.get("rolledBack").asInt()).isEqualTo(3);
        assertThat(ids(b.get("failures"))).containsExactlyElementsOf(BAD);
        for (long id = 1; id <= 3; id++) {
            assertThat(map.get(id)).as("job %d", id).isInstanceOf(InlineJobInfo.class);
        }
        assertNothingInstantiatedAndBadValuesUnchanged();
    }

    private void assertNothingInstantiatedAndBadValuesUnchanged() {
        assertThat(NamedTripwire.MADE.get()).as("instances of a class named by a map value").isZero();
        assertThat(JavaTripwire.DESERIALIZED.get()).isZero();
        MapValueReader reader = new MapValueReader(map);
        for (Map.Entry<Long, byte[]> e : badBytes.entrySet()) {
            MapValue now = reader.read(e.getKey());
            assertThat(now.undecodable()).as("job %d: %s", e.getKey(), now).isTrue();
            assertThat(now.serializedBytes()).as("job %d", e.getKey()).isEqualTo(e.getValue().length);
        }
        assertThat(NamedTripwire.MADE.get()).as("instances made by reading the values back").isZero();
    }

    /** The bad values as Hazelcast Data bytes (partition hash, type id, payload; big-endian, Hazelcast's default). */
    private Map<Long, byte[]> badValues() throws IOException {
        InternalSerializationService ss = serialization();
        Map<Long, byte[]> values = new LinkedHashMap<>();

        byte[] java = ss.toData(new JavaTripwire()).toByteArray();
        values.put(JAVA_CLASS_MISSING, replaceOnce(java, "JavaTripwire", "JavaTripwirX"));

        BufferObjectDataOutput ids = header(ss, -2);
        ids.writeByte(1); // IdentifiedDataSerializable
        ids.writeInt(UNKNOWN_FACTORY_ID);
        ids.writeInt(1);
        ids.writeLong(UNKNOWN_FACTORY);
        values.put(UNKNOWN_FACTORY, ids.toByteArray());

        BufferObjectDataOutput missing = header(ss, -2);
        missing.writeByte(0); // DataSerializable by class name
        missing.writeString(MISSING_CLASS);
        missing.writeLong(NAMED_CLASS_MISSING);
        values.put(NAMED_CLASS_MISSING, missing.toByteArray());

        BufferObjectDataOutput custom = header(ss, CUSTOM_TYPE);
        byte[] random = new byte[64];
        new Random(CUSTOM_TYPE_ID).nextBytes(random);
        custom.write(random);
        values.put(CUSTOM_TYPE_ID, custom.toByteArray());

        BufferObjectDataOutput present = header(ss, -2);
        present.writeByte(0);
        present.writeString(NamedTripwire.class.getName());
        values.put(NAMED_CLASS_PRESENT, present.toByteArray());
        return values;
    }

    private static BufferObjectDataOutput header(InternalSerializationService ss, int typeId) throws IOException {
        BufferObjectDataOutput out = ss.createObjectDataOutput();
        out.writeInt(0); // partition hash
        out.writeInt(typeId);
        return out;
    }

    private static byte[] replaceOnce(byte[] bytes, String from, String to) {
        byte[] f = from.getBytes(StandardCharsets.US_ASCII);
        byte[] t = to.getBytes(StandardCharsets.US_ASCII);
        outer:
        for (int i = 0; i + f.length <= bytes.length; i++) {
            for (int j = 0; j < f.length; j++) {
                if (bytes[i + j] != f[j]) {
                    continue outer;
                }
            }
            byte[] copy = bytes.clone();
            System.arraycopy(t, 0, copy, i, t.length);
            return copy;
        }
        throw new AssertionError(from + " not found in the serialized bytes");
    }

    private static InternalSerializationService serialization() {
        return (InternalSerializationService) ((SerializationServiceSupport) cluster.master())
                .getSerializationService();
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
        if (array != null) {
            array.forEach(n -> ids.add(n.get("jobId").asLong()));
        }
        return ids;
    }
}
