package io.jobinfo.store.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 1, unit = TimeUnit.MINUTES)
class WorkerPoolTest {

    private static List<Integer> items(int n) {
        return IntStream.range(0, n).boxed().collect(Collectors.toList());
    }

    @Test
    void runsEveryItemOnceWithNeverMoreThanTheParallelismInProgress() {
        AtomicInteger inProgress = new AtomicInteger();
        AtomicInteger highWater = new AtomicInteger();
        List<Integer> seen = Collections.synchronizedList(new ArrayList<>());
        boolean complete = new WorkerPool("t", 3).forEach(items(60), i -> {
            highWater.accumulateAndGet(inProgress.incrementAndGet(), Math::max);
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            seen.add(i);
            inProgress.decrementAndGet();
        });
        assertThat(complete).isTrue();
        assertThat(seen).containsExactlyInAnyOrderElementsOf(items(60));
        assertThat(highWater.get()).isBetween(1, 3);
    }

    @Test
    void startsItemsInListOrder() {
        List<Integer> started = Collections.synchronizedList(new ArrayList<>());
        new WorkerPool("t", 1).forEach(items(20), started::add);
        assertThat(started).containsExactlyElementsOf(items(20));
    }

    @Test
    void anEmptyListStartsNoThreadAndIsComplete() {
        assertThat(new WorkerPool("t", 4).forEach(Collections.<Integer>emptyList(), i -> {
            throw new AssertionError("called");
        })).isTrue();
    }

    @Test
    void stopEndsTheRunAfterTheItemsInProgress() {
        AtomicInteger done = new AtomicInteger();
        // stop answers from the count itself: an item starts only while fewer than 10 are done, so with 2 workers
        // at most one more (the other worker's item in progress) can finish. (Setting a flag inside the item raced:
        // a worker preempted between counting the 10th item and setting the flag let the other run on, 18 seen.)
        boolean complete = new WorkerPool("t", 2).forEach(items(1000), () -> done.get() >= 10,
                i -> done.incrementAndGet());
        assertThat(complete).isFalse();
        assertThat(done.get()).isBetween(10, 11);
    }

    @Test
    void aThrowingItemStopsTheRunAndIsRethrownAsIs() {
        AtomicInteger done = new AtomicInteger();
        IllegalStateException boom = new IllegalStateException("boom");
        assertThatThrownBy(() -> new WorkerPool("t", 1).forEach(items(100), i -> {
            if (i == 5) {
                throw boom;
            }
            done.incrementAndGet();
        })).isSameAs(boom);
        assertThat(done.get()).isEqualTo(5);
    }

    @Test
    void anInterruptedCallerWaitsForItemsInProgressStartsNoMoreAndKeepsItsFlag() throws Exception {
        CountDownLatch inItem = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger finished = new AtomicInteger();
        AtomicInteger started = new AtomicInteger();
        AtomicReference<Boolean> result = new AtomicReference<>();
        AtomicBoolean flagAfter = new AtomicBoolean();
        Thread caller = new Thread(() -> {
            result.set(new WorkerPool("t", 2).forEach(items(50), i -> {
                started.incrementAndGet();
                inItem.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new AssertionError("an item in progress was interrupted");
                }
                finished.incrementAndGet();
            }));
            flagAfter.set(Thread.currentThread().isInterrupted());
        });
        caller.start();
        assertThat(inItem.await(30, TimeUnit.SECONDS)).isTrue();
        caller.interrupt();
        Thread.sleep(200);
        assertThat(caller.isAlive()).as("waits for the items in progress").isTrue();
        release.countDown();
        caller.join(30_000);
        assertThat(result.get()).isFalse();
        assertThat(flagAfter.get()).isTrue();
        assertThat(started.get()).isEqualTo(2);
        assertThat(finished.get()).isEqualTo(2);
    }

    @Test
    void refusesAParallelismOutOfRange() {
        assertThatThrownBy(() -> new WorkerPool("t", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parallelism");
    }
}
