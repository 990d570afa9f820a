package io.jobinfo.store.service;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * Counts the hits of the job cache's hit path, exactly and without an atomic read-modify-write per hit: every thread
 * counts in a cell of its own (a plain ordered write: only its thread writes it) and {@link #sum()} adds the cells up.
 * A cell whose thread has died is folded into a base count the next time a thread registers, so threads that come
 * and go leave no cells behind. Never fails.
 */
final class HitCounter {

    private static final AtomicLongFieldUpdater<Cell> VALUE = AtomicLongFieldUpdater.newUpdater(Cell.class, "value");

    /** One thread's count; only that thread writes it. */
    static final class Cell {
        final WeakReference<Thread> owner;
        volatile long value;

        Cell(Thread owner) {
            this.owner = new WeakReference<>(owner);
        }
    }

    private final ThreadLocal<Cell> mine = ThreadLocal.withInitial(this::register);
    /** Guarded by this. */
    private final List<Cell> cells = new ArrayList<>();
    /** The counts of cells whose threads died; guarded by this. */
    private long base;

    /** Counts one hit of the calling thread. */
    void increment() {
        Cell c = mine.get();
        VALUE.lazySet(c, c.value + 1);
    }

    /** Every hit counted so far (those of the calling thread included; others' within a moment). */
    synchronized long sum() {
        long sum = base;
        for (Cell c : cells) {
            sum += c.value;
        }
        return sum;
    }

    /** The number of cells (tests: dead threads' cells are folded). */
    synchronized int cells() {
        return cells.size();
    }

    private synchronized Cell register() {
        for (int i = cells.size() - 1; i >= 0; i--) {
            Cell c = cells.get(i);
            Thread t = c.owner.get();
            if (t == null || !t.isAlive()) {
                base += c.value; // a dead thread writes no more
                cells.remove(i);
            }
        }
        Cell c = new Cell(Thread.currentThread());
        cells.add(c);
        return c;
    }
}
