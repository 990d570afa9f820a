package io.jobinfo.store.it;

import io.jobinfo.store.config.JobInfoStorageConfig;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/** One Hazelcast member running {@link MemberMain} in its own JVM, and the test's end of its command protocol. */
final class MemberProcess implements AutoCloseable {

    private final String name;
    private final int port;
    private final Process process;
    private final Writer stdin;
    private final List<String> replies = new ArrayList<>();
    private final AtomicInteger tags = new AtomicInteger();
    private final Thread reader;
    private volatile boolean standby;

    private MemberProcess(String name, int port, Process process, boolean standby) {
        this.name = name;
        this.port = port;
        this.process = process;
        this.standby = standby;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.reader = new Thread(this::readReplies, "stdout-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts a member of {@code cluster} on {@code port} that joins the ports {@code portBase..portBase+portCount-1},
     * with its store configured by {@code storage}. Returns once the member is up and its registry is built.
     */
    static MemberProcess start(String name, String cluster, int port, int portBase, int portCount,
                               JobInfoStorageConfig storage, Path logDir) throws Exception {
        return start(name, cluster, port, portBase, portCount, storage, logDir, List.of("-Xmx384m"));
    }

    /**
     * Like {@link #start(String, String, int, int, int, JobInfoStorageConfig, Path)} with these JVM options (heap,
     * {@code -Dit.lite=true} for a standby, {@code -Dit.cache.maxBytes=...}).
     */
    static MemberProcess start(String name, String cluster, int port, int portBase, int portCount,
                               JobInfoStorageConfig storage, Path logDir, List<String> extraJvm) throws Exception {
        List<String> jvm = new ArrayList<>(extraJvm);
        jvm.addAll(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Xshare:auto", "-Dhazelcast.logging.type=slf4j", "-Dhazelcast.phone.home.enabled=false",
                "-Dlogback.configurationFile=" + logbackChildConfig(),
                "-Dit.cluster=" + cluster, "-Dit.port=" + port, "-Dit.portBase=" + portBase,
                "-Dit.portCount=" + portCount, "-Dit.store.type=" + storage.type(),
                "-Dit.store.namespace=" + storage.namespace()));
        if (storage.storeId() != null) {
            jvm.add("-Dit.store.id=" + storage.storeId());
        }
        for (Map.Entry<String, String> o : storage.pluginConfig().entrySet()) {
            jvm.add("-Dit.store.opt." + o.getKey() + "=" + o.getValue());
        }
        // what Hazelcast asks for on JDK 9+ (else it warns at every start)
        jvm.addAll(List.of("--add-modules", "java.se", "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED",
                "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--add-opens", "java.base/java.nio=ALL-UNNAMED",
                "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens",
                "java.management/sun.management=ALL-UNNAMED", "--add-opens",
                "jdk.management/com.sun.management.internal=ALL-UNNAMED"));
        File err = logDir.resolve(name + ".stderr.log").toFile();
        Process p = ChildJvms.start(MemberMain.class.getName(), jvm, List.of(), err);
        MemberProcess m = new MemberProcess(name, port, p, extraJvm.contains("-Dit.lite=true"));
        try {
            // generous: on a loaded machine a member JVM with Hadoop on its classpath can take minutes to start
            m.await("0", l -> l.startsWith("UP "), Duration.ofSeconds(Integer.getInteger("it.memberStartSeconds", 300)));
        } catch (Exception e) {
            m.kill9();
            throw new IllegalStateException("member " + name + " did not start; see " + err, e);
        }
        return m;
    }

    private static String logbackChildConfig() throws URISyntaxException {
        return Path.of(MemberProcess.class.getResource("/logback-child.xml").toURI()).toString();
    }

    private void readReplies() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith(MemberMain.PREFIX)) {
                    synchronized (replies) {
                        replies.add(line.substring(MemberMain.PREFIX.length()));
                        replies.notifyAll();
                    }
                }
            }
        } catch (Exception ignored) {
            // the process died
        }
        synchronized (replies) {
            replies.notifyAll();
        }
    }

    String name() {
        return name;
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    Process process() {
        return process;
    }

    boolean alive() {
        return process.isAlive();
    }

    /** A standby (lite member, no partitions, no registry) that has not been promoted yet. */
    boolean standby() {
        return standby;
    }

    /** Promotes a standby to a data member with its registry ({@code PROMOTE}). */
    void promote(Duration timeout) throws Exception {
        String reply = call("PROMOTE", timeout);
        if (!reply.equals("PROMOTED")) {
            throw new IllegalStateException("member " + name + " was not promoted: " + reply);
        }
        standby = false;
    }

    /** Marks this standby as a data member: its promotion landed though its {@code PROMOTED} answer was lost. */
    void promoted() {
        standby = false;
    }

    /**
     * After a kill: waits until every line the process wrote before it died has been read, so that {@link #replies}
     * holds every answer that reached this JVM (an {@code ACK} among them is an acknowledged submit).
     */
    void drain(Duration timeout) throws InterruptedException {
        reader.join(timeout.toMillis());
    }

    /** Sends a command and returns its tag; replies are read with {@link #await} or {@link #replies}. */
    String send(String command) {
        String tag = "t" + tags.incrementAndGet();
        try {
            synchronized (stdin) {
                stdin.write(tag + " " + command + "\n");
                stdin.flush();
            }
        } catch (Exception e) {
            throw new IllegalStateException("member " + name + " does not take commands (dead?)", e);
        }
        return tag;
    }

    /** Sends a command and waits for its first reply. */
    String call(String command, Duration timeout) throws Exception {
        return await(send(command), l -> true, timeout);
    }

    /** The first reply of {@code tag} matching {@code match} (without the tag). */
    String await(String tag, Predicate<String> match, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (replies) {
            while (true) {
                for (String r : replies) {
                    if (r.startsWith(tag + " ") && match.test(r.substring(tag.length() + 1))) {
                        return r.substring(tag.length() + 1);
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new TimeoutException("member " + name + ": no matching reply to " + tag + " within "
                            + timeout + "; replies so far: " + replies(tag));
                }
                if (!process.isAlive()) {
                    throw new IllegalStateException("member " + name + " died waiting for a reply to " + tag);
                }
                replies.wait(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 500)));
            }
        }
    }

    /** Every reply of {@code tag} so far, without the tag. */
    List<String> replies(String tag) {
        List<String> out = new ArrayList<>();
        synchronized (replies) {
            for (String r : replies) {
                if (r.startsWith(tag + " ")) {
                    out.add(r.substring(tag.length() + 1));
                }
            }
        }
        return out;
    }

    /** What a member's full {@code RESTORE} reported: restored jobs (id -> SHA-256 of the job) and failed job ids. */
    record Restored(Map<Long, String> jobs, Set<Long> failed) {
    }

    /** Sends {@code RESTORE}, waits for {@code RESTORE_DONE} and collects what the member reported. */
    Restored restoreAll(Duration timeout) throws Exception {
        return awaitRestored(send("RESTORE"), timeout);
    }

    /** Waits for {@code RESTORE_DONE} of the {@code RESTORE} sent as {@code tag} and collects what was reported. */
    Restored awaitRestored(String tag, Duration timeout) throws Exception {
        await(tag, r -> r.startsWith("RESTORE_DONE "), timeout);
        Map<Long, String> restored = new HashMap<>();
        Set<Long> failed = new TreeSet<>();
        for (String r : replies(tag)) {
            String[] w = r.split(" ");
            if (w[0].equals("RESTORED")) {
                restored.put(Long.parseLong(w[1]), w[2]);
            } else if (w[0].equals("RESTORE_FAILED")) {
                failed.add(Long.parseLong(w[1]));
            }
        }
        return new Restored(restored, failed);
    }

    /** SIGKILL: no shutdown hook, no graceful leave. */
    void kill9() {
        ChildJvms.kill9(process);
    }

    @Override
    public void close() {
        kill9();
    }

    @Override
    public String toString() {
        return name + "(pid " + process.pid() + ", port " + port + ")";
    }
}
