package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.logging.ILogger;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Starts the drop-in's workers (the movers and the history bound) on a daemon thread of its own once the member has
 * started, and tries again every {@code retryMillis} until an attempt succeeds or {@link #stop()} is called.
 *
 * <p>Why not in the member's {@code STARTED} lifecycle listener itself: Hazelcast calls the listeners one after the
 * other on SeaTunnel's {@code main} thread without catching anything, so an exception there (a cluster call of a member
 * that has just joined, while partitions migrate or a persisted map loads) escaped into SeaTunnel's start-up, skipped
 * the listeners after it, and left a member in the cluster whose drop-in never moved a job, and that the others took
 * for a member without the plugin: every move of the cluster was held back until it left.
 *
 * <p>Failure: an attempt that throws is logged (WARNING, at most once a minute, with the attempt count) and retried;
 * nothing escapes to the caller. While no attempt has succeeded, this member moves nothing (its jobs stay inline)
 * and the other members hold their moves back, which is the safe side.
 */
final class WorkerStart {

    /** One attempt: starts whatever has not started yet, and throws if something could not be. */
    interface Attempt {
        void run();
    }

    private final Attempt attempt;
    private final long retryMillis;
    private final ILogger logger;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "jobinfo-dropin-start");
        t.setDaemon(true);
        return t;
    });
    private int failures;
    private long lastWarning;

    WorkerStart(Attempt attempt, long retryMillis, ILogger logger) {
        this.attempt = attempt;
        this.retryMillis = retryMillis;
        this.logger = logger;
    }

    /** Makes the first attempt at once on the start thread; returns without waiting for it. */
    void begin() {
        thread.execute(this::tryOnce);
    }

    /** Stops retrying; an attempt in progress is interrupted. Never blocks. */
    void stop() {
        thread.shutdownNow();
    }

    private void tryOnce() {
        try {
            attempt.run();
            if (failures > 0) {
                logger.info("the jobinfo-store drop-in started on attempt " + (failures + 1));
            }
        } catch (RuntimeException e) {
            failures++;
            long now = System.currentTimeMillis();
            if (failures == 1 || now - lastWarning >= 60_000) {
                lastWarning = now;
                logger.warning("the jobinfo-store drop-in could not start on this member yet (attempt " + failures
                        + "): " + e + "; it moves no job meanwhile and the other members hold their moves back;"
                        + " retrying every " + retryMillis + " ms");
            }
            try {
                thread.schedule(this::tryOnce, retryMillis, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException stopped) {
                // the member is stopping
            }
        }
    }
}
