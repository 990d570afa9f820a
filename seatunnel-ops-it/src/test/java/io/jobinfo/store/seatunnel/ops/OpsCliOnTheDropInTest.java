package io.jobinfo.store.seatunnel.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.seatunnel.harness.ClusterClient;
import io.jobinfo.store.seatunnel.harness.ClusterSpec;
import io.jobinfo.store.seatunnel.harness.FakeJobs;
import io.jobinfo.store.seatunnel.harness.SeaTunnelProcessCluster;
import io.jobinfo.store.seatunnel.harness.junit.DropInChecks;
import io.jobinfo.store.seatunnel.harness.junit.SeaTunnelClusterExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The ops CLI's jar, run as an operator runs it, against a real SeaTunnel 2.3.8 cluster whose members run the drop-in
 * in active mode (2 member processes, local store).
 */
class OpsCliOnTheDropInTest {

    static final Path DIR = SeaTunnelClusterExtension.TARGET.resolve("OpsCliOnTheDropInTest-files").toAbsolutePath();
    static final Path STORE = DIR.resolve("store");

    static ClusterSpec spec() {
        try {
            Files.createDirectories(STORE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ClusterSpec.stock("st-opscli", 2)
                .withEngineYaml(DropInChecks.storageYaml(STORE))
                .withExtraClasspath(List.of(SeaTunnelProcessCluster.pluginJar().toString()))
                .withJvmOptions(List.of("-Djobinfo.dropin.sweep-interval-seconds=2"));
    }

    @RegisterExtension
    static final SeaTunnelClusterExtension ST = new SeaTunnelClusterExtension(OpsCliOnTheDropInTest::spec);

    /**
     * {@code migrate --rollback} refuses (exit 2, one clear line, nothing changed) while a member runs the drop-in in
     * active mode, which would move the inline jobs straight back to the store. Before, it rolled the references back
     * and the active members moved them out again.
     */
    @Test
    void aRollbackRefusesWhileAMemberRunsTheDropInInActiveMode() throws Exception {
        ClusterClient client = ST.client();
        ClusterClient.await(() -> client.dropInMetrics().values().stream()
                        .allMatch(m -> m.getOrDefault("installed", 0L) == 1 && m.getOrDefault("active", 0L) == 1),
                Duration.ofSeconds(60), () -> "drop-in not active on every member: " + client.dropInMetrics());
        Path file = FakeJobs.write(DIR.resolve("jobs"), "fake-rollback", 1, 2, true);
        long id = client.submit(file, "rollback-refused");
        client.awaitStatus(id, "RUNNING", Duration.ofSeconds(90));
        DropInChecks.awaitReference(client, id);
        long referenceBytes = client.storedJobBytes(id);
        Path clientYaml = DIR.resolve("jobinfo-store-client.yaml");
        StringBuilder members = new StringBuilder();
        for (int i = 0; i < ST.cluster().spec().size(); i++) {
            members.append("      - 127.0.0.1:").append(ST.cluster().port(i)).append('\n');
        }
        Files.writeString(clientYaml, "hazelcast-client:\n  cluster-name: " + ST.cluster().spec().clusterName()
                + "\n  network:\n    cluster-members:\n" + members);
        Path seatunnelYaml = ST.cluster().log(0).resolveSibling("seatunnel.yaml");
        String jar = System.getProperty("seatunnel.it.cli.jar");
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(javaBin, "-Xmx512m", "-jar", jar, "migrate", "--rollback", "--value-format",
                "seatunnel", "--client-config", clientYaml.toString(), "--storage-config", seatunnelYaml.toString())
                .redirectErrorStream(true).redirectOutput(DIR.resolve("rollback.out").toFile()).start();
        assertThat(p.waitFor(3, TimeUnit.MINUTES)).as("the rollback ended").isTrue();
        String out = Files.readString(DIR.resolve("rollback.out"));
        assertThat(p.exitValue()).as("exit code of the rollback; its output:\n%s", out).isEqualTo(2);
        assertThat(out).contains("run the jobinfo-store drop-in in active mode").contains("nothing was changed");
        assertThat(client.storedJobBytes(id)).as("job %d is still the same reference", id).isEqualTo(referenceBytes);
        assertThat(client.jobBytes(List.of(id)).get(id)).startsWith("reference ");
        client.cancelRunning(id);
        client.awaitStatus(id, "CANCELED", Duration.ofSeconds(60));
    }
}
