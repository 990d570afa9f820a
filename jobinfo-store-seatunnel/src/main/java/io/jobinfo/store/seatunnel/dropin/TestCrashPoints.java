package io.jobinfo.store.seatunnel.dropin;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;

/**
 * TEST-ONLY seam: lets a crash test park a member at a precise point of the drop-in's work, so that it can kill the
 * member there ({@code kill -9}). Off unless the member's JVM runs with the system property {@value #PROPERTY} naming
 * a directory; no production configuration sets it, and when it is absent every call is one null check.
 *
 * <p>Protocol (files in that directory, shared by the test and every member):
 * <ol>
 *   <li>the test arms a point by writing {@code arm-<point>} holding a job id, or {@code *} for any job, optionally
 *   followed by {@code hold=<millis>} to park for that long instead of {@value #HOLD_MILLIS} ms;</li>
 *   <li>the first member thread that reaches that point for a matching job claims it by renaming the arm file
 *   (atomic: one claimer only), writes {@code reached-<point>} holding {@code <pid> <jobId>}, and sleeps for up to
 *   {@value #HOLD_MILLIS} ms, waiting to be killed;</li>
 *   <li>if it is not killed by then it carries on as if nothing happened.</li>
 * </ol>
 * Points: {@link #BEFORE_PUT} (SeaTunnel's inline put of a new job, in the join guard's {@code interceptPut}, before
 * the put lands), {@link #BEFORE_BLOB} (put landed, before the mover writes the blob), {@link #BEFORE_REPLACE} (blob
 * written, before the reference replaces the inline value), {@link #AFTER_REPLACE} (reference in place),
 * {@link #BEFORE_BLOB_DELETE} (entry removed at job end, before the blob is deleted), {@link #BEFORE_GC_DELETE} (the
 * gc found no entry for a blob and is about to delete it) and {@link #RESOLVE} (a job is being read back through the
 * store, as a new master's restore does).
 *
 * <p>Failure: any I/O error of the seam itself is ignored (the drop-in carries on); it never throws.
 */
final class TestCrashPoints {

    /** The system property that turns the seam on: a directory. Tests only. */
    static final String PROPERTY = "jobinfo.dropin.test.crash-points";
    static final long HOLD_MILLIS = 60_000;

    static final String BEFORE_PUT = "before-put";
    static final String BEFORE_BLOB = "before-blob";
    static final String BEFORE_REPLACE = "before-replace";
    static final String AFTER_REPLACE = "after-replace";
    static final String BEFORE_BLOB_DELETE = "before-blob-delete";
    static final String BEFORE_GC_DELETE = "before-gc-delete";
    static final String RESOLVE = "resolve";

    private static final Path DIR = dir();

    private TestCrashPoints() {
    }

    private static Path dir() {
        String value = System.getProperty(PROPERTY);
        return value == null || value.trim().isEmpty() ? null : Paths.get(value.trim());
    }

    /** Called by the drop-in at {@code point} for job {@code jobId} (-1 if unknown); parks if the test armed it. */
    static void reached(String point, long jobId) {
        if (DIR == null) {
            return;
        }
        try {
            Path arm = DIR.resolve("arm-" + point);
            String armed;
            try {
                armed = new String(Files.readAllBytes(arm), StandardCharsets.UTF_8).trim();
            } catch (NoSuchFileException notArmed) {
                return;
            }
            String[] words = armed.split("\\s+");
            if (!words[0].equals("*") && !words[0].equals(Long.toString(jobId))) {
                return;
            }
            long hold = HOLD_MILLIS;
            if (words.length > 1 && words[1].startsWith("hold=")) {
                try {
                    hold = Long.parseLong(words[1].substring("hold=".length()));
                } catch (NumberFormatException badHold) {
                    return;
                }
            }
            String pid = ManagementFactory.getRuntimeMXBean().getName().split("@")[0];
            try {
                Files.move(arm, DIR.resolve("claimed-" + point + "-" + pid + "-" + System.nanoTime()),
                        StandardCopyOption.ATOMIC_MOVE);
            } catch (NoSuchFileException | FileAlreadyExistsException | AtomicMoveNotSupportedException lost) {
                return;
            }
            Path tmp = DIR.resolve(".reached-" + point + "-" + pid);
            Files.write(tmp, (pid + " " + jobId).getBytes(StandardCharsets.UTF_8));
            Files.move(tmp, DIR.resolve("reached-" + point), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
            Thread.sleep(hold);
        } catch (IOException ignored) {
            // the seam never disturbs the drop-in
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
