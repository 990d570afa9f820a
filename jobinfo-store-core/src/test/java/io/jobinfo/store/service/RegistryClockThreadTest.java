package io.jobinfo.store.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.testing.HazelcastTestCluster;
import io.jobinfo.store.testing.TestJob;
import io.jobinfo.store.testing.TestJobGenerator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cache clock's thread ({@link CoarseTicker#THREAD_NAME}) runs while a registry of this JVM is open and is gone
 * once the last one is closed, and a registry whose build is refused leaves none behind (before, a build refused by
 * the namespace claim had already taken the clock and registered its cache listener, and nothing closed them: the
 * thread never stopped). Every other test class of this module closes what it builds, or this one could not tell.
 */
class RegistryClockThreadTest {

    private static final Duration STOP_BOUND = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    @Test
    void theClockRunsWhileARegistryIsOpenAndStopsWithTheLastOneAndAgainForANewOne() throws Exception {
        assertThat(clock()).as("the clock before any registry (a registry or cache of this JVM left open?)")
                .isEmpty();
        try (HazelcastTestCluster cluster = new HazelcastTestCluster(1);
             JobInfoStore store = JobInfoStores.open(JobInfoStorageConfig.builder("local")
                     .namespace(dir.toString()).build())) {
            RunningJobInfoRegistry<TestJob> first = RunningJobInfoRegistry.builder(cluster.master(), store,
                    TestJob.codec()).mapName("clock-a").build();
            RunningJobInfoRegistry<TestJob> second = RunningJobInfoRegistry.builder(cluster.master(), store,
                    TestJob.codec()).mapName("clock-b").build();
            TestJob job = new TestJobGenerator(3).generate(1, 10_000);
            first.submit(1, job);
            assertThat(first.get(1)).contains(job); // a cache hit reads the clock
            Thread clock = clock().orElseThrow(() -> new AssertionError("no clock thread with two open registries"));

            first.close();
            assertThat(clock.isAlive()).as("the clock while a registry is still open").isTrue();
            second.close();
            clock.join(STOP_BOUND.toMillis());
            assertThat(clock.isAlive()).as("the clock thread after the last registry closed").isFalse();
            assertThat(clock()).isEmpty();

            try (RunningJobInfoRegistry<TestJob> third = RunningJobInfoRegistry.builder(cluster.master(), store,
                    TestJob.codec()).mapName("clock-a").build()) {
                assertThat(third.get(1)).contains(job);
                assertThat(clock()).as("a new registry starts the clock again").hasValueSatisfying(
                        t -> assertThat(t).isNotSameAs(clock));
            }
            awaitNoClock();
        }
    }

    @Test
    void aRegistryRefusedByTheNamespaceClaimLeavesNoClockRunning() throws Exception {
        assertThat(clock()).as("the clock before any registry (a registry or cache of this JVM left open?)")
                .isEmpty();
        JobInfoStorageConfig config = JobInfoStorageConfig.builder("local").namespace(dir.toString()).build();
        try (HazelcastTestCluster owner = new HazelcastTestCluster(1);
             HazelcastTestCluster other = new HazelcastTestCluster(1);
             JobInfoStore ownerStore = JobInfoStores.open(config);
             JobInfoStore otherStore = JobInfoStores.open(config)) {
            RunningJobInfoRegistry.builder(owner.master(), ownerStore, TestJob.codec()).build().close();
            awaitNoClock();

            assertThatThrownBy(() -> RunningJobInfoRegistry.builder(other.master(), otherStore, TestJob.codec())
                    .build()).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("belongs to the cluster '" + owner.clusterName() + "'");
            assertThat(clock()).as("the clock after a refused build (nothing can close that registry)").isEmpty();
        }
    }

    private static void awaitNoClock() throws InterruptedException {
        Optional<Thread> clock = clock();
        if (clock.isPresent()) {
            clock.get().join(STOP_BOUND.toMillis());
        }
        assertThat(clock()).as("the clock thread once every registry is closed").isEmpty();
    }

    /** The live clock thread of this JVM, if any. */
    private static Optional<Thread> clock() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().equals(CoarseTicker.THREAD_NAME)).findFirst();
    }
}
