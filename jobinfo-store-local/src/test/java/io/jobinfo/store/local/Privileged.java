package io.jobinfo.store.local;

import static org.junit.jupiter.api.Assumptions.abort;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Runs the few system commands the disk-fault tests need ({@code mount}, {@code umount}, {@code chattr}) with a time
 * bound. Where a fault cannot be made here (not Linux, not root, no mount permission, command missing), the calling
 * test is skipped through a JUnit assumption whose message says why; it never fails for lack of privilege.
 */
final class Privileged {

    /** Output and exit code of one command. */
    static final class Result {
        final int exit;
        final String output;

        Result(int exit, String output) {
            this.exit = exit;
            this.output = output;
        }
    }

    private Privileged() {
    }

    static Result run(String... command) {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        try {
            Process p = pb.start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(-1, String.join(" ", command) + ": no answer within 60 s");
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return new Result(p.exitValue(), out);
        } catch (IOException e) {
            return new Result(-1, String.join(" ", command) + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }

    /** Skips the test unless this is Linux and the JVM runs as root. */
    static void assumeRootOnLinux() {
        if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) {
            abort("disk faults are made with Linux mounts; this is " + System.getProperty("os.name"));
        }
        Result id = run("id", "-u");
        if (id.exit != 0 || !"0".equals(id.output)) {
            abort("disk faults need root (mount, chattr); running as uid " + id.output);
        }
    }

    /** Mounts a tmpfs of {@code sizeMiB} on {@code dir}, or skips the test saying why it cannot. */
    static void mountTmpfs(Path dir, int sizeMiB) {
        assumeRootOnLinux();
        Result r = run("mount", "-t", "tmpfs", "-o", "size=" + sizeMiB + "m", "tmpfs", dir.toString());
        if (r.exit != 0) {
            abort("cannot mount a tmpfs here (no mount permission in this container?): " + r.output);
        }
    }

    /** Remounts the tmpfs on {@code dir} read-only or read-write; fails the test if that does not work. */
    static void remount(Path dir, boolean readOnly) {
        check(run("mount", "-o", "remount," + (readOnly ? "ro" : "rw"), dir.toString()), "remount");
    }

    /** Sets or clears the immutable attribute of {@code path}, or skips the test if chattr cannot. */
    static void immutable(Path path, boolean on) {
        Result r = run("chattr", on ? "+i" : "-i", path.toString());
        if (r.exit != 0) {
            if (on) {
                abort("chattr +i does not work here: " + r.output);
            }
            throw new IllegalStateException("chattr -i " + path + " failed: " + r.output);
        }
    }

    /** Unmounts {@code dir}, lazily if a plain unmount fails; never throws (cleanup). */
    static void unmountQuietly(Path dir) {
        run("chattr", "-R", "-i", dir.toString());
        if (run("umount", dir.toString()).exit != 0) {
            run("umount", "-l", dir.toString());
        }
    }

    /** Whether some mount is on {@code dir}. */
    static boolean isMountPoint(Path dir) {
        return run("mountpoint", "-q", dir.toString()).exit == 0;
    }

    private static void check(Result r, String what) {
        if (r.exit != 0) {
            throw new IllegalStateException(what + " failed: " + r.output);
        }
    }
}
