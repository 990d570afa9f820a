package io.jobinfo.store.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.config.CacheConfig;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.lifecycle.InlineJobInfo;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the job cache adds to its entries ({@link CachedJobs}, tested by {@link CachedJobsContractTest}), with each
 * {@link CacheLookup}, on a clock the test moves: map events invalidate, a revalidation that finds other content drops
 * the entry, and a hit is fresh only while its confirmation is at most max-staleness old.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class JobCacheTest {

    private static final int PAYLOAD = 1000;

    private final ManualTicker clock = new ManualTicker();

    private JobCache<String> cache(CacheLookup lookup, Duration maxStaleness) {
        return new JobCache<>(CacheConfig.of(1 << 20, 1 << 20, Duration.ofMinutes(30), maxStaleness), lookup, clock);
    }

    private static CachedJob<String> job(long jobId, String content) {
        ContentKey key = ContentKey.of(jobId, new InlineJobInfo(7, 1, content.getBytes()));
        return new CachedJob<>(key, 7, "job " + jobId + " " + content, PAYLOAD);
    }

    private void put(JobCache<String> cache, CachedJob<String> job) {
        cache.putSubmitted(job.jobId(), job, PAYLOAD, clock.read());
    }

    @ParameterizedTest
    @EnumSource(CacheLookup.class)
    void mapEventsInvalidateExceptTheAddOfThisMembersOwnSubmit(CacheLookup lookup) {
        JobCache<String> cache = cache(lookup, Duration.ofHours(1));
        for (long id = 1; id <= 5; id++) {
            put(cache, job(id, "x"));
        }
        cache.invalidate(1);
        cache.changed(2); // what the map listener calls for an update, removal, eviction or expiry event
        cache.added(3); // an add event not of this member's submit
        cache.expectOwnAdd(4, new JobInfoPointer(4, 7, "store-a", BlobEnvelope.headerFor(4, 1, new byte[8])));
        cache.added(4); // this member's own submit: what it cached stays
        for (long id = 1; id <= 3; id++) {
            assertThat(cache.getIfPresent(id)).as("job %d", id).isNull();
            assertThat(cache.holds(id)).isFalse();
        }
        assertThat(cache.getIfPresent(4)).isNotNull();
        assertThat(cache.ownAddPending(4)).isFalse();
        long token = cache.token(5);
        cache.invalidateAll();
        assertThat(cache.getIfPresent(5)).isNull();
        assertThat(cache.token(5)).as("a load that raced invalidateAll is not cached").isNotEqualTo(token);
        assertThat(cache.weightedSize()).isZero();
    }

    @ParameterizedTest
    @EnumSource(CacheLookup.class)
    void aRevalidationThatFindsOtherContentDropsTheEntry(CacheLookup lookup) {
        JobCache<String> cache = cache(lookup, Duration.ofHours(1));
        CachedJob<String> a = job(1, "a");
        put(cache, a);
        assertThat(cache.revalidate(1, a, a.key(), clock.read())).isSameAs(a);
        assertThat(cache.holds(1)).isTrue();
        assertThat(cache.revalidate(1, a, job(1, "b").key(), clock.read())).isNull();
        assertThat(cache.holds(1)).isFalse();
        assertThat(cache.getIfPresent(1)).isNull();
        put(cache, a);
        assertThat(cache.revalidate(1, a, null, clock.read())).as("no map value").isNull();
        assertThat(cache.holds(1)).isFalse();
    }

    @ParameterizedTest
    @EnumSource(CacheLookup.class)
    void aHitIsFreshOnlyWhileItsConfirmationIsAtMostMaxStalenessOld(CacheLookup lookup) {
        JobCache<String> cache = cache(lookup, Duration.ofSeconds(5));
        CachedJob<String> a = job(1, "a");
        put(cache, a);
        assertThat(cache.isFresh(cache.getIfPresent(1))).isTrue();
        clock.advance(Duration.ofMillis(5100));
        assertThat(cache.isFresh(cache.getIfPresent(1))).as("confirmed 5.1 s ago, bound 5 s").isFalse();
        assertThat(cache.revalidate(1, a, a.key(), clock.read())).isSameAs(a);
        assertThat(cache.isFresh(cache.getIfPresent(1))).as("confirmed again").isTrue();
        JobCache<String> alwaysConfirm = cache(lookup, Duration.ZERO);
        put(alwaysConfirm, a);
        assertThat(alwaysConfirm.isFresh(alwaysConfirm.getIfPresent(1))).as("max-staleness 0 confirms every read")
                .isFalse();
    }
}
