package io.jobinfo.store.seatunnel.ops;

import io.jobinfo.store.seatunnel.harness.ClusterClient;
import io.jobinfo.store.seatunnel.harness.ClusterSpec;
import io.jobinfo.store.seatunnel.harness.FakeJobs;
import io.jobinfo.store.seatunnel.harness.junit.DropInChecks;
import io.jobinfo.store.seatunnel.harness.junit.RestAssertions;
import io.jobinfo.store.seatunnel.harness.junit.SeaTunnelClusterExtension;
import io.jobinfo.store.seatunnel.harness.junit.Guide;
import io.jobinfo.store.seatunnel.ops.guide.GuideRunner;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The guide's "Install on a new cluster" ({@code docs/seatunnel.md}), every step and its check run as written on a
 * real 3-member SeaTunnel 2.3.8 cluster: the bundle checked, unpacked and its jar installed; the section and the
 * {@code hazelcast.yaml} property; {@code check-config --open-store}; the members started, each log stating active
 * mode, the cluster safe; jobs submitted and {@code verify} finding every one a reference whose blob verifies. Long
 * mode only ({@code -Djobinfo.it.long=true}): the default build runs the same blocks' install and tool lines in
 * {@link SeaTunnelAdoptionTest} and validates this section's YAML there.
 */
@EnabledIfSystemProperty(named = "jobinfo.it.long", matches = "true", disabledReason = "a cluster of its own: long"
        + " mode (-Djobinfo.it.long=true)")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SeaTunnelFreshInstallTest {

    /** The guide's blocks this class runs. */
    static final List<String> BLOCKS = List.of("install", "fresh-seatunnel-yaml", "hazelcast-yaml",
            "fresh-check-config", "fresh-started", "fresh-verify", "client-yaml");

    static final Guide GUIDE = Guide.read();
    static final Path FILES = SeaTunnelClusterExtension.TARGET.resolve("SeaTunnelFreshInstallTest-files")
            .toAbsolutePath();
    static final Path HOME = FILES.resolve("seatunnel-home");
    static final Path STORE = FILES.resolve("jobinfo");
    static final String GUIDE_NAMESPACE = "/var/lib/seatunnel/jobinfo";
    static GuideRunner runner;

    static ClusterSpec spec() {
        GuideRunner.deleteTree(FILES);
        try {
            Files.createDirectories(HOME.resolve("lib"));
            Files.createDirectories(HOME.resolve("config"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        runner = new GuideRunner(FILES, HOME);
        // step 1: check, unpack, install
        runner.script(GUIDE.block("install"));
        assertThat(HOME.resolve("lib")).isDirectoryContaining("glob:**/jobinfo-store-seatunnel-plugin-*.jar");
        // step 2: the section, the hazelcast.yaml property, the check of the file with the store opened once
        String yaml = GUIDE.block("fresh-seatunnel-yaml").text().replace(GUIDE_NAMESPACE, STORE.toString());
        assertThat(yaml).doesNotContain("jobinfo-dropin");
        GuideRunner.write(HOME.resolve("config/seatunnel.yaml"), yaml);
        ClusterSpec spec = ClusterSpec.stock("st-fresh", 3)
                .withHazelcastYaml(GuideRunner.hazelcastProperties(GUIDE.block("hazelcast-yaml")))
                .withExtraClasspath(List.of(HOME.resolve("lib") + File.separator + "*"))
                .withEngineYaml(Guide.engineSection(GUIDE.block("fresh-seatunnel-yaml"))
                        .replace(GUIDE_NAMESPACE, STORE.toString()));
        GuideRunner.write(HOME.resolve("config/jobinfo-store-client.yaml"),
                GuideRunner.clientYaml(GUIDE.block("client-yaml"), spec, 3));
        List<String> check = Guide.commands(GUIDE.block("fresh-check-config"));
        assertThat(check).hasSize(1);
        GuideRunner.Run checked = runner.tool(check.get(0));
        assertThat(checked.exit).as(checked.toString()).isZero();
        assertThat(checked.json.get("dropInMode").asText()).isEqualTo("active");
        assertThat(checked.json.get("storeOpened").asBoolean()).isTrue();
        assertThat(STORE).as("--open-store opened the local store (its directory made)").isDirectory();
        return spec;
    }

    @RegisterExtension
    static final SeaTunnelClusterExtension ST = new SeaTunnelClusterExtension(SeaTunnelFreshInstallTest::spec,
            Duration.ofSeconds(120));

    /** Step 3: every member's log states active mode; the cluster is safe. */
    @Test
    @Order(1)
    void everyMembersLogStatesActiveModeAndTheClusterIsSafe() {
        List<String> commands = Guide.commands(GUIDE.block("fresh-started"));
        assertThat(commands).hasSize(2);
        String logFile = "\"$SEATUNNEL_HOME/logs/seatunnel-engine-server.log\"";
        assertThat(commands.get(0)).contains(logFile);
        for (int member : ST.cluster().aliveMembers()) {
            String grep = commands.get(0).replace(logFile, "'" + ST.cluster().log(member) + "'");
            ClusterClient.await(() -> runner.command(grep).exit == 0, Duration.ofSeconds(60),
                    () -> "member " + member + "'s log has no start line in active mode: " + runner.command(grep));
        }
        int port = ST.cluster().port(ST.cluster().aliveMembers().get(0));
        String safe = commands.get(1).replace("http://seatunnel-1:5801", "http://127.0.0.1:" + port);
        assertThat(safe).isNotEqualTo(commands.get(1));
        ClusterClient.await(() -> runner.command(safe).exit == 0, Duration.ofSeconds(60),
                () -> "not safe: " + runner.command(safe));
    }

    /** Step 4: jobs submitted as usual are moved to the store, and the guide's verify finds nothing wrong. */
    @Test
    @Order(2)
    void submittedJobsAreMovedAndVerifyFindsEveryOneAReferenceThatVerifies() {
        ClusterClient client = ST.client();
        List<Long> ids = new ArrayList<>();
        for (int tables : new int[] {1, 100}) {
            Path file = FakeJobs.write(ST.dir().resolve("jobs"), "fresh-" + tables, tables, 20, true);
            ids.add(client.submit(file, "fresh-" + tables + "-tables"));
        }
        for (long id : ids) {
            client.awaitStatus(id, "RUNNING", Duration.ofSeconds(90));
            DropInChecks.awaitReference(client, id);
        }
        List<String> commands = Guide.commands(GUIDE.block("fresh-verify"));
        assertThat(commands).hasSize(1);
        GuideRunner.Run verify = runner.tool(commands.get(0));
        assertThat(verify.exit).as(verify.toString()).isZero();
        assertThat(verify.json.get("broken")).as(verify.toString()).isEmpty();
        assertThat(verify.json.get("inline")).as(verify.toString()).isEmpty();
        assertThat(verify.json.get("validPointers").asInt()).as(verify.toString()).isEqualTo(ids.size());
        // and SeaTunnel's REST shows each job in full from every member, through the drop-in
        for (int member : ST.cluster().aliveMembers()) {
            for (int i = 0; i < ids.size(); i++) {
                RestAssertions.assertRestShowsJob(ST.cluster().port(member), ids.get(i),
                        "fresh-" + (i == 0 ? 1 : 100) + "-tables");
            }
        }
    }
}
