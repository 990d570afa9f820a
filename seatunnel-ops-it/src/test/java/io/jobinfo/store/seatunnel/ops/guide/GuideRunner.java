package io.jobinfo.store.seatunnel.ops.guide;

import io.jobinfo.store.seatunnel.harness.junit.TestDirectories;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobinfo.store.seatunnel.harness.ClusterSpec;
import io.jobinfo.store.seatunnel.harness.junit.Guide;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the guide's blocks as an operator would on a member host: {@code host/} holds the release bundle and its
 * {@code .sha256} as copied from {@code jobinfo-store-dist/target} (system property {@code seatunnel.it.bundle}), the
 * guide's install block unpacks it there, and its {@code bin/jobinfo-store} lines run with the bundle's own launcher
 * in the unpacked directory, on this JVM's Java, with {@code SEATUNNEL_HOME} set to the test's.
 */
public final class GuideRunner {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path host;
    private final Path home;

    /** A host directory {@code files/host} (created, with the bundle and its checksum in it) and a SeaTunnel home. */
    public GuideRunner(Path files, Path home) {
        this.host = files.resolve("host");
        this.home = home;
        Path bundle = Path.of(System.getProperty("seatunnel.it.bundle", "none"));
        assertThat(bundle).as("the release bundle (system property seatunnel.it.bundle, built by jobinfo-store-dist"
                + " before this module)").isRegularFile();
        Path sha = bundle.resolveSibling(bundle.getFileName() + ".sha256");
        try {
            Files.createDirectories(host);
            Files.copy(bundle, host.resolve(bundle.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            Files.copy(sha, host.resolve(sha.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the bundle to " + host, e);
        }
    }

    /** Where the bundle unpacks: the directory the guide's tool lines run in. */
    public Path bundleDir() {
        String name = Path.of(System.getProperty("seatunnel.it.bundle")).getFileName().toString();
        return host.resolve(name.substring(0, name.length() - "-bin.tar.gz".length()));
    }

    /** Runs a whole bash block as one script ({@code set -e}) in the host directory; it must exit 0. */
    public Run script(Guide.Block block) {
        Run r = run("set -e\n" + block.text(), host);
        assertThat(r.exit).as(block.name() + ": " + r).isZero();
        return r;
    }

    /** One command line in the host directory. */
    public Run command(String command) {
        return run(command, host);
    }

    /** A {@code bin/jobinfo-store} line of the guide, run with the bundle's launcher and {@code --json} appended. */
    public Run tool(String command) {
        assertThat(command).startsWith("bin/jobinfo-store ");
        assertThat(bundleDir().resolve("bin/jobinfo-store")).as("the bundle is unpacked (the install block ran)")
                .isRegularFile();
        Run r = run(command + " --json", bundleDir());
        for (String line : r.stdout.split("\n")) {
            if (line.startsWith("{")) {
                try {
                    r.json = JSON.readTree(line);
                } catch (IOException e) {
                    throw new AssertionError("not JSON: " + r, e);
                }
            }
        }
        if (r.exit <= 1) {
            assertThat(r.json).as("a report: " + r).isNotNull(); // 2 and above: an error message, no report
        }
        return r;
    }

    private Run run(String command, Path dir) {
        try {
            Path out = Files.createTempFile(host, "cmd-", ".out");
            Path err = Files.createTempFile(host, "cmd-", ".err");
            ProcessBuilder pb = new ProcessBuilder("bash", "-c", command).directory(dir.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile());
            pb.environment().put("SEATUNNEL_HOME", home.toString());
            pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
            pb.environment().put("JOBINFO_STORE_JAVA_OPTS", "-Xmx512m -XX:TieredStopAtLevel=1");
            Process p = pb.start();
            if (!p.waitFor(4, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new AssertionError("did not finish in 4 minutes: " + command);
            }
            return new Run(command, p.exitValue(), Files.readString(out), Files.readString(err));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted: " + command, e);
        }
    }

    /** The guide's hazelcast.yaml properties, indented into the test members' own {@code properties}. */
    public static String hazelcastProperties(Guide.Block hazelcastYaml) {
        String[] lines = hazelcastYaml.text().split("\n");
        assertThat(lines[0]).isEqualTo("hazelcast:");
        assertThat(lines[1]).isEqualTo("  properties:");
        return IntStream.range(2, lines.length).mapToObj(i -> lines[i].substring(2))
                .collect(Collectors.joining("\n")) + "\n";
    }

    /** The guide's client configuration with the cluster name and the first {@code members} addresses of a spec. */
    public static String clientYaml(Guide.Block clientYaml, ClusterSpec spec, int members) {
        String members0 = IntStream.of(spec.ports()).limit(members).mapToObj(p -> "      - 127.0.0.1:" + p)
                .collect(Collectors.joining("\n"));
        String out = clientYaml.text().replace("cluster-name: seatunnel", "cluster-name: " + spec.clusterName())
                .replaceAll("(?m)^      - seatunnel-\\d:5801$\\n?", "");
        out = out.replace("cluster-members:\n", "cluster-members:\n" + members0 + "\n");
        assertThat(out).doesNotContain("seatunnel-1").contains(spec.clusterName());
        return out;
    }

    /** Writes {@code text} (UTF-8). */
    public static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes {@code dir} and everything below it, if it exists ({@link TestDirectories#deleteTree}). */
    public static void deleteTree(Path dir) {
        TestDirectories.deleteTree(dir);
    }

    /** A finished command: its exit code, output and, for a tool line, its JSON report. */
    public static final class Run {
        public final String command;
        public final int exit;
        public final String stdout;
        public final String stderr;
        public JsonNode json;

        Run(String command, int exit, String stdout, String stderr) {
            this.command = command;
            this.exit = exit;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        @Override
        public String toString() {
            return "`" + command + "` exited " + exit + "\nstdout: " + cut(stdout) + "\nstderr: " + cut(stderr);
        }

        private static String cut(String s) {
            return s.length() > 4000 ? s.substring(0, 4000) + "..." : s;
        }
    }
}
