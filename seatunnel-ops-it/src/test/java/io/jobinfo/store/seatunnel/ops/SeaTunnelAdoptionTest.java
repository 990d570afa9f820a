package io.jobinfo.store.seatunnel.ops;

import io.jobinfo.store.spi.StoreNaming;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.impl.HeapData;
import io.jobinfo.store.lifecycle.NamespaceClaim;
import io.jobinfo.store.seatunnel.dropin.DropInSettings;
import io.jobinfo.store.seatunnel.dropin.JobInfoReferenceSerializer;
import io.jobinfo.store.seatunnel.harness.ClusterClient;
import io.jobinfo.store.seatunnel.harness.ClusterSpec;
import io.jobinfo.store.seatunnel.harness.FakeJobs;
import io.jobinfo.store.seatunnel.harness.MapFigures;
import io.jobinfo.store.seatunnel.harness.RecordedSubmit;
import io.jobinfo.store.seatunnel.harness.junit.DropInChecks;
import io.jobinfo.store.seatunnel.harness.junit.RestAssertions;
import io.jobinfo.store.seatunnel.harness.junit.SeaTunnelClusterExtension;
import io.jobinfo.store.seatunnel.harness.junit.Guide;
import io.jobinfo.store.seatunnel.ops.guide.GuideRunner;
import org.apache.seatunnel.engine.core.job.JobInfo;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13, items 4 and 6: live adoption of a running SeaTunnel 2.3.8 cluster (3 member processes, streaming
 * FakeSource -> Console jobs) exactly as {@code docs/seatunnel.md} tells the operator, every block of the guide run
 * or validated here: the release bundle ({@code jobinfo-store-dist}) and its checksum are copied to the test's "host"
 * directory, the guide's install block checks, unpacks and installs it into the {@code lib/} of the test's
 * {@code SEATUNNEL_HOME} (on every member's classpath as {@code lib/*}), its YAML blocks are the members' and the
 * tool's configuration, its {@code bin/jobinfo-store} lines run with the bundle's own launcher (with {@code --json}
 * appended to read its report) and its {@code curl} lines as they stand ({@link GuideRunner}). Host names,
 * ports, paths and the example job id are replaced by the test's; nothing else.
 *
 * <p>Default (CI) run: the guide's install, a cluster started with the plugin in passive mode, jobs submitted (they
 * stay inline), {@code migrate} while they run, {@code verify}, {@code inspect}, REST, {@code migrate --rollback}
 * (values byte-equal to the originals), the guide's {@code gc} (exit 0, nothing to delete). In the long mode
 * {@code gc} also runs on the stock cluster before adoption and on the stock cluster after the uninstall (from a saved
 * copy of the section; the guide's line on the stripped {@code seatunnel.yaml} exits 2 naming the missing section),
 * and the stock members' logs stay free of ERROR and ClassNotFoundException while {@code migrate} refuses the mixed
 * cluster. With {@code -Djobinfo.it.long=true} the cluster starts STOCK and
 * is adopted by a rolling restart with the plugin before the migration; after it, the members are rolled to
 * {@code mode: active} (adoption step 4: a new job is then moved at its submit and a stock member cannot join), and
 * the guide's removal is run from there exactly as written: a rolling restart back to {@code passive}, the rollback
 * and {@code verify}, the jar removed and a rolling restart to stock members (about 6 minutes more). At the end every
 * job, the one submitted in active mode too, runs with its value byte for byte what was submitted.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SeaTunnelAdoptionTest {

    static final boolean LONG = Boolean.getBoolean("jobinfo.it.long");
    static final Guide GUIDE = Guide.read();
    static final Path FILES = SeaTunnelClusterExtension.TARGET.resolve("SeaTunnelAdoptionTest-files").toAbsolutePath();
    static final Path HOME = FILES.resolve("seatunnel-home");
    static final Path STORE = FILES.resolve("jobinfo");
    static final String GUIDE_NAMESPACE = "/var/lib/seatunnel/jobinfo";
    static final ObjectMapper JSON = new ObjectMapper();
    /** tables -> job id; two small jobs and one larger */
    static final int[] TABLES = {1, 10, 200};
    static final Map<Integer, Long> JOBS = new LinkedHashMap<>();
    static final Map<Long, JobInfo> ORIGINALS = new LinkedHashMap<>();
    static final Set<String> USED = new LinkedHashSet<>();
    /** Runs the guide's lines on the test's "host" (the bundle copied there, unpacked by the install block). */
    static GuideRunner runner;

    static ClusterSpec stock;
    static ClusterSpec withPlugin;
    /** The guide's section with {@code mode: active} (adoption step 4). */
    static ClusterSpec active;
    /** Tables of the job submitted while every member is active (long mode). */
    static final int ACTIVE_JOB_TABLES = 5;

    static ClusterSpec spec() {
        try {
            GuideRunner.deleteTree(FILES);
            Files.createDirectories(HOME.resolve("lib"));
            Files.createDirectories(HOME.resolve("config"));
            Files.createDirectories(STORE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        runner = new GuideRunner(FILES, HOME);
        // long mode: a fourth port is spare, for a stock member that tries to join while the members are active.
        // Graceful stops need no heartbeat; a longer timeout keeps a member starved of CPU for a few seconds on a
        // loaded machine from being split off in the middle of a rolling restart
        stock = ClusterSpec.stock("st-adopt", 3).withSpareMembers(LONG ? 1 : 0).withMaxNoHeartbeatSeconds(20)
                .withHazelcastYaml(GuideRunner.hazelcastProperties(use("upgrade-hazelcast-yaml")))
                .withExtraClasspath(List.of(HOME.resolve("lib") + File.separator + "*"))
                .withJvmOptions(List.of("-Djobinfo.dropin.sweep-interval-seconds=2",
                        "-Djobinfo.dropin.view-window-seconds=20"));
        String engine = Guide.engineSection(use("seatunnel-yaml")).replace(GUIDE_NAMESPACE, STORE.toString());
        withPlugin = stock.withEngineYaml(engine);
        String activeEngine = engine.replace("mode: passive", "mode: active");
        assertThat(activeEngine).as("the guide's section names mode: passive").isNotEqualTo(engine);
        active = stock.withEngineYaml(activeEngine);
        GuideRunner.write(HOME.resolve("config/seatunnel.yaml"), use("seatunnel-yaml").text()
                .replace(GUIDE_NAMESPACE, STORE.toString()));
        GuideRunner.write(HOME.resolve("config/jobinfo-store-client.yaml"),
                GuideRunner.clientYaml(use("client-yaml"), stock, SPARE));
        if (!LONG) {
            installAsUpgradeStep1();
            return withPlugin;
        }
        return stock;
    }

    @RegisterExtension
    static final SeaTunnelClusterExtension ST = new SeaTunnelClusterExtension(SeaTunnelAdoptionTest::spec,
            Duration.ofSeconds(120), LONG ? 1 : 0);
    static final int SPARE = 3;

    @Test
    @Order(1)
    void runningJobsAreSubmittedAndStayInline() {
        ClusterClient client = ST.client();
        long installed = LONG ? 0 : 1;
        ClusterClient.await(() -> client.dropInMetrics().values().stream()
                        .allMatch(m -> m.getOrDefault("installed", 0L) == installed
                                && (installed == 0 || m.getOrDefault("active", 0L) == 1)),
                Duration.ofSeconds(60), () -> "members not as expected: " + client.dropInMetrics());
        for (int tables : TABLES) {
            Path file = FakeJobs.write(ST.dir().resolve("jobs"), "adopt-" + tables, tables, 20, true);
            long id = client.submit(file, "adopt-" + tables + "-tables");
            JOBS.put(tables, id);
        }
        for (long id : JOBS.values()) {
            client.awaitStatus(id, "RUNNING", Duration.ofSeconds(90));
        }
        for (long id : JOBS.values()) {
            JobInfo info = client.runningJobInfo().get(id);
            assertThat(isReference(info)).as("job %d inline", id).isFalse();
            ORIGINALS.put(id, info);
        }
        assertThat(ORIGINALS.get(JOBS.get(200)).getJobImmutableInformation().totalSize()).isGreaterThan(300_000);
    }

    /** Adoption, step 1 and 2 of the guide: the jar, the sections, and the members restarted one at a time. */
    @Test
    @Order(2)
    void aRollingRestartWithThePluginKeepsEveryJobRunningAndInline() {
        Assumptions.assumeTrue(LONG, "rolling restarts run with -Djobinfo.it.long=true");
        installAsUpgradeStep1();
        // gc at every step (issue 26 item 4): here before adoption, every member stock
        assertGcFindsNothingToDo("before adoption (stock members)", gcCommand());
        roll(0, withPlugin);
        // mixed: the guide's migrate refuses while a member lacks the plugin, and changes nothing
        Map<Integer, Long> before = logSizes(List.of(1, 2));
        GuideRunner.Run early = runTool(Guide.commands(use("migrate")).get(1));
        assertThat(early.exit).as(early.toString()).isEqualTo(2);
        assertThat(early.stderr).contains("do not run the jobinfo-store drop-in");
        // the stock members stay quiet: migrate's presence check sends them nothing they cannot read (issue 26
        // item 4: each logged an ERROR with ClassNotFoundException ...PluginPresence)
        for (Map.Entry<Integer, Long> e : before.entrySet()) {
            String since = logSince(e.getKey(), e.getValue());
            assertThat(since).as("stock member %d's log while migrate ran on the mixed cluster", e.getKey())
                    .doesNotContain("ERROR").doesNotContain("ClassNotFoundException");
        }
        assertInlineAsOriginally();
        roll(1, withPlugin);
        roll(2, withPlugin);
        ClusterClient client = ST.client();
        ClusterClient.await(() -> client.dropInMetrics().values().stream()
                        .allMatch(m -> m.getOrDefault("installed", 0L) == 1 && m.getOrDefault("active", 0L) == 1),
                Duration.ofSeconds(60), () -> "the plugin is not running on every member: " + client.dropInMetrics());
        assertThat(client.dropInTotal("moved")).isZero();
        assertInlineAsOriginally();
    }

    /** Adoption, step 3: migrate (after a dry run) while the jobs run; verify; inspect; REST through the drop-in. */
    @Test
    @Order(3)
    void migrateMovesTheRunningJobsOutAndVerifyFindsNoProblem() {
        assertThat(JOBS).hasSize(TABLES.length);
        ClusterClient client = ST.client();
        Map<Long, Long> checkpoints = latestCheckpoints();
        List<String> commands = Guide.commands(use("migrate"));
        assertThat(commands).hasSize(3);

        if (LONG) {
            GuideRunner.Run dry = runTool(commands.get(0));
            assertThat(dry.exit).as(dry.toString()).isZero();
            assertThat(dry.json.get("dryRun").asBoolean()).isTrue();
            assertThat(dry.json.get("migrated").asInt()).as(dry.toString()).isEqualTo(JOBS.size());
        }
        // passive: the members moved nothing by themselves (their sweep ran every 2 s meanwhile)
        assertThat(client.dropInTotal("moved")).isZero();
        assertInlineAsOriginally();

        GuideRunner.Run migrate = runTool(commands.get(1));
        assertThat(migrate.exit).as(migrate.toString()).isZero();
        assertThat(migrate.json.get("failed").asInt()).isZero();
        assertThat(migrate.json.get("migrated").asInt()).as(migrate.toString()).isEqualTo(JOBS.size());
        MapFigures figures = client.mapFigures(ClusterClient.RUNNING_JOB_INFO);
        assertThat(figures.ownedEntries()).isEqualTo(JOBS.size());
        assertThat(figures.totalBytes() / JOBS.size()).as("owned + backup bytes per job after the migration")
                .isLessThanOrEqualTo(500);
        for (long id : JOBS.values()) {
            JobInfo now = client.runningJobInfo().get(id);
            assertThat(isReference(now)).as("job %d is a reference", id).isTrue();
            assertThat(now.getInitializationTimestamp()).isEqualTo(ORIGINALS.get(id).getInitializationTimestamp());
        }

        GuideRunner.Run verify = runTool(commands.get(2));
        assertThat(verify.exit).as(verify.toString()).isZero();
        assertThat(verify.json.get("broken")).as(verify.toString()).isEmpty();
        assertThat(verify.json.get("inline")).as(verify.toString()).isEmpty();

        if (LONG) {
            long large = JOBS.get(200);
            GuideRunner.Run inspect = runTool(Guide.commands(use("inspect")).get(0).replace("123456789", Long.toString(large)));
            assertThat(inspect.exit).as(inspect.toString()).isZero();
            assertThat(inspect.json.get("value").asText()).isEqualTo("pointer");
            assertThat(inspect.json.get("verified").asBoolean()).as(inspect.toString()).isTrue();
            assertThat(inspect.json.get("job").get("jobName").asText()).isEqualTo("adopt-200-tables");
        }

        assertTheGuidesChecksPass();
        for (int member : ST.cluster().aliveMembers()) {
            RestAssertions.assertRestShowsEveryJob(ST.cluster().port(member), JOBS, "adopt-");
        }
        assertThat(client.dropInTotal("reads")).as("REST read the jobs through the drop-in").isPositive();
        assertEveryJobRunningAndCheckpointingSince(checkpoints);
    }

    /**
     * Adoption, step 4 of the guide, where its removal starts: {@code mode: active}, the members restarted one at a
     * time. A job submitted now is moved at its submit (its blob holds the bytes the client sent), and a member
     * without the plugin cannot join (the join guard: its join fails and it shuts down).
     */
    @Test
    @Order(4)
    void inActiveModeANewJobIsMovedAtSubmitAndAStockMemberCannotJoin() throws IOException {
        Assumptions.assumeTrue(LONG, "rolling restarts run with -Djobinfo.it.long=true");
        for (int member = 0; member < 3; member++) {
            roll(member, active);
        }
        ClusterClient client = ST.client();
        ClusterClient.await(() -> client.dropInMetrics().values().stream()
                        .allMatch(m -> m.getOrDefault("installed", 0L) == 1 && m.getOrDefault("active", 0L) == 1
                                && m.getOrDefault("passive", 1L) == 0),
                Duration.ofSeconds(60), () -> "not every member is active: " + client.dropInMetrics());
        Path file = FakeJobs.write(ST.dir().resolve("jobs"), "adopt-" + ACTIVE_JOB_TABLES, ACTIVE_JOB_TABLES, 20,
                true);
        RecordedSubmit submit = client.recorded(file, "adopt-" + ACTIVE_JOB_TABLES + "-tables", client.newJobId());
        byte[] submitted = submit.jobBytes();
        submit.submit();
        long id = submit.jobId();
        client.awaitStatus(id, "RUNNING", Duration.ofSeconds(90));
        DropInChecks.awaitReference(client, id);
        JobInfo reference = client.runningJobInfo().get(id);
        assertThat(isReference(reference)).as("job %d moved at its submit", id).isTrue();
        assertThat(blobPayload(id)).as("the blob of job %d holds the bytes the client sent", id).isEqualTo(submitted);
        JOBS.put(ACTIVE_JOB_TABLES, id);
        ORIGINALS.put(id, new JobInfo(reference.getInitializationTimestamp(), new HeapData(submitted)));

        // a stock SeaTunnel: no jar in its lib/ (the test's lib/ holds the plugin now), no section
        ST.cluster().startMember(SPARE, stock.withExtraClasspath(List.of()));
        try {
            ClusterClient.await(() -> ST.cluster().logTail(SPARE, 200_000).contains("Node could not join cluster"),
                    Duration.ofSeconds(90), () -> "the stock member did not give up joining the active cluster; log:\n"
                            + ST.cluster().logTail(SPARE, 5000));
            assertThat(ST.cluster().logTail(SPARE, 200_000)).contains(DropInChecks.JOIN_GUARD);
            ClusterClient.await(() -> client.members().size() == 3, Duration.ofSeconds(30),
                    () -> "members after the stock member's attempt: " + client.members());
        } finally {
            ST.cluster().kill(SPARE);
        }
        awaitTheGuidesChecks("after the stock member's attempt to join");
    }

    /**
     * Removal, step 1 of the guide: {@code mode: passive} on every member, restarted one at a time (each checked as
     * the guide says). Nothing is moved back by the members: every job is still a reference.
     */
    @Test
    @Order(5)
    void removalBeginsWithARollingRestartBackToPassive() {
        Assumptions.assumeTrue(LONG, "rolling restarts run with -Djobinfo.it.long=true");
        for (int member = 0; member < 3; member++) {
            roll(member, withPlugin);
        }
        ClusterClient client = ST.client();
        ClusterClient.await(() -> client.dropInMetrics().values().stream()
                        .allMatch(m -> m.getOrDefault("installed", 0L) == 1 && m.getOrDefault("passive", 0L) == 1),
                Duration.ofSeconds(60), () -> "not every member is passive: " + client.dropInMetrics());
        for (long id : JOBS.values()) {
            assertThat(isReference(client.runningJobInfo().get(id))).as("job %d still a reference", id).isTrue();
        }
    }

    /** Removal, step 2 of the guide: rollback while the jobs run; the values are byte for byte the originals. */
    @Test
    @Order(6)
    void rollbackReturnsTheOriginalValuesWhileTheJobsRun() throws IOException {
        // in long mode also the job submitted while the members were active
        assertThat(JOBS).hasSize(TABLES.length + (LONG ? 1 : 0));
        Map<Long, Long> checkpoints = latestCheckpoints();
        List<String> commands = Guide.commands(use("rollback"));
        assertThat(commands).hasSize(2);
        GuideRunner.Run rollback = runTool(commands.get(0));
        assertThat(rollback.exit).as(rollback.toString()).isZero();
        assertThat(rollback.json.get("rolledBack").asInt()).as(rollback.toString()).isEqualTo(JOBS.size());
        assertInlineAsOriginally();
        try (Stream<Path> blobs = Files.walk(STORE)) {
            assertThat(blobs.filter(p -> p.toString().endsWith(".jobinfo") && !p.endsWith(NamespaceClaim.BLOB_NAME))
                    .toList()).as("blobs after the rollback (the namespace's claim stays)")
                    .isEmpty();
        }
        if (LONG) {
            // every entry inline (not migrated) is what verify reports with exit 1; nothing is broken
            GuideRunner.Run verify = runTool(commands.get(1));
            assertThat(verify.exit).as(verify.toString()).isEqualTo(1);
            assertThat(verify.json.get("broken")).isEmpty();
            assertThat(verify.json.get("inline")).hasSize(JOBS.size());
        }
        // removal step 3, in the default run too: every job inline again, nothing for gc to delete
        assertGcFindsNothingToDo("after the rollback", gcCommand());

        assertTheGuidesChecksPass();
        assertEveryJobRunningAndCheckpointingSince(checkpoints);
    }

    /**
     * Removal, step 3: the jar removed, the members restarted one at a time without it: stock again. Each stock member
     * joins a cluster of plugin members, so the join guard is gone.
     */
    @Test
    @Order(7)
    void aRollingRestartWithoutThePluginReturnsToAStockClusterWithEveryJob() {
        Assumptions.assumeTrue(LONG, "rolling restarts run with -Djobinfo.it.long=true");
        runner.script(use("uninstall"));
        for (int member = 0; member < 3; member++) {
            roll(member, stock);
        }
        ClusterClient client = ST.client();
        assertThat(client.dropInMetrics().values()).allMatch(m -> m.get("installed") == 0L);
        assertInlineAsOriginally();
        // gc after the uninstall: the operator removed the sections from seatunnel.yaml, so the guide's line says
        // clearly what is missing; with a saved copy of the section it runs against the stock members
        Path yaml = HOME.resolve("config/seatunnel.yaml");
        Path saved = FILES.resolve("jobinfo-storage-saved.yaml");
        try {
            Files.copy(yaml, saved);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        GuideRunner.write(yaml, "seatunnel:\n  engine:\n    history-job-expire-minutes: 1440\n");
        GuideRunner.Run withoutSection = runTool(gcCommand());
        assertThat(withoutSection.exit).as(withoutSection.toString()).isEqualTo(2);
        assertThat(withoutSection.stderr).as(withoutSection.toString()).contains(yaml.toString())
                .contains("jobinfo-storage");
        String fromCopy = gcCommand().replace("\"$SEATUNNEL_HOME/config/seatunnel.yaml\"", "'" + saved + "'");
        assertThat(fromCopy).isNotEqualTo(gcCommand());
        assertGcFindsNothingToDo("after the uninstall (stock members, a saved copy of the section)", fromCopy);
        for (int member : ST.cluster().aliveMembers()) {
            RestAssertions.assertRestShowsEveryJob(ST.cluster().port(member), JOBS, "adopt-");
        }
    }

    /**
     * The guide's S3 and HDFS examples, which this cluster cannot run, are valid for the drop-in's own loader; its
     * hazelcast.yaml block is Hazelcast's; and every marked block of the guide is used by this class.
     */
    @Test
    @Order(8)
    void theGuidesOtherBlocksAreValidAndEveryBlockIsUsed() throws Exception {
        // the HDFS example needs Hadoop, which this JVM lacks (it is a SeaTunnel client): it is the members'
        // configuration of DropInHdfsStoreTest (long mode), and the docs module checks its jobinfo-storage section
        // with the real HDFS backend, like every section of docs/
        use("seatunnel-yaml-hdfs");
        for (String name : List.of("seatunnel-yaml", "seatunnel-yaml-s3")) {
            Guide.Block block = use(name);
            Map<?, ?> root = (Map<?, ?>) new io.jobinfo.store.shaded.snakeyaml.Yaml(
                    new io.jobinfo.store.shaded.snakeyaml.constructor.SafeConstructor(
                            new io.jobinfo.store.shaded.snakeyaml.LoaderOptions())).load(block.text());
            DropInSettings settings = DropInSettings.fromRoot(root, "docs/seatunnel.md:" + block.line(),
                    new Properties());
            assertThat(settings.storage().type()).isIn("local", "s3", "hdfs");
            if (name.equals("seatunnel-yaml")) {
                assertThat(settings.mode()).isEqualTo(DropInSettings.Mode.PASSIVE);
            }
        }
        // the fresh install's section: valid, active (it has no jobinfo-dropin section)
        Guide.Block fresh = use("fresh-seatunnel-yaml");
        assertThat(DropInSettings.fromRoot((Map<?, ?>) new io.jobinfo.store.shaded.snakeyaml.Yaml(
                new io.jobinfo.store.shaded.snakeyaml.constructor.SafeConstructor(
                        new io.jobinfo.store.shaded.snakeyaml.LoaderOptions())).load(fresh.text()),
                "docs/seatunnel.md:" + fresh.line(), new Properties()).mode()).isEqualTo(DropInSettings.Mode.ACTIVE);
        for (String name : List.of("hazelcast-yaml", "upgrade-hazelcast-yaml")) {
            com.hazelcast.config.Config hz = new com.hazelcast.config.YamlConfigBuilder(new ByteArrayInputStream(
                    use(name).text().getBytes(StandardCharsets.UTF_8))).build();
            assertThat(hz.getProperty("hazelcast.shutdownhook.policy")).as(name).isEqualTo("GRACEFUL");
        }
        Set<String> all = GUIDE.all().stream().map(Guide.Block::name).collect(Collectors.toSet());
        Set<String> used = new LinkedHashSet<>(USED);
        if (!LONG) {
            // run in the long mode only; in this mode the docs module parses them with the tool's command line
            used.addAll(List.of("uninstall", "inspect"));
        }
        // run by SeaTunnelFreshInstallTest (long mode), on a cluster of its own
        used.addAll(SeaTunnelFreshInstallTest.BLOCKS);
        assertThat(used).as("blocks of docs/seatunnel.md this test runs or checks").containsAll(all);
    }

    // ---------------------------------------------------------------------------------------------------------

    private static Guide.Block use(String name) {
        USED.add(name);
        return GUIDE.block(name);
    }

    /**
     * Upgrade step 1: the bundle's jar installed by the guide's install block (run as a script on the test's host),
     * and the guide's check of the file with the tool from the bundle (passive mode).
     */
    private static void installAsUpgradeStep1() {
        runner.script(use("install"));
        assertThat(HOME.resolve("lib")).isDirectoryContaining("glob:**/jobinfo-store-seatunnel-plugin-*.jar");
        for (String name : List.of("upgrade-check-config", "syntax-check")) {
            List<String> commands = Guide.commands(use(name));
            assertThat(commands).hasSize(1);
            GuideRunner.Run check = runTool(commands.get(0));
            assertThat(check.exit).as(check.toString()).isZero();
            assertThat(check.json.get("valid").asBoolean()).isTrue();
            assertThat(check.json.get("dropInMode").asText()).as(name).isEqualTo("passive");
        }
    }

    /** Stops member {@code index} (SIGTERM, graceful), checks the jobs, starts it as {@code variant}, waits. */
    private static void roll(int index, ClusterSpec variant) {
        ClusterClient client = ST.client();
        ST.cluster().stop(index);
        client.awaitClusterSize(2, Duration.ofSeconds(90));
        for (long id : JOBS.values()) {
            client.awaitStatus(id, "RUNNING", Duration.ofSeconds(120));
        }
        ST.cluster().startMember(index, variant);
        client.awaitClusterSize(3, Duration.ofSeconds(120));
        awaitTheGuidesChecks("after restarting member " + index);
    }

    /** Waits up to 2 minutes until the guide's checks pass (the cluster safe again, every job listed RUNNING). */
    private static void awaitTheGuidesChecks(String when) {
        AssertionError[] last = new AssertionError[1];
        ClusterClient.await(() -> {
            try {
                assertTheGuidesChecksPass();
                return true;
            } catch (AssertionError notYet) {
                last[0] = notYet;
                return false;
            }
        }, Duration.ofSeconds(120), () -> "the guide's checks do not pass " + when + ": " + last[0]);
    }

    /**
     * The guide's checks: cluster safe (HTTP 200), and its count of jobs by status one line, every job RUNNING; then
     * (the test's own, beyond the guide) the same list read whole: every job in full.
     */
    private static void assertTheGuidesChecksPass() {
        List<String> commands = Guide.commands(use("check"));
        assertThat(commands).hasSize(2);
        int port = ST.cluster().port(ST.cluster().aliveMembers().get(0));
        GuideRunner.Run safe = runner.command(hostAndPort(commands.get(0), port));
        assertThat(safe.exit).as(safe.toString()).isZero();
        GuideRunner.Run statuses = runner.command(hostAndPort(commands.get(1), port));
        assertThat(statuses.exit).as(statuses.toString()).isZero();
        assertThat(statuses.stdout.strip()).as(statuses.toString())
                .isEqualTo(JOBS.size() + " \"jobStatus\":\"RUNNING\"");
        String list = commands.get(1).substring(0, commands.get(1).indexOf(" |"));
        GuideRunner.Run jobs = runner.command(hostAndPort(list, port));
        assertThat(jobs.exit).as(jobs.toString()).isZero();
        Map<Long, JsonNode> byId = new LinkedHashMap<>();
        try {
            for (JsonNode job : JSON.readTree(jobs.stdout)) {
                byId.put(Long.parseLong(job.get("jobId").asText()), job);
            }
        } catch (IOException e) {
            throw new AssertionError("running-jobs is not JSON: " + jobs, e);
        }
        for (Map.Entry<Integer, Long> e : JOBS.entrySet()) {
            RestAssertions.assertFullJob(byId.get(e.getValue()), e.getValue(), "adopt-" + e.getKey() + "-tables");
        }
    }

    private static String hostAndPort(String command, int port) {
        String out = command.replace("http://seatunnel-2:5801", "http://127.0.0.1:" + port);
        assertThat(out).isNotEqualTo(command);
        return out;
    }

    private static void assertInlineAsOriginally() {
        for (Map.Entry<Long, JobInfo> e : ORIGINALS.entrySet()) {
            JobInfo now = ST.client().runningJobInfo().get(e.getKey());
            assertThat(now).as("job %d", e.getKey()).isNotNull();
            assertThat(now.getInitializationTimestamp()).isEqualTo(e.getValue().getInitializationTimestamp());
            assertThat(now.getJobImmutableInformation().toByteArray()).as("job %d byte for byte", e.getKey())
                    .isEqualTo(e.getValue().getJobImmutableInformation().toByteArray());
            assertThat(now).isEqualTo(e.getValue());
        }
    }

    /** The verified payload of job {@code id}'s blob in the local store. */
    private static byte[] blobPayload(long id) throws IOException {
        Path blob = STORE.resolve(StoreNaming.blobName(id));
        try {
            return io.jobinfo.store.envelope.BlobEnvelope.verify(Files.readAllBytes(blob), id, io.jobinfo.store.location.Location.of("test", blob.toString()))
                    .payload();
        } catch (io.jobinfo.store.envelope.EnvelopeFormatException e) {
            throw new AssertionError("the blob of job " + id + " is not valid", e);
        }
    }

    private static boolean isReference(JobInfo info) {
        Data data = info.getJobImmutableInformation();
        return data != null && data.getType() == JobInfoReferenceSerializer.TYPE_ID;
    }

    /** Job id -> newest modification time of its files in the checkpoint storage (0 if none). */
    private static Map<Long, Long> latestCheckpoints() {
        Map<Long, Long> out = new LinkedHashMap<>();
        Path dir = ST.dir().resolve("checkpoint");
        for (long id : JOBS.values()) {
            long newest = 0;
            if (Files.isDirectory(dir)) {
                try (Stream<Path> files = Files.walk(dir)) {
                    newest = files.filter(Files::isRegularFile).filter(p -> p.toString().contains(Long.toString(id)))
                            .map(p -> p.toFile().lastModified()).max(Comparator.naturalOrder()).orElse(0L);
                } catch (IOException | UncheckedIOException e) {
                    newest = 0; // a checkpoint file deleted during the walk: look again later
                }
            }
            out.put(id, newest);
        }
        return out;
    }

    /** Every job RUNNING, and a checkpoint of each written after {@code before} (they keep checkpointing). */
    private static void assertEveryJobRunningAndCheckpointingSince(Map<Long, Long> before) {
        for (long id : JOBS.values()) {
            assertThat(ST.client().status(id)).as("job %d", id).isEqualTo("RUNNING");
        }
        ClusterClient.await(() -> {
            Map<Long, Long> now = latestCheckpoints();
            return before.entrySet().stream().allMatch(e -> now.get(e.getKey()) > e.getValue());
        }, Duration.ofSeconds(60), () -> "no new checkpoint of some job: before " + before + ", now "
                + latestCheckpoints());
    }

    /** The guide's gc line. */
    private static String gcCommand() {
        List<String> commands = Guide.commands(use("gc"));
        assertThat(commands).hasSize(1);
        return commands.get(0);
    }

    /**
     * A gc line of the guide (a dry run) at a step of the guide: it succeeds (exit 0) with a clear answer, the store
     * it looked at and nothing to delete: no orphan, no leftover, no value it could not decode, no failure, no hold.
     */
    private static void assertGcFindsNothingToDo(String when, String command) {
        GuideRunner.Run gc = runTool(command);
        assertThat(gc.exit).as("gc %s: %s", when, gc).isZero();
        assertThat(gc.json.get("dryRun").asBoolean()).as(gc.toString()).isTrue();
        assertThat(gc.json.get("storeId").asText()).as(gc.toString()).isNotBlank();
        for (String none : List.of("orphans", "leftovers", "undecodable", "failures", "deleted")) {
            assertThat(gc.json.get(none)).as("gc %s: %s; %s", when, none, gc).isEmpty();
        }
        assertThat(gc.json.get("held").asBoolean()).as(gc.toString()).isFalse();
    }

    /** The current length of the logs of {@code members}. */
    private static Map<Integer, Long> logSizes(List<Integer> members) {
        Map<Integer, Long> sizes = new LinkedHashMap<>();
        for (int m : members) {
            try {
                sizes.put(m, Files.size(ST.cluster().log(m)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return sizes;
    }

    /** What member {@code index} logged after the first {@code offset} bytes of its log. */
    private static String logSince(int index, long offset) {
        try {
            byte[] all = Files.readAllBytes(ST.cluster().log(index));
            return new String(all, (int) Math.min(offset, all.length), (int) Math.max(0, all.length - offset),
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A {@code bin/jobinfo-store} line of the guide, run with the bundle's launcher and {@code --json}. */
    private static GuideRunner.Run runTool(String command) {
        return runner.tool(command);
    }
}
