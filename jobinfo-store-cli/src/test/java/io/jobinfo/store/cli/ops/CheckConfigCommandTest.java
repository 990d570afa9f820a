package io.jobinfo.store.cli.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check-config}: a seatunnel.yaml read as a member with the drop-in reads it, with no cluster; the store opened
 * only when asked. (Bad files of every kind are {@link BadStorageConfigTest}'s, which runs this command too.)
 */
class CheckConfigCommandTest {

    @TempDir
    Path dir;

    private static OpsFixture.Run cli(String... args) {
        return OpsFixture.cli(args);
    }

    private Path seatunnelYaml(String namespace, String dropIn) throws Exception {
        Path file = dir.resolve("seatunnel.yaml");
        Files.writeString(file, "seatunnel:\n  engine:\n    backup-count: 1\n    jobinfo-storage:\n      type: local\n"
                + "      namespace: " + namespace + "\n" + dropIn);
        return file;
    }

    @Test
    void aValidSeaTunnelYamlIsReportedWithItsModeAndNothingIsCreated() throws Exception {
        Path store = dir.resolve("store");
        Path file = seatunnelYaml(store.toString(), "    jobinfo-dropin:\n      mode: passive\n");
        OpsFixture.Run run = cli("check-config", "--storage-config", file.toString());
        assertThat(run.exit()).as(run.toString()).isZero();
        assertThat(run.out()).contains("ok: " + file, "store local at " + store, "drop-in mode passive");
        assertThat(store).as("without --open-store nothing is opened").doesNotExist();

        OpsFixture.Run active = cli("check-config", "--storage-config",
                seatunnelYaml(store.toString(), "").toString(), "--json");
        assertThat(active.exit()).as(active.toString()).isZero();
        JsonNode json = new ObjectMapper().readTree(active.out());
        assertThat(json.get("valid").asBoolean()).isTrue();
        assertThat(json.get("dropInMode").asText()).as("no jobinfo-dropin section: active").isEqualTo("active");
        assertThat(json.get("storeOpened").asBoolean()).isFalse();
    }

    @Test
    void aModeThatIsNoModeIsRefusedWithExit2NamingTheKey() throws Exception {
        Path file = seatunnelYaml(dir.resolve("store").toString(), "    jobinfo-dropin:\n      mode: adopt\n");
        OpsFixture.Run run = cli("check-config", "--storage-config", file.toString());
        assertThat(run.exit()).as(run.toString()).isEqualTo(2);
        assertThat(run.err()).startsWith("jobinfo-store check-config: ")
                .contains("seatunnel.engine.jobinfo-dropin.mode: 'adopt' is not a mode");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void openStoreOpensTheStoreOrExits3NamingIt() throws Exception {
        Path store = dir.resolve("store");
        OpsFixture.Run opened = cli("check-config", "--storage-config",
                seatunnelYaml(store.toString(), "").toString(), "--open-store");
        assertThat(opened.exit()).as(opened.toString()).isZero();
        assertThat(opened.out()).contains("opened and closed", "drop-in mode active");
        assertThat(store).isDirectory();

        Path notADirectory = Files.writeString(dir.resolve("a-file"), "x");
        OpsFixture.Run refused = cli("check-config", "--storage-config",
                seatunnelYaml(notADirectory.resolve("store").toString(), "").toString(), "--open-store");
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(3);
        assertThat(refused.err()).startsWith("jobinfo-store check-config: --storage-config ")
                .contains("the store could not be opened").doesNotContain("\tat ");
    }
}
