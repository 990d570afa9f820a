package io.jobinfo.store.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

/**
 * The child JVM of {@link SlowDisk}: mounts a {@link DelayingFuseFs} of {@code args[0]} (the backing directory) on
 * {@code args[1]} and takes commands on stdin, one a line: {@code delay <writeMillis> <fsyncMillis>}, {@code stall},
 * {@code release}, {@code counts}, {@code reset} (no delay, no stall, counts zero), {@code exit}. It answers each on stdout ({@code ok}, or {@code counts ...}) and
 * reports {@code event mounted} once the kernel has the mount and {@code event stalled fsync <path>} whenever an fsync
 * starts waiting in stall mode. If libfuse cannot be loaded it prints {@code nolib <reason>} and exits with 3; if the
 * mount fails, {@code error <reason>} and exits with 2. When stdin ends (the test JVM is gone) or on {@code exit} it
 * releases every stalled fsync, unmounts (lazily) and exits, so that no mount outlives its test.
 */
public final class DelayingFuseMain {

    /** Mount options: 128 KiB write requests (libfuse 2 splits writes into 4 KiB ones otherwise), real inode
     * numbers (hard links), and unlink at once even while a file is open (no {@code .fuse_hidden} renames). */
    static final String OPTIONS = "big_writes,max_write=131072,use_ino,hard_remove,fsname=jobinfo-slowdisk";

    private DelayingFuseMain() {
    }

    public static void main(String[] args) {
        Path backing = Paths.get(args[0]).toAbsolutePath();
        Path mountPoint = Paths.get(args[1]).toAbsolutePath();
        PrintStream out = System.out;
        DelayingFuseFs fs;
        try {
            fs = new DelayingFuseFs(backing, line -> say(out, "event " + line));
        } catch (Throwable t) { // UnsatisfiedLinkError and friends from the library loader
            say(out, "nolib " + t);
            System.exit(3);
            return;
        }
        Thread control = new Thread(() -> control(fs, mountPoint, out), "slowdisk-control");
        control.setDaemon(true);
        control.start();
        try {
            fs.mount(mountPoint, true, false, new String[] {"-o", OPTIONS});
        } catch (Throwable t) {
            say(out, "error " + t + (t.getCause() != null ? " (" + t.getCause() + ")" : ""));
            System.exit(2);
        }
        say(out, "event unmounted");
        System.exit(0);
    }

    private static void control(DelayingFuseFs fs, Path mountPoint, PrintStream out) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] words = line.trim().split("\\s+");
                switch (words[0]) {
                    case "delay":
                        fs.delay(Long.parseLong(words[1]), Long.parseLong(words[2]));
                        say(out, "ok");
                        break;
                    case "stall":
                        fs.stall();
                        say(out, "ok");
                        break;
                    case "release":
                        fs.release();
                        say(out, "ok");
                        break;
                    case "reset":
                        fs.reset();
                        say(out, "ok");
                        break;
                    case "counts":
                        say(out, "counts writes=" + fs.writes.get() + " fsyncs=" + fs.fsyncs.get() + " stalledFsyncs="
                                + fs.stalledFsyncs.get() + " delayedMillis=" + fs.delayedMillis.get());
                        break;
                    case "exit":
                        shutDown(fs, mountPoint);
                        return;
                    default:
                        say(out, "unknown command: " + line);
                }
            }
        } catch (IOException | RuntimeException e) {
            say(out, "control failed: " + e);
        }
        shutDown(fs, mountPoint); // stdin ended: the test JVM is gone
    }

    private static void shutDown(DelayingFuseFs fs, Path mountPoint) {
        fs.release();
        try {
            Process p = new ProcessBuilder("umount", "-l", mountPoint.toString()).redirectErrorStream(true).start();
            p.waitFor(20, TimeUnit.SECONDS);
        } catch (IOException e) {
            // nothing more to do: the exit below ends the connection, and the kernel fails every later access
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Runtime.getRuntime().halt(0);
    }

    private static void say(PrintStream out, String line) {
        synchronized (out) {
            out.println(line);
            out.flush();
        }
    }
}
