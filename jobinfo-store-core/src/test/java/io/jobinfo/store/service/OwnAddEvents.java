package io.jobinfo.store.service;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Arrays;

/**
 * Waits for the map's add events of a registry's own submits. Events are asynchronous: one that arrives after
 * {@link RunningJobInfoRegistry#invalidateAll()} is no longer known as the registry's own and evicts what a read
 * cached meanwhile, so a test that counts store reads or cache hits after an {@code invalidateAll()} waits for them
 * first.
 */
final class OwnAddEvents {

    private OwnAddEvents() {
    }

    /** Returns once every add event of {@code registry}'s own submits of {@code jobIds} has arrived (30 s at most). */
    static void awaitArrived(RunningJobInfoRegistry<?> registry, long... jobIds) {
        await("the add events of the own submits of jobs " + Arrays.toString(jobIds))
                .atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(5))
                .until(() -> Arrays.stream(jobIds).noneMatch(registry::ownAddPending));
    }
}
