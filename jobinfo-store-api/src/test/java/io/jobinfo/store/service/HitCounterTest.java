package io.jobinfo.store.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The hit path's per-thread counter: exact under concurrency, and dead threads' cells are folded, not kept. */
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
}
