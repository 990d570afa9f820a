package io.jobinfo.store.demo.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The built {@code seatunnel-harness} module: its jar, the class path of the SeaTunnel 2.3.8 engine it runs on
 * ({@code target/engine.classpath}) and the shaded drop-in jar ({@code target/dropin-plugin.path}), and how to run its
 * scenario in a JVM of its own. That JVM is needed: SeaTunnel bundles Hazelcast 5.1, unrelocated, and this JVM runs
 * Hazelcast 5.7; the two cannot share a class path.
 *
 * <p>Where: the directory named by the system property {@value #PROPERTY}, else {@code seatunnel-harness/target}
 * in the source tree this class was loaded from (its jar or classes directory, up to five levels up) or under the
 * working directory.
 */
public final class EngineHarness {

    public static final String PROPERTY = "jobinfo.seatunnel.harness";
    public static final String BUILD = "mvn -B -q -DskipTests -pl seatunnel-harness -am package";
    static final String MAIN = "io.jobinfo.store.seatunnel.harness.EngineScenarioMain";

    private final Path jar;
    private final String classpath;
    private final Path pluginJar;
    /** The scenario JVM's main class: {@value #MAIN}, or a test's stand-in. */
    private final String main;

    EngineHarness(Path jar, String classpath, Path pluginJar, String main) {
        this.jar = jar;
        this.classpath = classpath;
        this.pluginJar = pluginJar;
        this.main = main;
    }

    /** Thrown when the harness is not built; the message says where it looked and the command that builds it. */
    public static final class NotBuilt extends Exception {
        private static final long serialVersionUID = 1L;

        NotBuilt(String message) {
            super(message);
        }
    }

    /**
     * Finds the built harness.
     *
     * @throws NotBuilt if no directory holds all three files, naming where it looked and how to build it
     */
    public static EngineHarness locate() throws NotBuilt {
        List<Path> candidates = new ArrayList<>();
        String property = System.getProperty(PROPERTY);
        if (property != null) {
            candidates.add(Path.of(property));
        } else {
            try {
                Path here = Path.of(EngineHarness.class.getProtectionDomain().getCodeSource().getLocation().toURI());
                for (Path p = here.getParent(); p != null && candidates.size() < 5; p = p.getParent()) {
                    candidates.add(p.resolve("seatunnel-harness").resolve("target"));
                }
            } catch (URISyntaxException | RuntimeException e) {
                // no code source: the working directory only
            }
            candidates.add(Path.of("seatunnel-harness", "target").toAbsolutePath());
        }
        for (Path dir : candidates) {
            Path jar = dir.resolve("seatunnel-harness.jar");
            Path cp = dir.resolve("engine.classpath");
            Path plugin = dir.resolve("dropin-plugin.path");
            if (Files.isRegularFile(jar) && Files.isRegularFile(cp) && Files.isRegularFile(plugin)) {
                try {
                    Path pluginJar = Path.of(Files.readString(plugin).trim());
                    if (!Files.isRegularFile(pluginJar)) {
                        throw new NotBuilt("the drop-in plugin jar " + pluginJar + " named by " + plugin + " is"
                                + " missing: run " + BUILD);
                    }
                    return new EngineHarness(jar.toAbsolutePath(), Files.readString(cp).trim(), pluginJar, MAIN);
                } catch (IOException e) {
                    throw new NotBuilt("cannot read " + cp + " or " + plugin + " (" + e.getMessage() + "): run "
                            + BUILD);
                }
            }
        }
        throw new NotBuilt("the SeaTunnel engine harness is not built (looked for seatunnel-harness.jar, "
                + "engine.classpath and dropin-plugin.path in " + candidates + "): run " + BUILD
                + " in the source tree (bin/jobinfo-store does it when given --engine seatunnel), or name its target"
                + " directory with -D" + PROPERTY + "=DIR");
    }

    public Path pluginJar() {
        return pluginJar;
    }

    /**
     * The scenario JVM's exit code, the JSON it wrote (null if it wrote none), and whether it was stopped because
     * its time-out passed.
     */
    public record Outcome(int exitCode, JsonNode result, boolean timedOut) {

        /** Whether the scenario ran to the end: it wrote a result without an error. */
        public boolean completed() {
            return result != null && !result.has("error");
        }

        /**
         * Why the scenario did not complete, in a sentence without its final stop (null if it did): the time-out, the
         * error it reported, or its exit code.
         */
        public String failure() {
            if (completed()) {
                return null;
            }
            if (timedOut) {
                return "the scenario did not end within its time-out and was stopped"
                        + (result == null ? "" : " (" + result.path("error").asText() + ")");
            }
            return result == null ? "the scenario JVM ended with exit code " + exitCode + " and no result"
                    : result.path("error").asText();
        }
    }

    /**
     * Runs the scenario with {@code args} (EngineScenarioMain's options, {@code --out} and {@code --work-dir} added
     * here) and waits for it, handing every line it prints to {@code progress}. If this JVM is stopped meanwhile, or
     * {@code timeout} passes, the scenario JVM is asked to stop (SIGTERM), which stops its members.
     *
     * @throws IOException if the JVM cannot be started or its JSON cannot be read
     */
    public Outcome run(List<String> args, Path workDir, Consumer<String> progress, Duration timeout)
            throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path out = workDir.resolve("result.json");
        Files.deleteIfExists(out);
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx512m");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-cp");
        cmd.add(jar + java.io.File.pathSeparator + classpath);
        cmd.add(main);
        cmd.addAll(args);
        cmd.addAll(List.of("--out", out.toString(), "--work-dir", workDir.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        Thread stopper = new Thread(p::destroy, "jobinfo-engine-demo-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        Thread pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    progress.accept(line);
                }
            } catch (IOException e) {
                progress.accept("(progress of the scenario JVM lost: " + e.getMessage() + ")");
            }
        }, "jobinfo-engine-demo-progress");
        pump.setDaemon(true);
        pump.start();
        boolean timedOut = false;
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                timedOut = true;
                progress.accept("the scenario did not end within " + timeout + ": stopping it");
                p.destroy();
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
        } finally {
            if (p.isAlive()) {
                p.destroy();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(stopper);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
        pump.join(5000);
        int exit = p.isAlive() ? -1 : p.exitValue();
        JsonNode result = Files.isRegularFile(out) ? new ObjectMapper().readTree(out.toFile()) : null;
        return new Outcome(exit, result, timedOut);
    }
}
