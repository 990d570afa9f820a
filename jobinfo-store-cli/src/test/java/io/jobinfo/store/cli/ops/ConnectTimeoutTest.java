package io.jobinfo.store.cli.ops;

import static io.jobinfo.store.cli.ops.OpsFixture.cli;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --connect-timeout} bounds the whole connection attempt, also against an address that accepts TCP and never
 * answers the client protocol (a hung member, a proxy, the wrong service on the port). A real socket: it accepts every
 * connection and reads nothing back.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ConnectTimeoutTest {

    @TempDir
    Path dir;

    @Test
    void connectTimeoutBoundsTheAttemptAgainstAnAddressThatNeverAnswers() throws Exception {
        Path yaml = OpsFixture.storageYaml(dir, dir.resolve("store"));
        List<Socket> accepted = new CopyOnWriteArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                while (!silent.isClosed()) {
                    try {
                        accepted.add(silent.accept()); // keep it open, never write a byte
                    } catch (Exception e) {
                        return;
                    }
                }
            }, "silent-acceptor");
            acceptor.setDaemon(true);
            acceptor.start();
            for (String command : List.of("verify", "migrate")) {
                long start = System.nanoTime();
                OpsFixture.Run run = cli(command, "--address", "127.0.0.1:" + silent.getLocalPort(),
                        "--cluster-name", "silent", "--storage-config", yaml.toString(), "--connect-timeout", "3s");
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                assertThat(run.exit()).as(run.err()).isEqualTo(3);
                assertThat(run.err()).contains("cannot connect to Hazelcast cluster 'silent'")
                        .contains("within 3s").doesNotContain("\tat ");
                // the bound under test, not a performance figure: 3 s asked, well under 10 s given
                assertThat(took).as(command + " took " + took).isLessThan(Duration.ofSeconds(10));
            }
            assertThat(accepted).as("the client did reach the silent socket").isNotEmpty();
        } finally {
            for (Socket s : accepted) {
                s.close();
            }
        }
        assertThat(Files.exists(dir.resolve("store"))).isFalse();
    }
}
