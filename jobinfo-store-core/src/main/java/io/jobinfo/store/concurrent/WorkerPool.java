package io.jobinfo.store.concurrent;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Runs one piece of work per item of a list on at most {@code parallelism} threads, with a callback per item: the
 * one worker pool of restore, migrate and verify.
 *
 * <p><b>Order.</b> Items are started in list order (item {@code i} is handed out before item {@code i + 1}); they
 * finish in any order, so {@code work} reports its results itself (into a concurrent collection, a counter...).
 *
 * <p><b>Stopping.</b> Before each item the pool asks {@code stop}; once it answers {@code true}, no further item is
 * started. Items in progress always run to their end: they are never interrupted, so each item must bound its own
 * time (store and cluster timeouts).
 *
 * <p><b>Interruption.</b> If the calling thread is interrupted while it waits, no further item is started, the
 * items in progress are waited for, {@link #forEach} returns {@code false} and the thread's interrupt flag is set
 * again: the caller decides whether that is a cancellation (migrate reports it) or a failure (restore, verify throw).
 *
 * <p><b>Failure.</b> {@code work} is expected to handle the failures of its item. If it throws anyway (a
 * {@link RuntimeException} or an {@link Error}), no further item is started, the items in progress are waited for,
 * and {@link #forEach} rethrows the first throwable as is, with later ones added as suppressed.
 *
 * <p>Threads are daemon threads named {@code <name>-1}, {@code <name>-2}, ...; they exist only during one call.
 */
public final class WorkerPool {

    private final String name;
    private final int parallelism;

    /**
     * @param name        prefix of the threads' names
     * @param parallelism the most items in progress at once, 1..256
     * @throws IllegalArgumentException parallelism out of range
     */
    public WorkerPool(String name, int parallelism) {
        this.name = Objects.requireNonNull(name, "name");
        if (parallelism < 1 || parallelism > 256) {
            throw new IllegalArgumentException("parallelism must be 1..256: " + parallelism);
        }
        this.parallelism = parallelism;
    }

    /** {@link #forEach(List, BooleanSupplier, Consumer)} that never stops early by itself. */
    public <I> boolean forEach(List<? extends I> items, Consumer<? super I> work) {
        return forEach(items, () -> false, work);
    }

    /**
     * Calls {@code work} once for each item, from up to {@code parallelism} threads, and returns when no item is in
     * progress any more.
     *
     * @return {@code true} if {@code work} ran for every item; {@code false} if {@code stop} or an interruption of
     *     the calling thread ended the run early (the interrupt flag is then set)
     * @throws RuntimeException the first runtime exception {@code work} threw (the run stopped)
     * @throws Error the first error {@code work} threw (the run stopped)
     */
    public <I> boolean forEach(List<? extends I> items, BooleanSupplier stop, Consumer<? super I> work) {
        Objects.requireNonNull(items, "items");
        Objects.requireNonNull(stop, "stop");
        Objects.requireNonNull(work, "work");
        int threads = Math.min(parallelism, items.size());
        if (threads == 0) {
            return true;
        }
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicBoolean halt = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch finished = new CountDownLatch(threads);
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                try {
                    int index;
                    while (!halt.get() && !stop.getAsBoolean() && (index = next.getAndIncrement()) < items.size()) {
                        work.accept(items.get(index));
                        done.incrementAndGet();
                    }
                } catch (Throwable e) {
                    halt.set(true);
                    if (!failure.compareAndSet(null, e)) {
                        synchronized (failure) {
                            failure.get().addSuppressed(e);
                        }
                    }
                } finally {
                    finished.countDown();
                }
            }, name + "-" + (i + 1));
            t.setDaemon(true);
            t.start();
        }
        boolean interrupted = false;
        while (true) {
            try {
                finished.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
                halt.set(true);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable first = failure.get();
        if (first instanceof RuntimeException) {
            throw (RuntimeException) first;
        }
        if (first instanceof Error) {
            throw (Error) first;
        }
        if (first != null) {
            throw new IllegalStateException(name + " worker failed", first); // a sneaky checked exception
        }
        return done.get() == items.size();
    }
}
