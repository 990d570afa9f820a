package io.jobinfo.store.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The hit path's per-thread counter: exact under concurrency, whether a thread finds its cell in its slot or (its slot
 * taken by another live thread) through its thread-local, and dead threads' cells are folded, not kept.
 */
class HitCounterTest {

    @Test
    void countsEveryHitOfEveryThreadAndFoldsTheCellsOfDeadThreads() throws Exception {
        HitCounter counter = new HitCounter();
        for (int round = 0; round < 20; round++) {
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                threads.add(new Thread(() -> {
                    for (int i = 0; i < 10_000; i++) {
                        counter.increment();
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
        }
        counter.increment();
        assertThat(counter.sum()).isEqualTo(20 * 4 * 10_000 + 1);
        assertThat(counter.cells()).as("cells left: the last round's threads (dead, not yet folded) and this one")
                .isLessThanOrEqualTo(5);
    }

    @Test
    void threadsWhoseSlotIsTakenCountThroughTheirThreadLocalAndDeadThreadsFreeTheirSlots() throws Exception {
        HitCounter counter = new HitCounter();
        int threads = 300; // more live threads than slots: some slots are taken when their second thread registers
        CountDownLatch registered = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger slotted = new AtomicInteger();
        AtomicInteger unslotted = new AtomicInteger();
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread th = new Thread(() -> {
                counter.increment();
                (counter.slotted() ? slotted : unslotted).incrementAndGet();
                registered.countDown();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 1; i < 1_000; i++) {
                    counter.increment();
                }
            });
            started.add(th);
            th.start();
        }
        assertThat(registered.await(1, TimeUnit.MINUTES)).isTrue();
        go.countDown();
        for (Thread t : started) {
            t.join();
        }
        assertThat(slotted.get()).as("threads counting in their slot").isPositive();
        assertThat(unslotted.get()).as("threads counting through their thread-local").isPositive();
        assertThat(counter.sum()).isEqualTo(threads * 1_000L);
        assertThat(counter.cells()).isEqualTo(threads);

        // every thread above has died: a new thread's registration folds their cells and frees their slots
        counter.increment();
        assertThat(counter.slotted()).as("this thread's slot, freed by the dead threads").isTrue();
        assertThat(counter.cells()).isEqualTo(1);
        assertThat(counter.sum()).isEqualTo(threads * 1_000L + 1);
    }

    /**
     * Two live threads that report the same id (a fake: a {@code Thread} subclass overriding {@code getId()}, since
     * HotSpot never hands out an id twice, though the contract allows it) count in cells of their own, so no hit is
     * lost. Before, a cell was found by id: the second thread wrote into the first one's cell, both incrementing one
     * value with plain writes, and hits were lost.
     */
    @Test
    void twoLiveThreadsWithTheSameIdNeverShareACell() throws Exception {
        HitCounter counter = new HitCounter();
        int hits = 2_000_000;
        CountDownLatch bothRegistered = new CountDownLatch(2);
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger slotted = new AtomicInteger();
        Runnable work = () -> {
            counter.increment();
            if (counter.slotted()) {
                slotted.incrementAndGet();
            }
            bothRegistered.countDown();
            try {
                go.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            for (int i = 1; i < hits; i++) {
                counter.increment();
            }
        };
        Thread first = new Thread(work);
        first.start();
        Thread sameId = new Thread(work) {
            @Override
            @SuppressWarnings("deprecation")
            public long getId() {
                return first.getId();
            }
        };
        sameId.start();
        assertThat(bothRegistered.await(1, TimeUnit.MINUTES)).isTrue();
        go.countDown();
        first.join();
        sameId.join();
        assertThat(slotted.get()).as("one slot, one owner").isEqualTo(1);
        assertThat(counter.sum()).as("every hit of both threads").isEqualTo(2L * hits);
        assertThat(counter.cells()).isEqualTo(2);
    }
}
