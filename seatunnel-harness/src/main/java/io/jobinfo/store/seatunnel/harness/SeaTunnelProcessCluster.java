package io.jobinfo.store.seatunnel.harness;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Real SeaTunnel Zeta members, each a JVM process of its own running {@code SeaTunnelServerStarter}, on loopback ports
 * of their own. Configuration files and member logs go under {@code baseDir} (a directory under {@code target/}).
 *
 * <p>{@link #close()} stops every member that is still alive; a JVM shutdown hook does the same if a test run dies
 * before it. A member that cannot be started makes {@link #start()} fail with the member's log path in the message.
 */
public final class SeaTunnelProcessCluster implements AutoCloseable {

    static final String MAIN_CLASS = "org.apache.seatunnel.engine.server.SeaTunnelServerStarter";

    private final ClusterSpec spec;
    private final Path baseDir;
    private final Path checkpointDir;
    private final String classpath;
    private final Process[] processes;
    private final ClusterFiles.MemberFiles[] files;
    private final Thread shutdownHook;

    public SeaTunnelProcessCluster(ClusterSpec spec, Path baseDir) {
        this.spec = spec;
        this.baseDir = baseDir.toAbsolutePath();
        this.checkpointDir = this.baseDir.resolve("checkpoint");
        this.classpath = memberClasspath(spec.extraClasspath());
        this.processes = new Process[spec.size()];
        this.files = new ClusterFiles.MemberFiles[spec.size()];
        this.shutdownHook = new Thread(this::killAll, "seatunnel-it-cluster-stop-" + spec.clusterName());
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * The classpath of a member: {@code extra} in front (the drop-in plugin jar, when the spec asks for it), then the
     * engine. In seatunnel-it's tests: the compile-scope closure of that module written by the build to the file named
     * by {@code seatunnel.it.member.classpath} (SeaTunnel 2.3.8 engine, client, connectors, the uber Hadoop jar, this
     * harness with its probes; no test-only library such as S3Proxy or JUnit), then the test classes named by
     * {@code seatunnel.it.test.classes}, if any. Without that file (the scenario JVM of the demo and the benchmarks,
     * which runs on {@code target/engine.classpath}, or a run outside Maven) this JVM's own classpath without the
     * plugin.
     *
     * @throws UncheckedIOException if the named classpath file cannot be read
     */
    static String memberClasspath(List<String> extra) {
        List<String> parts = new ArrayList<>(extra);
        String file = System.getProperty("seatunnel.it.member.classpath");
        if (file != null && Files.isRegularFile(Path.of(file))) {
            try {
                parts.add(Files.readString(Path.of(file)).trim());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the member classpath " + file, e);
            }
            String testClasses = System.getProperty("seatunnel.it.test.classes");
            if (testClasses != null) {
                parts.add(testClasses);
            }
            return String.join(File.pathSeparator, parts);
        }
        for (String entry : testClasspath()) {
            // the drop-in plugin is on the test classpath (for the build order and the probes' compilation) but
            // goes to a member only when its spec asks for it
            // absolute: a member runs in a directory of its own
            if (!entry.contains(PLUGIN_ARTIFACT) && !entry.isEmpty()) {
                parts.add(Path.of(entry).toAbsolutePath().toString());
            }
        }
        return String.join(File.pathSeparator, parts);
    }

    static final String PLUGIN_ARTIFACT = "jobinfo-store-seatunnel-plugin";

    private static List<String> testClasspath() {
        String own = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return List.of(own.split(File.pathSeparator));
    }

    /**
     * The shaded drop-in jar on the test classpath.
     *
     * @throws IllegalStateException if the build put the plugin's classes directory there instead (a run that
     *                               stopped before {@code package}): run the module with {@code verify}
     */
    public static Path pluginJar() {
        for (String entry : testClasspath()) {
            if (entry.contains(PLUGIN_ARTIFACT)) {
                Path p = Path.of(entry);
                if (Files.isRegularFile(p) && entry.endsWith(".jar")) {
                    return p;
                }
                throw new IllegalStateException("the drop-in plugin on the test classpath is " + entry + ", not its "
                        + "shaded jar; run: mvn -pl seatunnel-it -am verify");
            }
        }
        throw new IllegalStateException(PLUGIN_ARTIFACT + " is not on the test classpath");
    }

    public ClusterSpec spec() {
        return spec;
    }

    public Path baseDir() {
        return baseDir;
    }

    /** Starts every member (the processes join in parallel); returns at once. */
    public SeaTunnelProcessCluster start() {
        return start(processes.length);
    }

    /** Starts members 0 to {@code count - 1}; the others are spares a test starts later. Returns at once. */
    public SeaTunnelProcessCluster start(int count) {
        for (int i = 0; i < count; i++) {
            startMember(i, spec);
        }
        return this;
    }

    /**
     * Starts member {@code index} with {@code variant}'s YAML and classpath (same cluster name and ports), writing
     * its files anew. The log of an earlier run of that member is kept with a numbered suffix.
     *
     * @throws IllegalStateException if that member is still alive
     */
    public synchronized void startMember(int index, ClusterSpec variant) {
        if (processes[index] != null && processes[index].isAlive()) {
            throw new IllegalStateException("member " + index + " of " + spec.clusterName() + " is still running");
        }
        Path memberDir = baseDir.resolve("member-" + index);
        ClusterFiles.MemberFiles f = ClusterFiles.write(variant, index, memberDir, checkpointDir);
        rotate(f.log());
        rotate(f.serverLog());
        files[index] = f;
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(variant.jvmOptions());
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-Dseatunnel.config=" + f.seatunnelYaml());
        cmd.add("-Dhazelcast.config=" + f.hazelcastYaml());
        cmd.add("-Dlog4j2.configurationFile=" + f.log4j2());
        if (variant.seaTunnelLogFile()) {
            cmd.addAll(ClusterFiles.stockLoggingOptions(f));
        }
        cmd.add("-DSEATUNNEL_HOME=" + memberDir);
        cmd.add("-Dseatunnel.it.member=" + index);
        cmd.add("-cp");
        cmd.add(variant == spec ? classpath : memberClasspath(variant.extraClasspath()));
        cmd.add(MAIN_CLASS);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(memberDir.toFile()).redirectErrorStream(true)
                .redirectOutput(f.log().toFile());
        try {
            processes[index] = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start member " + index + " (" + cmd.get(0) + ")", e);
        }
    }

    private static void rotate(Path log) {
        if (!Files.exists(log)) {
            return;
        }
        for (int n = 1; ; n++) {
            Path older = log.resolveSibling(log.getFileName() + "." + n);
            if (!Files.exists(older)) {
                try {
                    Files.move(log, older);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot keep the earlier log " + log, e);
                }
                return;
            }
        }
    }

    /** The loopback port of member {@code index}. */
    public int port(int index) {
        return spec.ports()[index];
    }

    /** The member index listening on {@code port}, or -1. */
    public int indexOfPort(int port) {
        for (int i = 0; i < spec.size(); i++) {
            if (spec.ports()[i] == port) {
                return i;
            }
        }
        return -1;
    }

    /** What member {@code index} wrote to stdout and stderr (with the harness's log configuration: its whole log). */
    public Path log(int index) {
        return files[index].log();
    }

    /**
     * SeaTunnel's own log file of member {@code index}, {@code logs/seatunnel-engine-server.log} under its SeaTunnel
     * home, written when the member was started from a spec {@link ClusterSpec#withSeaTunnelLogFile()} (an earlier
     * start's file is kept with a numbered suffix, as {@link #log(int)}'s).
     */
    public Path serverLog(int index) {
        return files[index].serverLog();
    }

    public boolean isAlive(int index) {
        return processes[index] != null && processes[index].isAlive();
    }

    public long pid(int index) {
        return processes[index].pid();
    }

    /** The indexes of members whose process is alive. */
    public List<Integer> aliveMembers() {
        List<Integer> alive = new ArrayList<>();
        for (int i = 0; i < processes.length; i++) {
            if (isAlive(i)) {
                alive.add(i);
            }
        }
        return alive;
    }

    /**
     * {@code kill -9} of member {@code index} ({@link Process#destroyForcibly()} sends SIGKILL on Unix); waits until
     * the process is gone.
     */
    public void kill(int index) {
        Process p = processes[index];
        if (p == null) {
            return;
        }
        p.destroyForcibly();
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("member " + index + " (pid " + p.pid() + ") survived SIGKILL for 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing member " + index, e);
        }
    }

    /**
     * Stops member {@code index} as an operator does (SIGTERM: Hazelcast's shutdown hook runs, gracefully when
     * {@code hazelcast.shutdownhook.policy} is GRACEFUL) and waits up to 2 minutes for the process to end, then kills it.
     */
    public void stop(int index) {
        Process p = processes[index];
        if (p == null || !p.isAlive()) {
            return;
        }
        p.destroy();
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                throw new IllegalStateException("member " + index + " did not stop within 2 minutes of SIGTERM");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IllegalStateException("interrupted while stopping member " + index, e);
        }
    }

    /** Waits up to {@code timeout} for member {@code index} to exit by itself; returns its exit code or null. */
    public Integer awaitExit(int index, Duration timeout) throws InterruptedException {
        Process p = processes[index];
        return p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? p.exitValue() : null;
    }

    /**
     * {@code kill -9} of every member at once (SIGKILL to all, then the wait): a power cut of the whole cluster. The
     * cluster can be started again with {@link #start()}.
     */
    public void killEveryMember() {
        for (Process p : processes) {
            if (p != null && p.isAlive()) {
                p.destroyForcibly();
            }
        }
        awaitEveryExit(30);
    }

    /**
     * Stops every member as an operator's stop script does: SIGTERM to all at once (SeaTunnel's and Hazelcast's
     * shutdown hooks run), then waits; members still alive after 60 s are killed and this throws.
     *
     * @throws IllegalStateException if a member had to be killed
     */
    public void stopEveryMember() {
        for (Process p : processes) {
            if (p != null && p.isAlive()) {
                p.destroy();
            }
        }
        List<Integer> killed = awaitEveryExit(60);
        if (!killed.isEmpty()) {
            throw new IllegalStateException("members " + killed + " did not stop within 60 s of SIGTERM and were killed");
        }
    }

    /** Waits for every member process to end; those alive after {@code seconds} are killed; returns their indexes. */
    private List<Integer> awaitEveryExit(int seconds) {
        List<Integer> killed = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        for (int i = 0; i < processes.length; i++) {
            Process p = processes[i];
            if (p == null) {
                continue;
            }
            try {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !p.waitFor(left, TimeUnit.NANOSECONDS)) {
                    killed.add(i);
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
        return killed;
    }

    /** Starts member {@code index} again with the cluster's own configuration. */
    public void restart(int index) {
        startMember(index, spec);
    }

    /** The last {@code maxChars} characters of member {@code index}'s log, for failure messages. */
    public String logTail(int index, int maxChars) {
        try {
            if (files[index] == null || !Files.exists(files[index].log())) {
                return "";
            }
            String text = Files.readString(files[index].log());
            return text.length() <= maxChars ? text : text.substring(text.length() - maxChars);
        } catch (IOException e) {
            return "(cannot read " + files[index].log() + ": " + e + ")";
        }
    }

    /** Stops every member: SIGTERM, then SIGKILL for those still alive after 10 s. */
    @Override
    public void close() {
        for (Process p : processes) {
            if (p != null && p.isAlive()) {
                p.destroy();
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (Process p : processes) {
            if (p == null) {
                continue;
            }
            try {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !p.waitFor(left, TimeUnit.NANOSECONDS)) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to: it kills what is left
        }
    }

    private void killAll() {
        for (Process p : processes) {
            if (p != null && p.isAlive()) {
                p.destroyForcibly();
            }
        }
    }
}
