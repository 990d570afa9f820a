package io.jobinfo.store.cli.ops;

import static io.jobinfo.store.cli.ops.OpsFixture.CODEC;
import static io.jobinfo.store.cli.ops.OpsFixture.args;
import static io.jobinfo.store.cli.ops.OpsFixture.cli;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.demo.model.JobGenerator;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.lifecycle.InlineJobInfo;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.service.RunningJobInfoRegistry;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.StoreNaming;
import io.jobinfo.store.testing.HazelcastTestCluster;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code verify}, {@code gc}, {@code inspect}, progress display and bad input, on a real two-member cluster. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class OpsCommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static HazelcastTestCluster cluster;

    @TempDir
    Path dir;

    private String mapName;
    private IMap<Long, Object> map;
    private Path storeDir;
    private Path yaml;
    private List<String> conn;
    private final JobGenerator gen = new JobGenerator(3);

    @BeforeAll
    static void start() {
        cluster = new HazelcastTestCluster(2);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @BeforeEach
    void fresh() throws Exception {
        mapName = "ops-" + System.nanoTime();
        map = cluster.master().getMap(mapName);
        storeDir = dir.resolve("store");
        yaml = OpsFixture.storageYaml(dir, storeDir);
        conn = OpsFixture.connection(cluster, mapName, yaml);
    }

    @AfterEach
    void drop() {
        map.destroy();
    }

    private RunningJobInfoRegistry<JobImmutableInformation> coordinator(JobInfoStore store) {
        return RunningJobInfoRegistry.builder(cluster.master(), store, CODEC).mapName(mapName).build();
    }

    private Path blob(long id) {
        return storeDir.resolve(StoreNaming.blobName(id));
    }

    private void corrupt(long id) throws Exception {
        blob(id).toFile().setWritable(true);
        byte[] bytes = Files.readAllBytes(blob(id));
        bytes[bytes.length - 10] ^= 0x40;
        Files.write(blob(id), bytes, StandardOpenOption.TRUNCATE_EXISTING);
    }

    private void age(Path file, Duration by) throws Exception {
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(by)));
    }

    private static List<Long> ids(JsonNode array) {
        List<Long> ids = new ArrayList<>();
        array.forEach(n -> ids.add(n.get("jobId").asLong()));
        return ids;
    }

    @Test
    void verifyListsBrokenPointersInlineValuesOrphansAndLeftoversAndIsCleanOnceFixed() throws Exception {
        try (JobInfoStore store = OpsFixture.openStore(yaml);
             RunningJobInfoRegistry<JobImmutableInformation> coordinator = coordinator(store)) {
            for (long id = 1; id <= 3; id++) {
                coordinator.submit(id, gen.generate(id, 16 * 1024));
            }
            map.put(4L, new InlineJobInfo(4, CODEC.id(), CODEC.encode(gen.generate(4, 16 * 1024))));
            store.create(5L, BlobSource.ofBytes(BlobEnvelope.wrap(5L, CODEC.id(), CODEC.encode(gen.generate(5,
                    4096)))));
            Files.write(storeDir.resolve(StoreNaming.tempName(6, "crashed")), new byte[500]);
        }
        corrupt(2);
        Files.delete(blob(3));

        OpsFixture.Run run = cli(args(conn, "verify", "--json", "--progress", "none"));
        assertThat(run.exit()).as(run.err()).isEqualTo(1);
        JsonNode r = JSON.readTree(run.out());
        assertThat(r.get("entries").asInt()).isEqualTo(4);
        assertThat(r.get("validPointers").asInt()).isEqualTo(1);
        assertThat(ids(r.get("broken"))).containsExactly(2L, 3L);
        assertThat(r.get("broken").get(0).get("reason").asText()).containsIgnoringCase("mismatch");
        assertThat(r.get("broken").get(1).get("location").asText()).endsWith(StoreNaming.blobName(3));
        assertThat(ids(r.get("inline"))).containsExactly(4L);
        assertThat(ids(r.get("orphans"))).containsExactly(5L);
        assertThat(ids(r.get("incomplete"))).containsExactly(6L);

        OpsFixture.Run text = cli(args(conn, "verify", "--progress", "none"));
        assertThat(text.exit()).isEqualTo(1);
        assertThat(text.out()).contains("BROKEN job 2").contains("BROKEN job 3").contains("INLINE job 4")
                .contains("ORPHAN job 5").contains("INCOMPLETE job 6").contains("PROBLEMS FOUND");

        // the operator's fixes: the broken jobs end, the inline one is migrated, gc removes the rest
        map.remove(2L);
        map.remove(3L);
        assertThat(cli(args(conn, "migrate", "--progress", "none")).exit()).isZero();
        OpsFixture.Run gc = cli(args(conn, "gc", "--delete", "--grace", "0s", "--force", "--json",
                "--progress", "none"));
        assertThat(gc.exit()).as(gc.err()).isZero();
        assertThat(ids(JSON.readTree(gc.out()).get("deleted"))).containsExactlyInAnyOrder(2L, 5L, 6L);
        OpsFixture.Run clean = cli(args(conn, "verify", "--progress", "none"));
        assertThat(clean.exit()).as(clean.out()).isZero();
        assertThat(clean.out()).containsPattern("valid pointers +2\\n").endsWith("OK\n");
    }

    @Test
    void verifyCanIgnoreYoungOrphansOfSubmitsInFlight() throws Exception {
        try (JobInfoStore store = OpsFixture.openStore(yaml)) {
            store.create(5L, BlobSource.ofBytes(BlobEnvelope.wrap(5L, CODEC.id(), new byte[100])));
        }
        assertThat(cli(args(conn, "verify", "--progress", "none")).exit()).isEqualTo(1);
        OpsFixture.Run lenient = cli(args(conn, "verify", "--ignore-younger-than", "10m", "--json", "--progress",
                "none"));
        assertThat(lenient.exit()).isZero();
        assertThat(JSON.readTree(lenient.out()).get("orphans").get(0).get("counted").asBoolean()).isFalse();
    }

    @Test
    void gcIsADryRunUnlessToldAndNeverDeletesReferencedOrYoungBlobs() throws Exception {
        try (JobInfoStore store = OpsFixture.openStore(yaml);
             RunningJobInfoRegistry<JobImmutableInformation> coordinator = coordinator(store)) {
            coordinator.submit(1L, gen.generate(1, 8192));
            store.create(2L, BlobSource.ofBytes(BlobEnvelope.wrap(2L, CODEC.id(), new byte[300])));
            store.create(3L, BlobSource.ofBytes(BlobEnvelope.wrap(3L, CODEC.id(), new byte[300])));
        }
        age(blob(1), Duration.ofHours(3)); // referenced, however old
        age(blob(2), Duration.ofHours(3)); // orphan past the default grace of 1h
        age(blob(3), Duration.ofMinutes(10)); // orphan, young

        OpsFixture.Run dry = cli(args(conn, "gc", "--progress", "none"));
        assertThat(dry.exit()).as(dry.err()).isZero();
        assertThat(dry.out()).contains("DRY RUN").contains("ORPHAN job 2").doesNotContain("job 3 ")
                .contains("rerun with --delete");
        assertThat(Files.exists(blob(1)) && Files.exists(blob(2)) && Files.exists(blob(3))).isTrue();

        OpsFixture.Run delete = cli(args(conn, "gc", "--delete", "--json", "--progress", "none"));
        assertThat(delete.exit()).as(delete.err()).isZero();
        JsonNode r = JSON.readTree(delete.out());
        assertThat(r.get("graceSeconds").asLong()).isEqualTo(3600);
        assertThat(ids(r.get("deleted"))).containsExactly(2L);
        assertThat(r.get("young").asInt()).isEqualTo(1);
        assertThat(r.get("referenced").asInt()).isEqualTo(1);
        assertThat(Files.exists(blob(2))).isFalse();

        OpsFixture.Run all = cli(args(conn, "gc", "--delete", "--grace", "0s", "--force", "--json",
                "--progress", "none"));
        assertThat(ids(JSON.readTree(all.out()).get("deleted"))).containsExactly(3L);
        assertThat(Files.exists(blob(1))).as("a referenced blob is never deleted").isTrue();
        assertThat(map.get(1L)).isInstanceOf(JobInfoPointer.class);
    }

    @Test
    void gcRefusesAGraceBelowTheMinimumAndDeletingAgainstAMissingOrEmptyJobMapUnlessForced() throws Exception {
        try (JobInfoStore store = OpsFixture.openStore(yaml)) {
            for (long id = 1; id <= 2; id++) {
                store.create(id, BlobSource.ofBytes(BlobEnvelope.wrap(id, CODEC.id(), new byte[300])));
                age(blob(id), Duration.ofHours(3));
            }
        }

        OpsFixture.Run shortGrace = cli(args(conn, "gc", "--grace", "5m", "--progress", "none"));
        assertThat(shortGrace.exit()).as(shortGrace.err()).isEqualTo(2);
        assertThat(shortGrace.err().strip()).doesNotContain("\n").contains("--grace 5m is below the minimum of 10m")
                .contains("--force");
        assertThat(shortGrace.out()).isEmpty();

        // the map of this test exists (opened by the test) but holds nothing: a wrong --map would look the same
        OpsFixture.Run empty = cli(args(conn, "gc", "--delete", "--progress", "none"));
        assertThat(empty.exit()).as(empty.err()).isEqualTo(2);
        assertThat(empty.err().strip()).doesNotContain("\n").contains("refusing to delete")
                .contains("'" + mapName + "' is empty").contains("2 blob(s)").contains("--map").contains("--force");
        assertThat(Files.exists(blob(1)) && Files.exists(blob(2))).isTrue();

        List<String> typo = new ArrayList<>(conn);
        typo.set(typo.indexOf("--map") + 1, "never-created-" + System.nanoTime());
        OpsFixture.Run missing = cli(args(typo, "gc", "--delete", "--progress", "none"));
        assertThat(missing.exit()).as(missing.err()).isEqualTo(2);
        assertThat(missing.err()).contains("does not exist");
        assertThat(Files.exists(blob(1)) && Files.exists(blob(2))).isTrue();

        OpsFixture.Run dry = cli(args(conn, "gc", "--progress", "none"));
        assertThat(dry.exit()).as("a dry run only lists: " + dry.err()).isZero();
        assertThat(dry.out()).contains("ORPHAN job 1").contains("ORPHAN job 2");

        OpsFixture.Run forced = cli(args(conn, "gc", "--delete", "--force", "--json", "--progress", "none"));
        assertThat(forced.exit()).as(forced.err()).isZero();
        assertThat(ids(JSON.readTree(forced.out()).get("deleted"))).containsExactlyInAnyOrder(1L, 2L);
        assertThat(Files.exists(blob(1)) || Files.exists(blob(2))).isFalse();
    }

    @Test
    void inspectShowsPointerHeaderAndJobAndNamesWhatIsWrong() throws Exception {
        JobImmutableInformation job = gen.generate(7, 12 * 1024);
        try (JobInfoStore store = OpsFixture.openStore(yaml);
             RunningJobInfoRegistry<JobImmutableInformation> coordinator = coordinator(store)) {
            coordinator.submit(7L, 1_234L, job);
            map.put(8L, new InlineJobInfo(5, CODEC.id(), CODEC.encode(gen.generate(8, 4096))));
            store.create(9L, BlobSource.ofBytes(BlobEnvelope.wrap(9L, CODEC.id(), CODEC.encode(gen.generate(9,
                    4096)))));
        }
        OpsFixture.Run text = cli(args(conn, "inspect", "7"));
        assertThat(text.exit()).as(text.err()).isZero();
        assertThat(text.out()).contains("Job 7 in map " + mapName + ": pointer").contains("envelope header:")
                .contains("sha256").contains("verified read: OK").contains(job.jobName()).endsWith("OK\n");

        OpsFixture.Run json = cli(args(conn, "inspect", "7", "--json"));
        JsonNode r = JSON.readTree(json.out());
        assertThat(r.get("value").asText()).isEqualTo("pointer");
        assertThat(r.get("pointer").get("initializationTimestamp").asLong()).isEqualTo(1_234L);
        assertThat(r.get("header").get("payloadLength").asLong())
                .isEqualTo(r.get("pointer").get("payloadLength").asLong()).isEqualTo(CODEC.encode(job).length);
        assertThat(r.get("header").get("sha256").asText()).startsWith(r.get("pointer").get("sha256Prefix").asText());
        assertThat(r.get("verified").asBoolean()).isTrue();
        assertThat(r.get("job").get("jobName").asText()).isEqualTo(job.jobName());
        assertThat(r.get("job").get("connectors").toString()).contains("MySQL-CDC");

        OpsFixture.Run inline = cli(args(conn, "inspect", "8", "--json"));
        assertThat(inline.exit()).isZero();
        assertThat(JSON.readTree(inline.out()).get("value").asText()).isEqualTo("inline");
        assertThat(JSON.readTree(inline.out()).get("job").get("jobId").asLong()).isEqualTo(8L);

        OpsFixture.Run orphan = cli(args(conn, "inspect", "9"));
        assertThat(orphan.exit()).isEqualTo(1);
        assertThat(orphan.out()).contains("absent").contains("orphan");

        OpsFixture.Run absent = cli(args(conn, "inspect", "999"));
        assertThat(absent.exit()).isEqualTo(2);
        assertThat(absent.err()).contains("job 999 is not in map " + mapName).contains("check the id");

        OpsFixture.Run notANumber = cli(args(conn, "inspect", "seven"));
        assertThat(notANumber.exit()).isEqualTo(2);
        assertThat(notANumber.err()).contains("seven");

        corrupt(7);
        OpsFixture.Run corrupt = cli(args(conn, "inspect", "7"));
        assertThat(corrupt.exit()).isEqualTo(1);
        assertThat(corrupt.out()).contains("verified read: FAILED").contains("fails verification");
    }

    @Test
    void progressIsABarOnATerminalAndPlainLinesElsewhereAndTheReportNamesTheFigures() throws Exception {
        OpsFixture.putInline(map, OpsFixture.encodedJobs(1, 30, 8 * 1024));
        OpsFixture.Run dry = cli(args(conn, "migrate", "--dry-run", "--progress", "none"));
        assertThat(dry.exit()).isZero();
        assertThat(dry.out()).contains("DRY RUN").containsPattern("would be migrated +30 ");
        assertThat(OpsFixture.countBlobs(storeDir)).isZero();

        OpsFixture.Run bar = cli(args(conn, "migrate", "--progress", "bar"));
        assertThat(bar.exit()).as(bar.err()).isZero();
        assertThat(bar.err()).contains("\rmigrate [").contains("30/30 entries 100%").contains("ETA");
        assertThat(bar.out()).containsPattern("migrated +30 ").containsPattern("failed +0\\n")
                .contains("cluster heap freed").contains("2 copies");

        OpsFixture.Run lines = cli(args(conn, "migrate", "--rollback", "--progress", "lines"));
        assertThat(lines.exit()).isZero();
        assertThat(lines.err()).doesNotContain("\r").contains("rollback: 30 entries\n")
                .contains("rollback: 30/30 entries 100%");
        assertThat(lines.out()).containsPattern("rolled back +30 ").contains("cluster heap used");
    }

    @Test
    void aClientYamlCanReplaceTheConnectionFlags() throws Exception {
        HazelcastInstance member = cluster.master();
        var address = member.getCluster().getLocalMember().getAddress();
        Path client = dir.resolve("client.yaml");
        Files.writeString(client, "hazelcast-client:\n  cluster-name: " + cluster.clusterName() + "\n  network:\n"
                + "    cluster-members:\n      - " + address.getHost() + ":" + address.getPort() + "\n");
        map.put(1L, new InlineJobInfo(1, CODEC.id(), CODEC.encode(gen.generate(1, 4096))));
        OpsFixture.Run run = cli("migrate", "--client-config", client.toString(), "--map", mapName,
                "--storage-config", yaml.toString(), "--json", "--progress", "none");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(JSON.readTree(run.out()).get("migrated").asInt()).isEqualTo(1);
    }

    @Test
    void badInputAndUnreachableClustersGiveClearErrorsAndChangeNothing() throws Exception {
        InlineJobInfo value = new InlineJobInfo(1, CODEC.id(), CODEC.encode(gen.generate(1, 4096)));
        map.put(1L, value);
        int freePort;
        try (ServerSocket s = new ServerSocket(0)) {
            freePort = s.getLocalPort();
        }

        long start = System.nanoTime();
        OpsFixture.Run unreachable = cli("migrate", "--address", "127.0.0.1:" + freePort, "--cluster-name", "prod",
                "--storage-config", yaml.toString(), "--connect-timeout", "2s");
        assertThat(unreachable.exit()).isEqualTo(3);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
        assertThat(unreachable.err()).contains("cannot connect to Hazelcast cluster 'prod'")
                .contains("127.0.0.1:" + freePort).contains("--cluster-name").contains("--connect-timeout");

        List<String> wrongName = new ArrayList<>(conn);
        wrongName.set(wrongName.indexOf("--cluster-name") + 1, "not-" + cluster.clusterName());
        wrongName.set(wrongName.indexOf("--connect-timeout") + 1, "2s");
        OpsFixture.Run mismatch = cli(args(wrongName, "verify"));
        assertThat(mismatch.exit()).isEqualTo(3);
        assertThat(mismatch.err()).contains("'not-" + cluster.clusterName() + "'");

        OpsFixture.Run noStorage = cli("migrate", "--address", "127.0.0.1:5801");
        assertThat(noStorage.exit()).isEqualTo(2);
        assertThat(noStorage.err()).contains("--storage-config");

        List<String> missingFile = new ArrayList<>(conn);
        missingFile.set(missingFile.indexOf("--storage-config") + 1, dir.resolve("nope.yaml").toString());
        OpsFixture.Run noFile = cli(args(missingFile, "migrate"));
        assertThat(noFile.exit()).isEqualTo(2);
        assertThat(noFile.err()).contains("nope.yaml").contains("no such file");

        Path badYaml = dir.resolve("bad.yaml");
        Files.writeString(badYaml, "jobinfo-storage:\n  type: local\n  namespace: " + storeDir + "\n  colour: blue\n");
        List<String> bad = new ArrayList<>(conn);
        bad.set(bad.indexOf("--storage-config") + 1, badYaml.toString());
        OpsFixture.Run badConfig = cli(args(bad, "migrate"));
        assertThat(badConfig.exit()).isEqualTo(2);
        assertThat(badConfig.err()).contains("bad.yaml").contains("jobinfo-storage.colour: unknown key");

        Path secretYaml = dir.resolve("secret.yaml");
        Files.writeString(secretYaml, "jobinfo-storage:\n  type: local\n  namespace: " + storeDir
                + "\n  plugin-config:\n    s3.secret-key: SUPERSECRET-9f8e7d\n");
        List<String> secret = new ArrayList<>(conn);
        secret.set(secret.indexOf("--storage-config") + 1, secretYaml.toString());
        OpsFixture.Run leaky = cli(args(secret, "migrate"));
        assertThat(leaky.exit()).isEqualTo(2);
        assertThat(leaky.err()).contains("s3.secret-key").doesNotContain("SUPERSECRET");
        assertThat(leaky.out()).doesNotContain("SUPERSECRET");

        OpsFixture.Run badAddress = cli(args(List.of("--address", "localhost", "--storage-config",
                yaml.toString()), "migrate"));
        assertThat(badAddress.exit()).isEqualTo(2);
        assertThat(badAddress.err()).contains("--address 'localhost' must be HOST:PORT");

        OpsFixture.Run badPort = cli(args(List.of("--address", "127.0.0.1:99999", "--storage-config",
                yaml.toString()), "verify"));
        assertThat(badPort.exit()).isEqualTo(2);
        assertThat(badPort.err()).contains("port 99999");

        OpsFixture.Run badParallelism = cli(args(conn, "migrate", "--parallelism", "0"));
        assertThat(badParallelism.exit()).isEqualTo(2);
        assertThat(badParallelism.err()).contains("--parallelism must be between 1 and 64, got 0");

        OpsFixture.Run badGrace = cli(args(conn, "gc", "--grace", "soon"));
        assertThat(badGrace.exit()).isEqualTo(2);
        assertThat(badGrace.err()).contains("--grace").contains("'soon' is not a duration");

        List<String> noClientYaml = new ArrayList<>(conn);
        noClientYaml.addAll(List.of("--client-config", dir.resolve("client-nope.yaml").toString()));
        OpsFixture.Run noClient = cli(args(noClientYaml, "verify"));
        assertThat(noClient.exit()).isEqualTo(2);
        assertThat(noClient.err()).contains("client-nope.yaml").contains("no such file");

        Path badClient = dir.resolve("client-bad.yaml");
        Files.writeString(badClient, "hazelcast-client:\n  no-such-section: 1\n");
        List<String> badClientArgs = new ArrayList<>(conn);
        badClientArgs.addAll(List.of("--client-config", badClient.toString()));
        OpsFixture.Run badClientRun = cli(args(badClientArgs, "verify"));
        assertThat(badClientRun.exit()).isEqualTo(2);
        assertThat(badClientRun.err()).contains("client-bad.yaml").contains("not a valid Hazelcast client YAML");

        // nothing changed: the map holds the same inline value, no store was created
        assertThat(map.size()).isEqualTo(1);
        assertThat(map.get(1L)).isEqualTo(value);
        assertThat(Files.exists(storeDir)).isFalse();
    }

    @Test
    void helpListsTheOperationsCommandsAndTheirExitCodes() {
        OpsFixture.Run help = cli("--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("migrate").contains("verify").contains("gc").contains("inspect");
        OpsFixture.Run migrateHelp = cli("migrate", "--help");
        assertThat(migrateHelp.out()).contains("--rollback").contains("--dry-run").contains("--client-config")
                .contains("Exit codes:").contains("engine_runningJobInfo");
    }

    @Test
    void durationsReadTheFormsOperatorsWrite() {
        DurationConverter c = new DurationConverter();
        assertThat(c.convert("90s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(c.convert("30m")).isEqualTo(Duration.ofMinutes(30));
        assertThat(c.convert("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(c.convert("2d")).isEqualTo(Duration.ofDays(2));
        assertThat(c.convert("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(c.convert("PT1H30M")).isEqualTo(Duration.ofMinutes(90));
        assertThat(Map.of("0", Duration.ZERO)).allSatisfy((k, v) -> assertThat(c.convert(k)).isEqualTo(v));
        // the syntax of the YAML configuration (io.jobinfo.store.config.Durations), not one of the CLI's own
        assertThat(c.convert("1h30m")).isEqualTo(Duration.ofMinutes(90));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.convert("90"))
                .hasMessageContaining("'90' has no unit");
        assertThat(DurationConverter.format(Duration.ofMinutes(90))).isEqualTo("1h30m");
    }
}
