package io.jobinfo.store.it;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Every JVM the suite starts, so that none outlives it: each is killed (SIGKILL) by its test, and a shutdown hook of
 * the test JVM kills whatever is left if a test is aborted.
 */
final class ChildJvms {

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ChildJvms::killAll, "kill-child-jvms"));
    }

    private ChildJvms() {
    }

    /** The test classpath: surefire's full list when it runs us through a manifest-only jar. */
    static String testClasspath() {
        String cp = System.getProperty("surefire.test.class.path");
        if (cp == null || cp.isBlank()) {
            cp = System.getProperty("java.class.path");
        }
        return cp;
    }

    static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Starts {@code mainClass} in a new JVM with the test classpath (passed through CLASSPATH, not argv). */
    static Process start(String mainClass, List<String> jvmArgs, List<String> args, File stderr) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.addAll(jvmArgs);
        command.add(mainClass);
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("CLASSPATH", testClasspath());
        pb.redirectError(ProcessBuilder.Redirect.appendTo(stderr));
        Process p = pb.start();
        LIVE.add(p);
        p.onExit().thenRun(() -> LIVE.remove(p));
        return p;
    }

    /** SIGKILL, and wait until the process is gone. */
    static void kill9(Process p) {
        p.destroyForcibly();
        try {
            p.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LIVE.remove(p);
    }

    static void killAll() {
        for (Process p : List.copyOf(LIVE)) {
            p.destroyForcibly();
        }
        for (Process p : List.copyOf(LIVE)) {
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        LIVE.clear();
    }

    /** Sends a POSIX signal ({@code STOP}, {@code CONT}, {@code KILL}) with kill(1). */
    static void signal(Process p, String signal) throws Exception {
        Process k = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).inheritIO().start();
        if (!k.waitFor(10, TimeUnit.SECONDS) || k.exitValue() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + p.pid() + " failed");
        }
    }
}
