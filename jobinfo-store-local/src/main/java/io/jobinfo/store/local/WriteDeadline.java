package io.jobinfo.store.local;

import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.location.Location;
import io.jobinfo.store.spi.OutcomeUnknownException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bound on how long a caller waits for a blob write on a disk that stops answering (a stalled local disk, an NFS
 * server gone with a {@code hard} mount): the write runs on a thread of its own and the caller waits at most the
 * deadline. A thread blocked in the kernel cannot be freed (interrupting it would block the interrupter too), so on
 * time-out the write is <em>abandoned</em>: it goes on in the background, and if it gets as far as linking the blob
 * into place it does not ({@link Ticket#mayCommit}), deletes its temporary file and ends. So a caller that timed out
 * before the commit point was told the truth: nothing was stored. One that timed out while the commit itself was
 * under way gets {@link OutcomeUnknownException}.
 *
 * <p>At most {@value #MAX_WRITES} writes wait on the disk at once; a further write waits for one of them within its
 * own deadline, so a disk that answers nothing fails every caller after at most the deadline and the number of
 * stuck threads stays bounded. Thread-safe.
 */
final class WriteDeadline {

    static final int MAX_WRITES = 16;

    private static final int RUNNING = 0;
    private static final int ABANDONED = 1;
    private static final int COMMITTING = 2;

    /** The write itself, given the ticket it must consult before its commit point. */
    interface Write {
        boolean run(Ticket ticket) throws JobInfoStoreException;
    }

    /** One write's state: running, abandoned by its caller, or committing. */
    static final class Ticket {
        private final AtomicInteger state = new AtomicInteger(RUNNING);

        /**
         * Called by the write just before its commit point (the link into place): {@code true} if the caller still
         * waits and the write may commit; {@code false} if the caller gave up, and the write must store nothing.
         */
        boolean mayCommit() {
            return state.compareAndSet(RUNNING, COMMITTING);
        }

        boolean abandon() {
            return state.compareAndSet(RUNNING, ABANDONED);
        }
    }

    private final long timeoutNanos;
    private final String directory;
    private final Semaphore slots = new Semaphore(MAX_WRITES);
    private final ExecutorService threads;

    /** A deadline of {@code timeoutMillis} (more than 0) for writes into {@code directory} (for messages). */
    WriteDeadline(long timeoutMillis, String directory) {
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        this.directory = directory;
        final AtomicInteger n = new AtomicInteger();
        this.threads = Executors.newCachedThreadPool(new ThreadFactory() {
            @Override
            public Thread newThread(Runnable r) {
                Thread t = new Thread(r, "jobinfo-local-write-" + n.incrementAndGet());
                t.setDaemon(true); // one stuck on a dead disk must not keep the JVM alive
                return t;
            }
        });
    }

    long timeoutMillis() {
        return TimeUnit.NANOSECONDS.toMillis(timeoutNanos);
    }

    /**
     * Runs {@code write} and returns its result, or fails once the deadline has passed.
     *
     * @throws JobInfoStoreException the write failed, or did not finish in time before its commit point (nothing was
     *     stored; the message says the disk did not answer and names the setting)
     * @throws OutcomeUnknownException the deadline passed while the write was committing, or the caller was
     *     interrupted after the write began
     */
    boolean run(long jobId, Location location, final Write write) throws JobInfoStoreException {
        long deadline = System.nanoTime() + timeoutNanos;
        boolean slot;
        try {
            slot = slots.tryAcquire(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JobInfoStoreException("Interrupted while waiting to write (nothing was stored)", jobId, location,
                    e);
        }
        if (!slot) {
            throw new JobInfoStoreException(MAX_WRITES + " writes into " + directory + " have waited on the disk for"
                    + " more than " + timeoutMillis() + " ms (" + LocalJobInfoStoreFactory.WRITE_TIMEOUT + "); the"
                    + " disk is not answering: nothing was stored; check the disk or the NFS server, then retry",
                    jobId, location);
        }
        final Ticket ticket = new Ticket();
        Future<Boolean> result;
        try {
            result = threads.submit(() -> {
                try {
                    return write.run(ticket);
                } finally {
                    slots.release();
                }
            });
        } catch (RejectedExecutionException e) {
            slots.release();
            throw new JobInfoStoreException("The store is closed", jobId, location, e);
        }
        try {
            return result.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw rethrown(e.getCause());
        } catch (TimeoutException e) {
            if (ticket.abandon()) {
                throw new JobInfoStoreException("The disk did not answer within " + timeoutMillis() + " ms ("
                        + LocalJobInfoStoreFactory.WRITE_TIMEOUT + "); nothing was stored (the write goes on in the"
                        + " background and will not link the blob; its temporary file is removed once the disk"
                        + " answers, or by gc); check the disk or the NFS server, then retry", jobId, location);
            }
            throw new OutcomeUnknownException("the disk did not answer within " + timeoutMillis() + " ms ("
                    + LocalJobInfoStoreFactory.WRITE_TIMEOUT + ") while the blob was being linked into place; it may"
                    + " be stored", jobId, location, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (ticket.abandon()) {
                throw new JobInfoStoreException("Interrupted while the disk wrote the blob; nothing was stored (the"
                        + " write will not link it)", jobId, location, e);
            }
            throw new OutcomeUnknownException("interrupted while the blob was being linked into place; it may be"
                    + " stored", jobId, location, e);
        }
    }

    /** No new writes; those under way finish (or stay stuck) on their own threads. Never blocks. */
    void close() {
        threads.shutdown();
    }

    /** What the write threw: a {@link Write} throws nothing checked but {@link JobInfoStoreException}. */
    private static JobInfoStoreException rethrown(Throwable cause) {
        if (cause instanceof RuntimeException) {
            throw (RuntimeException) cause;
        }
        if (cause instanceof Error) {
            throw (Error) cause;
        }
        return (JobInfoStoreException) cause;
    }
}
