package io.jobinfo.store.seatunnel.dropin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.Cache;
import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.config.InvalidConfigurationException;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.local.LocalJobInfoStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The history maps' resolvers share one payload cache ({@code jobinfo-dropin.history-cache-max-bytes}): on real local
 * stores, one per map as the drop-in opens them, the same job id in two maps is two entries that never serve each
 * other's value, and the one bound holds for all of them together (before, each map had a cache of
 * {@code cache.max-bytes} of its own: three times the bound).
 */
class HistoryCacheSharedTest {

    private static final long JOB = 77L;
    private static final long EXPIRES_AT = 1_900_000_000_000L;

    @TempDir
    Path dir;
    private final InternalSerializationService serialization = new DefaultSerializationServiceBuilder().build();
    private final List<LocalJobInfoStore> stores = new ArrayList<>();
    private final List<JobInfoResolver> resolvers = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        resolvers.forEach(JobInfoResolver::close);
        for (LocalJobInfoStore s : stores) {
            s.close();
        }
    }

    /** A store of {@code map} holding {@code value} (a history value's Data) for {@link #JOB}, and its pointer. */
    private JobInfoPointer store(String map, String value, Cache<JobInfoResolver.PayloadKey,
            JobInfoResolver.CachedPayload> cache) throws Exception {
        LocalJobInfoStore store = LocalJobInfoStore.open(dir.resolve(map), null, true, true);
        stores.add(store);
        byte[] payload = serialization.toData(value).toByteArray();
        store.create(JOB, BlobSource.ofBytes(BlobEnvelope.wrap(JOB, HistoryMover.CODEC_ID, EXPIRES_AT, payload)));
        resolvers.add(new JobInfoResolver(store, cache, 1 << 20, 10_000, 1_000, new DropInMetrics(),
                HistoryMover::checkPayload, "test"));
        return new JobInfoPointer(JOB, EXPIRES_AT, store.storeId(),
                BlobEnvelope.headerFor(JOB, HistoryMover.CODEC_ID, EXPIRES_AT, payload));
    }

    @Test
    void oneJobIdInEachMapIsItsOwnEntryAndTheOneBoundHoldsForAllMaps() throws Exception {
        CacheConfig config = CacheConfig.of(1 << 20, 1 << 20, Duration.ofMinutes(10));
        String metricsValue = "metrics of job 77 " + "m".repeat(3000);
        String stateValue = "state of job 77 " + "s".repeat(3000);
        String dagValue = "dag of job 77 " + "d".repeat(3000);
        // a bound that fits two of the three values
        long bound = 2L * serialization.toData(metricsValue).totalSize() + 100;
        Cache<JobInfoResolver.PayloadKey, JobInfoResolver.CachedPayload> cache = JobInfoResolver.sharedCache(bound,
                config);
        JobInfoPointer metrics = store(HistoryMaps.METRICS, metricsValue, cache);
        JobInfoPointer state = store(HistoryMaps.STATE, stateValue, cache);
        JobInfoPointer dag = store(HistoryMaps.DAG, dagValue, cache);

        assertThat(resolvers.get(0).resolve(metrics, serialization)).isEqualTo(metricsValue);
        assertThat(resolvers.get(1).resolve(state, serialization)).as("the same job id in another map")
                .isEqualTo(stateValue);
        assertThat(cache.estimatedSize()).as("one entry per map and job").isEqualTo(2);
        assertThat(resolvers.get(0).resolve(metrics, serialization)).as("a hit of the first map's entry")
                .isEqualTo(metricsValue);
        assertThat(resolvers.get(2).resolve(dag, serialization)).isEqualTo(dagValue);
        cache.cleanUp();
        assertThat(cache.policy().eviction().orElseThrow().weightedSize().orElseThrow())
                .as("the three maps' cached payload bytes, one bound for all").isLessThanOrEqualTo(bound);
        assertThat(cache.estimatedSize()).isEqualTo(2);

        resolvers.get(1).invalidate(JOB);
        assertThat(cache.asMap().keySet()).as("invalidating the state map's job leaves the others'")
                .noneMatch(k -> k.storeId().equals(state.storeId()));
        assertThat(resolvers.get(1).resolve(state, serialization)).isEqualTo(stateValue);
    }

    @Test
    void theHistoryCacheBoundIsTheRunningJobsBoundUnlessSet() throws Exception {
        String yaml = "seatunnel:\n  engine:\n    jobinfo-storage:\n      type: local\n      namespace: " + dir
                + "\n      cache:\n        max-bytes: 32MiB\n    jobinfo-dropin:\n      history: all\n";
        assertThat(settings(yaml).historyCacheMaxBytes()).isEqualTo(32L << 20);
        assertThat(settings(yaml + "      history-cache-max-bytes: 8MiB\n").historyCacheMaxBytes()).isEqualTo(8L << 20);
        assertThat(settings(yaml + "      history-cache-max-bytes: 0\n").historyCacheMaxBytes()).isZero();
        assertThatThrownBy(() -> settings(yaml + "      history-cache-max-bytes: lots\n"))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("jobinfo-dropin.history-cache-max-bytes: 'lots' is not a size");
    }

    private static DropInSettings settings(String yaml) {
        return DropInSettings.fromRoot(DropInSettingsTest.yaml(yaml), "seatunnel.yaml", new java.util.Properties());
    }
}
