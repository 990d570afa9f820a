package io.jobinfo.store.local;

import static org.junit.jupiter.api.Assumptions.abort;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.function.ThrowingSupplier;

/**
 * A real slow disk for the local store's tests: a {@link DelayingFuseFs} over a backing directory, mounted by a child
 * JVM ({@link DelayingFuseMain}) and driven from the test: {@link #delay} every write and fsync, {@link #stall} every
 * fsync until {@link #release}, {@link #crash} the file system's server (the mount then fails every access with
 * {@code ENOTCONN}, "Transport endpoint is not connected", as a dead FUSE or hard-NFS server does once its connection
 * is aborted) and {@link #restart} it over the same backing directory.
 *
 * <p>Where no such disk can be made here, {@link #mount} skips the calling test through a JUnit assumption whose
 * message names what is missing: not Linux or not root, no {@code /dev/fuse}, libfuse 2 not installed
 * ({@code apt-get install libfuse2}; CI's {@code .ci/run} installs it), or the kernel refused the mount. Every wait on
 * the child is bounded (30 s), so a broken set-up fails or skips instead of hanging the build. {@link #close} releases
 * stalled fsyncs, unmounts (lazily if busy) and ends the child; call it from {@code @AfterEach} so that a failed test
 * leaves no mount behind. The child also unmounts and exits by itself when the test JVM goes away (its stdin ends).
 */
public final class SlowDisk implements AutoCloseable {

    /** How long {@link #bounded} waits for a call before it reports a hang. */
    public static final long CALL_BOUND_SECONDS = 120;

    private static final long BOUND_SECONDS = 30;

    private final Path backing;
    private final Path mountPoint;
    private Process child;
    private Writer commands;
    private BlockingQueue<String> replies;
    private BlockingQueue<String> stalled;

    private SlowDisk(Path backing, Path mountPoint) {
        this.backing = backing;
        this.mountPoint = mountPoint;
    }

    /** Mounts a slow disk of {@code backing} on {@code mountPoint} (both directories, created if missing). */
    public static SlowDisk mount(Path backing, Path mountPoint) throws IOException {
        Privileged.assumeRootOnLinux();
        if (!Files.exists(Paths.get("/dev/fuse"))) {
            abort("no /dev/fuse here, so no FUSE file system (the slow disk) can be mounted: load the fuse kernel"
                    + " module, or give the container the device");
        }
        SlowDisk disk = new SlowDisk(Files.createDirectories(backing), Files.createDirectories(mountPoint));
        disk.start();
        return disk;
    }

    /** The directory the FUSE file system writes through to (what is really on the disk). */
    public Path backing() {
        return backing;
    }

    public Path mountPoint() {
        return mountPoint;
    }

    private void start() throws IOException {
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder pb = new ProcessBuilder(java.toString(), "-Xmx128m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                DelayingFuseMain.class.getName(), backing.toString(), mountPoint.toString())
                .redirectErrorStream(true);
        Process p = pb.start();
        child = p;
        commands = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
        replies = new LinkedBlockingQueue<>();
        stalled = new LinkedBlockingQueue<>();
        BlockingQueue<String> startup = new LinkedBlockingQueue<>();
        StringBuilder output = new StringBuilder();
        BlockingQueue<String> myReplies = replies;
        BlockingQueue<String> myStalled = stalled;
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.equals("event mounted") || line.startsWith("nolib ") || line.startsWith("error ")) {
                        startup.add(line);
                    } else if (line.startsWith("event stalled fsync ")) {
                        myStalled.add(line.substring("event stalled fsync ".length()));
                    } else if (line.equals("ok") || line.startsWith("counts ") || line.startsWith("unknown ")) {
                        myReplies.add(line);
                    } else if (!line.startsWith("event ")) {
                        synchronized (output) {
                            output.append(line).append('\n');
                        }
                    }
                }
            } catch (IOException ignored) {
                // the child is gone
            }
            startup.add("exited");
        }, "slowdisk-output");
        reader.setDaemon(true);
        reader.start();
        String first;
        try {
            first = startup.poll(BOUND_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            first = null;
        }
        if (first == null || !first.equals("event mounted")) {
            p.destroyForcibly();
            Privileged.run("umount", "-l", mountPoint.toString());
            String said;
            synchronized (output) {
                said = output.toString().trim();
            }
            if (first != null && first.startsWith("nolib ")) {
                abort("libfuse 2 (libfuse.so.2) is not installed, so the slow disk (a FUSE file system) cannot be"
                        + " mounted; install it with 'apt-get install libfuse2' (.ci/run does): "
                        + first.substring(6));
            }
            if (first != null && first.startsWith("error ")) {
                abort("mounting the slow disk (FUSE) on " + mountPoint + " failed (no mount permission in this"
                        + " container?): " + first.substring(6) + (said.isEmpty() ? "" : "; " + said));
            }
            abort("the slow disk (FUSE) was not mounted on " + mountPoint + " within " + BOUND_SECONDS + " s ("
                    + (first == null ? "no answer" : "the child JVM exited") + ")" + (said.isEmpty() ? "" : ": "
                    + said));
        }
        if (!mounted()) {
            close();
            throw new IllegalStateException("the slow disk reported mounted but " + mountPoint + " is no mount point");
        }
    }

    private synchronized String command(String line) {
        try {
            commands.write(line + "\n");
            commands.flush();
            String reply = replies.poll(BOUND_SECONDS, TimeUnit.SECONDS);
            if (reply == null) {
                throw new IllegalStateException("the slow disk did not answer '" + line + "' within " + BOUND_SECONDS
                        + " s");
            }
            return reply;
        } catch (IOException e) {
            throw new IllegalStateException("the slow disk's child JVM is gone (" + e + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Every write request waits {@code write} first, every fsync (file or directory) {@code fsync}; zero: none. */
    public void delay(Duration write, Duration fsync) {
        command("delay " + write.toMillis() + " " + fsync.toMillis());
    }

    /** From now on every fsync blocks until {@link #release} (a disk that stops answering). */
    public void stall() {
        command("stall");
    }

    /** Lets every stalled fsync finish, and later ones through. */
    public void release() {
        command("release");
    }

    /**
     * Back to a plain passthrough, for the next test on the same mount: no delay, no stall (blocked fsyncs go on),
     * counts zero, no stalled fsync waiting to be reported.
     */
    public void reset() {
        command("reset");
        stalled.clear();
    }

    /** Whether the file system's server (the child JVM) is running. */
    public boolean alive() {
        return child != null && child.isAlive();
    }

    /**
     * Waits (at most {@code bound}) until an fsync blocks on the stalled disk, and returns the path it syncs, relative
     * to the mount ({@code /} for the directory itself).
     *
     * @throws AssertionError no fsync reached the disk in time
     */
    public String awaitStalledFsync(Duration bound) throws InterruptedException {
        String path = stalled.poll(bound.toMillis(), TimeUnit.MILLISECONDS);
        if (path == null) {
            throw new AssertionError("no fsync reached the stalled disk within " + bound);
        }
        return path;
    }

    /** Counts since the mount: {@code writes}, {@code fsyncs}, {@code stalledFsyncs}, {@code delayedMillis}. */
    public Map<String, Long> counts() {
        String reply = command("counts");
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String word : reply.substring("counts ".length()).split(" ")) {
            String[] kv = word.split("=");
            counts.put(kv[0], Long.parseLong(kv[1]));
        }
        return counts;
    }

    /**
     * Kills the file system's server (SIGKILL): the kernel aborts its connection, every call blocked on the mount
     * fails with {@code ENOTCONN}, and so does every later access until {@link #restart}.
     */
    public void crash() throws InterruptedException {
        child.destroyForcibly();
        if (!child.waitFor(BOUND_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the slow disk's child JVM did not die within " + BOUND_SECONDS + " s");
        }
    }

    /** After {@link #crash}: unmounts the dead mount and mounts a new server over the same backing directory. */
    public void restart() throws IOException {
        unmount();
        start();
    }

    private void unmount() {
        if (mounted() && Privileged.run("umount", mountPoint.toString()).exit != 0) {
            Privileged.run("umount", "-l", mountPoint.toString());
        }
    }

    /**
     * Whether a mount is on the mount point, from {@code /proc/self/mounts} ({@code mountpoint(1)} stats the
     * directory, which fails with {@code ENOTCONN} once the server is dead).
     */
    private boolean mounted() {
        try {
            String target = mountPoint.toAbsolutePath().toString();
            for (String line : Files.readAllLines(Paths.get("/proc/self/mounts"))) {
                String[] fields = line.split(" ");
                if (fields.length > 1 && fields[1].equals(target)) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return true; // try to unmount anyway
        }
    }

    /** Releases stalled fsyncs, unmounts and ends the child; never throws (cleanup). */
    @Override
    public void close() {
        Process p = child;
        if (p != null && p.isAlive()) {
            try {
                command("release");
            } catch (RuntimeException ignored) {
                // unmounted below anyway
            }
        }
        unmount();
        if (p != null) {
            try {
                commands.close(); // the child's stdin ends: it unmounts (already done) and exits
            } catch (IOException ignored) {
                // gone already
            }
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(BOUND_SECONDS, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }


    /**
     * Runs {@code call} with a bound that only catches a hang, on a thread of its own that is NOT interrupted when the
     * bound passes (JUnit's preemptive timeout would interrupt it, and interrupting a thread blocked on a stalled disk
     * blocks the interrupter: see LocalDiskFaultTest). The bound is {@value #CALL_BOUND_SECONDS} seconds. Returns what the
     * call returns and throws what it throws.
     */
    public static <T> T bounded(ThrowingSupplier<T> call) {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                result.set(call.get());
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "bounded-store-call");
        t.setDaemon(true);
        t.start();
        try {
            t.join(TimeUnit.SECONDS.toMillis(CALL_BOUND_SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for a store call", e);
        }
        if (t.isAlive()) {
            throw new AssertionError("a store call did not return within " + CALL_BOUND_SECONDS
                    + " s (a hang; its thread is left alone, since interrupting a thread blocked on a disk blocks the interrupter)");
        }
        if (failure.get() != null) {
            throw SlowDisk.<RuntimeException>sneaky(failure.get());
        }
        return result.get();
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable e) throws E {
        throw (E) e;
    }
}
