package io.jobinfo.store.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.testing.TestJobGenerator;
import io.jobinfo.store.testing.TestJob;
import io.jobinfo.store.envelope.ReadVerification;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.local.LocalJobInfoStore;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.testing.HazelcastTestCluster;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry's read settings: restore loaders default to the store's suggestion (an explicit builder value wins),
 * and the configured read verification level is the one every load asks the store for.
 */
class RegistryReadSettingsTest {

    private static final KryoJobInfoCodec<TestJob> CODEC = TestJob.codec();
    private static HazelcastTestCluster cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        cluster = new HazelcastTestCluster(1);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    /**
     * A real local store seen through a proxy that suggests {@code suggested} loaders and records the level of every
     * {@code read(jobId, level)}.
     */
    private static JobInfoStore observed(JobInfoStore real, int suggested, List<ReadVerification> levels) {
        return (JobInfoStore) Proxy.newProxyInstance(JobInfoStore.class.getClassLoader(),
                new Class<?>[] {JobInfoStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("suggestedReadParallelism")) {
                        return suggested;
                    }
                    if (method.getName().equals("read") && args.length == 2) {
                        levels.add((ReadVerification) args[1]);
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void restoreLoadersDefaultToTheStoresSuggestionUnlessGiven() throws Exception {
        try (LocalJobInfoStore local = LocalJobInfoStore.open(dir.resolve("p"), null, true, true)) {
            JobInfoStore suggests32 = observed(local, 32, new CopyOnWriteArrayList<>());
            try (RunningJobInfoRegistry<TestJob> r = RunningJobInfoRegistry
                    .builder(cluster.master(), suggests32, CODEC).mapName("loaders-a").build()) {
                assertThat(r.restoreParallelism()).isEqualTo(32);
            }
            try (RunningJobInfoRegistry<TestJob> r = RunningJobInfoRegistry
                    .builder(cluster.master(), suggests32, CODEC).mapName("loaders-b").restoreParallelism(4).build()) {
                assertThat(r.restoreParallelism()).isEqualTo(4);
            }
            try (RunningJobInfoRegistry<TestJob> r = RunningJobInfoRegistry
                    .builder(cluster.master(), local, CODEC).mapName("loaders-c").build()) {
                assertThat(r.restoreParallelism()).as("the local store's suggestion").isEqualTo(8);
            }
        }
    }

    @Test
    void everyLoadAsksTheStoreForTheConfiguredLevel() throws Exception {
        TestJobGenerator generator = new TestJobGenerator(3);
        try (LocalJobInfoStore local = LocalJobInfoStore.open(dir.resolve("v"), null, true, true)) {
            for (ReadVerification level : ReadVerification.values()) {
                List<ReadVerification> levels = new CopyOnWriteArrayList<>();
                JobInfoStore store = observed(local, 8, levels);
                String map = "levels-" + level;
                try (RunningJobInfoRegistry<TestJob> writer = RunningJobInfoRegistry
                        .builder(cluster.master(), store, CODEC).mapName(map).readVerification(level).build()) {
                    for (long id = 1; id <= 5; id++) {
                        writer.submit(id + (level.ordinal() * 100L), generator.generate(id, 20_000));
                    }
                }
                // no prefetch: it would read the other maps' blobs in this directory too
                try (RunningJobInfoRegistry<TestJob> reader = RunningJobInfoRegistry
                        .builder(cluster.master(), store, CODEC).mapName(map).readVerification(level)
                        .restorePrefetch(0).build()) {
                    Map<Long, TestJob> restored = new ConcurrentHashMap<>();
                    RestoreReport report = reader.restoreAll((id, ts, job) -> restored.put(id, job));
                    assertThat(report.failed()).isEmpty();
                    assertThat(restored).hasSize(5);
                }
                assertThat(levels).as(level.name()).hasSize(5).containsOnly(level);
                VerifiedBlob blob = local.read(level.ordinal() * 100L + 1, level);
                assertThat(blob.verification()).isEqualTo(level);
            }
        }
    }
}
