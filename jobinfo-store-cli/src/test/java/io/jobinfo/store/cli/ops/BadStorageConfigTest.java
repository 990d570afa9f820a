package io.jobinfo.store.cli.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.cli.JobInfoStoreCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every command given a bad {@code --storage-config} exits 2 with one message that lists every problem (core and
 * backend), shows no stack trace and no secret, and connects to nothing: the cluster address is a real socket that
 * counts connections (none may arrive). Public for the demo module, whose {@code DemoBadStorageConfigTest} runs the
 * same files through its {@code demo} command (which must not start its members).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
public class BadStorageConfigTest {

    private static final String SECRET = "SECRETVALUE-7d1e";

    private static ServerSocket watch;
    private static final AtomicInteger connections = new AtomicInteger();

    @TempDir
    static Path dir;

    /** The command line the files are given to. */
    protected CommandLine commandLine() {
        return JobInfoStoreCli.commandLine();
    }

    /** The commands given each file. */
    protected List<String> commands() {
        return List.of("migrate", "verify", "gc", "inspect", "check-config");
    }

    /** The arguments other than the file that {@code command} needs: a cluster address for the ops commands. */
    protected List<String> extraArgs(String command, int clusterPort) {
        return List.of("--address", "127.0.0.1:" + clusterPort, "--cluster-name", "watch", "--connect-timeout", "2s");
    }

    @BeforeAll
    public static void listen() throws Exception {
        watch = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            while (!watch.isClosed()) {
                try (Socket s = watch.accept()) {
                    connections.incrementAndGet();
                } catch (Exception e) {
                    return;
                }
            }
        }, "connection-counter");
        t.setDaemon(true);
        t.start();
    }

    @AfterAll
    public static void close() throws Exception {
        watch.close();
    }

    /** The bad files, by name, and what the message must say about each. */
    private static Map<String, String[]> badFiles() throws Exception {
        Map<String, String[]> files = new LinkedHashMap<>();
        write(files, "malformed.yaml", "jobinfo-storage:\n  type: local\n   namespace: [unclosed\n",
                "is not valid YAML", "line ");
        write(files, "empty.yaml", "", "is empty");
        write(files, "comments.yaml", "# a storage configuration\n# to be written\n", "is empty");
        write(files, "tagged.yaml", "jobinfo-storage: !!java.lang.ProcessBuilder [\"touch\", \"" + dir.resolve("pwned")
                + "\"]\n", "is not valid YAML", "line 1");
        write(files, "tagged-value.yaml", "jobinfo-storage:\n  type: local\n  namespace: !!javax.script"
                + ".ScriptEngineManager [!!java.net.URLClassLoader [[!!java.net.URL [\"http://127.0.0.1:"
                + watch.getLocalPort() + "/\"]]]]\n", "is not valid YAML", "line 3");
        StringBuilder huge = new StringBuilder("jobinfo-storage:\n  type: local\n  namespace: /tmp/x\n");
        while (huge.length() < 3 << 20) {
            huge.append("# padding padding padding padding padding padding padding padding padding padding\n");
        }
        write(files, "huge.yaml", huge.toString(), "bytes, more than the 1 MiB");
        write(files, "duplicate.yaml", "jobinfo-storage:\n  type: local\n  namespace: /tmp/a\n  namespace: /tmp/b\n",
                "duplicate key namespace", "line 4");
        write(files, "secret-line.yaml", "jobinfo-storage:\n  type: s3\n  namespace: ns\n  plugin-config:\n"
                + "    s3.bucket: b\n    s3.secret-key: \"" + SECRET + "\n", "is not valid YAML", "line 6");
        write(files, "secret-dup.yaml", "jobinfo-storage:\n  type: s3\n  namespace: ns\n  plugin-config:\n"
                + "    s3.secret-key: " + SECRET + "\n    s3.secret-key: " + SECRET + "x\n",
                "duplicate key s3.secret-key");
        // valid YAML, several problems: the core's and the backend's, all in one message
        write(files, "problems.yaml", "jobinfo-storage:\n  type: s3\n  namespace: ns\n  colour: blue\n"
                + "  plugin-config:\n    s3.secret-key: " + SECRET + "\n    s3.no-such-option: 1\n",
                "jobinfo-storage.colour: unknown key", "s3.no-such-option: not an option of the 's3' store",
                "s3.bucket: missing", "4 problems");
        write(files, "a-list.yaml", "- type: local\n- namespace: /tmp/x\n", "must be a mapping");
        // SeaTunnel's seatunnel.yaml after the guide's removal step took the jobinfo-storage section out of it
        write(files, "seatunnel-after-removal.yaml", "seatunnel:\n  engine:\n    history-job-expire-minutes: 1440\n"
                + "    backup-count: 1\n", "has no jobinfo-storage section", "saved copy");
        Files.write(dir.resolve("latin1.yaml"), "jobinfo-storage:\n  namespace: /tmp/caf\u00e9\n"
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        files.put("latin1.yaml", new String[] {"is not UTF-8"});
        return files;
    }

    private static void write(Map<String, String[]> files, String name, String content, String... expected)
            throws Exception {
        Files.writeString(dir.resolve(name), content);
        files.put(name, expected);
    }

    private List<String> args(String command, Path file) {
        List<String> args = new ArrayList<>(List.of(command));
        if (command.equals("inspect")) {
            args.add("7");
        }
        args.addAll(List.of("--storage-config", file.toString()));
        if (!command.equals("check-config")) { // reaches no cluster: takes no cluster options
            args.addAll(extraArgs(command, watch.getLocalPort()));
        }
        return args;
    }

    private OpsFixture.Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args);
        return new OpsFixture.Run(exit, out.toString(), err.toString());
    }

    @Test
    public void everyCommandRefusesEveryBadFileWithOneMessageExit2NoTraceNoSecretAndNoConnection() throws Exception {
        SoftAssertions soft = new SoftAssertions();
        for (Map.Entry<String, String[]> bad : badFiles().entrySet()) {
            Path file = dir.resolve(bad.getKey());
            for (String command : commands()) {
                OpsFixture.Run run = cli(args(command, file).toArray(String[]::new));
                String what = command + " with " + bad.getKey() + ":\n" + run.err();
                soft.assertThat(run.exit()).as(what).isEqualTo(2);
                soft.assertThat(run.err()).as(what).startsWith("jobinfo-store " + command + ": --storage-config "
                        + file).contains(bad.getValue());
                soft.assertThat(run.err().split("jobinfo-store ", -1)).as("one message: " + what).hasSize(2);
                soft.assertThat(run.err()).as(what).doesNotContain("\tat ").doesNotContain("Exception")
                        .doesNotContain("Usage:").doesNotContain("starting");
                soft.assertThat(run.err() + run.out()).as("no secret: " + what).doesNotContain(SECRET)
                        .doesNotContain("SECRETVALUE");
                soft.assertThat(run.out()).as(what).isEmpty();
            }
        }
        soft.assertThat(connections.get()).as("connections to the cluster address").isZero();
        soft.assertThat(Files.exists(dir.resolve("pwned"))).as("no class named by the YAML ran").isFalse();
        soft.assertAll();
    }
}
