package io.jobinfo.store.service;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * Counts the hits of the job cache's hit path, exactly and without an atomic read-modify-write per hit: every thread
 * counts in a cell of its own (a plain ordered write: only its thread writes it) and {@link #sum()} adds the cells up.
 *
 * <p>A thread finds its cell in a small table indexed by its thread id, which costs two loads and an identity compare
 * with the current thread; only a thread whose slot another live thread already held when it registered looks its
 * cell up in a {@code ThreadLocal}, which costs more (on the cache-hit benchmark a {@code ThreadLocal} lookup per hit
 * was 40% of the whole hit). A cell whose thread has died is folded into a base count, and its slot freed, the next
 * time a thread registers, so threads that come and go leave no cells behind. Never fails.
 *
 * <p>The id only picks the slot; a cell is used only by the thread object that owns it. So a thread id used again
 * (which {@code Thread.getId()}'s contract allows once a thread has ended, and which a subclass may report anyway)
 * costs a {@code ThreadLocal} lookup at most, never a count: no two threads ever write one cell. A cell holds its
 * thread until it is folded, after that thread's death.
 */
final class HitCounter {

    private static final AtomicLongFieldUpdater<Cell> VALUE = AtomicLongFieldUpdater.newUpdater(Cell.class, "value");
    private static final int SLOTS = 128;

    /** One thread's count; only that thread writes it. */
    static final class Cell {
        final Thread owner;
        final int slot;
        volatile long value;

        Cell(Thread owner) {
            this.owner = owner;
            this.slot = slot(owner);
        }

        boolean ownerDied() {
            return !owner.isAlive();
        }
    }

    /** Cell of the thread whose id is its index modulo {@link #SLOTS}, if it registered first; written under this. */
    private final Cell[] slots = new Cell[SLOTS];
    /** The cell of a thread whose slot was taken. */
    private final ThreadLocal<Cell> mine = ThreadLocal.withInitial(this::register);
    /** Guarded by this. */
    private final List<Cell> cells = new ArrayList<>();
    /** The counts of cells whose threads died; guarded by this. */
    private long base;

    /** Counts one hit of the calling thread. */
    void increment() {
        Thread self = Thread.currentThread();
        // a racy read: a cell is immutable but for its value, so whatever cell is seen is whole (final fields)
        Cell c = slots[slot(self)];
        if (c == null || c.owner != self) {
            c = mine.get();
        }
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

    /** Whether the calling thread's cell sits in its slot (tests). */
    synchronized boolean slotted() {
        Thread self = Thread.currentThread();
        Cell c = slots[slot(self)];
        return c != null && c.owner == self;
    }

    private static int slot(Thread thread) {
        return (int) thread.getId() & (SLOTS - 1);
    }

    private synchronized Cell register() {
        for (int i = cells.size() - 1; i >= 0; i--) {
            Cell c = cells.get(i);
            if (c.ownerDied()) {
                base += c.value; // a dead thread writes no more
                cells.remove(i);
                if (slots[c.slot] == c) {
                    slots[c.slot] = null;
                }
            }
        }
        Thread self = Thread.currentThread();
        Cell c = new Cell(self);
        cells.add(c);
        if (slots[c.slot] == null) {
            slots[c.slot] = c;
        }
        return c;
    }
}
