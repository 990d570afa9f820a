package io.jobinfo.store.seatunnel.it;

import io.jobinfo.store.seatunnel.dropin.DropInStepListener;

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
 * Test code that runs inside the member processes of the drop-in tests (their classpath holds this module's test
 * classes, and {@code META-INF/services} names this class as a {@link DropInStepListener}): it lets a test park a
 * member at a precise step of the drop-in's work, to kill it there ({@code kill -9}) or to race it. Off unless the
 * member's JVM runs with the system property {@value #PROPERTY} naming a directory; the drop-in's jar has no part of it.
 *
 * <p>Protocol (files in that directory, shared by the test and every member):
 * <ol>
 *   <li>the test arms a step by writing {@code arm-<step id>} holding a job id, or {@code *} for any job, optionally
 *   followed by {@code hold=<millis>} to park for that long instead of {@value #HOLD_MILLIS} ms, and by
 *   {@code thread=<n>} to park only Hazelcast's partition thread {@code n} (a step of a partition thread whose job id
 *   is not known, {@code before-put} of {@link BeforePutParker}: the test then knows which job's put parks, by its
 *   partition);</li>
 *   <li>or, to park several jobs at the same step at once, one file per job: {@code arm-<step id>-<jobId>} (same
 *   content; its first word is ignored), answered by {@code reached-<step id>-<jobId>}. A step with a known job id
 *   looks for that file first, then for {@code arm-<step id>};</li>
 *   <li>the first member thread that reaches that step for a matching job claims it by renaming the arm file (atomic:
 *   one claimer only), writes {@code reached-<step id>} (or {@code reached-<step id>-<jobId>} for a per-job arm)
 *   holding {@code <pid> <jobId>}, and sleeps, waiting to be killed;</li>
 *   <li>if it is not killed by then it carries on as if nothing happened.</li>
 * </ol>
 * Failure: any I/O error of the parker itself is ignored (the drop-in carries on); it never throws.
 */
public final class CrashPointParker implements DropInStepListener {

    /** The system property that turns the parker on: a directory. */
    static final String PROPERTY = "jobinfo.dropin.test.crash-points";
    static final long HOLD_MILLIS = 60_000;

    private static final Path DIR = dir();

    private static Path dir() {
        String value = System.getProperty(PROPERTY);
        return value == null || value.trim().isEmpty() ? null : Paths.get(value.trim());
    }

    @Override
    public void reached(Step step, long jobId) {
        reached(step.id(), jobId);
    }

    /**
     * The point {@code point} is reached for {@code jobId} ({@code -1}: not known); parks there if it is armed. Also
     * called by the test's own {@link BeforePutParker}, for a point that is no step of the drop-in.
     */
    static void reached(String point, long jobId) {
        if (DIR == null) {
            return;
        }
        try {
            if (jobId >= 0 && park(point + "-" + jobId, jobId, true)) {
                return;
            }
            park(point, jobId, false);
        } catch (IOException | RuntimeException ignored) {
            // the parker never disturbs the drop-in
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Parks on the arm file {@code arm-<name>} if there is one for this job and this thread claims it; returns whether
     * it parked. {@code perJob}: the file names this job by its name (its first word is not read as a job id).
     */
    private static boolean park(String name, long jobId, boolean perJob) throws IOException, InterruptedException {
        Path arm = DIR.resolve("arm-" + name);
        String armed;
        try {
            armed = new String(Files.readAllBytes(arm), StandardCharsets.UTF_8).trim();
        } catch (NoSuchFileException notArmed) {
            return false;
        }
        String[] words = armed.split("\\s+");
        if (!perJob && !words[0].equals("*") && !words[0].equals(Long.toString(jobId))) {
            return false;
        }
        long hold = HOLD_MILLIS;
        for (String w : words) {
            if (w.startsWith("hold=")) {
                hold = Long.parseLong(w.substring("hold=".length()));
            } else if (w.startsWith("thread=") && !Thread.currentThread().getName()
                    .endsWith(".partition-operation.thread-" + w.substring("thread=".length()))) {
                return false;
            }
        }
        String pid = ManagementFactory.getRuntimeMXBean().getName().split("@")[0];
        try {
            Files.move(arm, DIR.resolve("claimed-" + name + "-" + pid + "-" + System.nanoTime()),
                    StandardCopyOption.ATOMIC_MOVE);
        } catch (NoSuchFileException | FileAlreadyExistsException | AtomicMoveNotSupportedException lost) {
            return false;
        }
        Path tmp = DIR.resolve(".reached-" + name + "-" + pid);
        Files.write(tmp, (pid + " " + jobId).getBytes(StandardCharsets.UTF_8));
        Files.move(tmp, DIR.resolve("reached-" + name), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        Thread.sleep(hold);
        return true;
    }
}
