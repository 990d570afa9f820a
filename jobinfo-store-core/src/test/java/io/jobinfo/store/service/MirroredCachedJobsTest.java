package io.jobinfo.store.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The contract on {@link CacheLookup#MIRRORED}, and what is particular to its mirror: after every change it holds
 * exactly Caffeine's entries (the same instances), and a hit reaches Caffeine once per touch interval.
 */
class MirroredCachedJobsTest extends CachedJobsContractTest {

    @Override
    CacheLookup lookup() {
        return CacheLookup.MIRRORED;
    }

    private MirroredCachedJobs<String> mirrored(Duration expireAfterAccess) {
        return (MirroredCachedJobs<String>) entries(1 << 20, expireAfterAccess);
    }

    @Test
    void aHitWithinTheTouchIntervalIsServedByTheMirrorAndOneAfterItGoesThroughCaffeine() {
        MirroredCachedJobs<String> entries = mirrored(Duration.ofMinutes(30));
        assertThat(entries.touchInterval()).isEqualTo(TimeUnit.SECONDS.toNanos(1));
        CachedJob<String> a = job(1, "a");
        put(entries, a);
        assertThat(entries.mirrored(1)).isSameAs(a);
        clock.advance(Duration.ofMillis(900));
        entries.get(1); // within the interval: Caffeine does not see it
        assertThat(age(entries, 1)).isEqualTo(Duration.ofMillis(900));
        clock.advance(Duration.ofMillis(200));
        entries.get(1); // 1.1 s since Caffeine's last access: recorded
        assertThat(age(entries, 1)).isZero();
        assertThat(a.touchedAt()).isEqualTo(clock.read());
        assertThat(entries.stats().hitCount()).as("counted once each, not twice").isEqualTo(2);
    }

    @Test
    void theTouchIntervalIsHalfOfAShortExpiry() {
        assertThat(mirrored(Duration.ofSeconds(1)).touchInterval()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(500));
    }

    @Test
    void anExpiredEntryLeavesTheMirrorWithCaffeinesMaintenance() {
        MirroredCachedJobs<String> entries = mirrored(Duration.ofSeconds(10));
        put(entries, job(1, "a"));
        clock.advance(Duration.ofSeconds(11));
        entries.caffeine().cleanUp();
        assertThat(entries.mirrored(1)).isNull();
        assertThat(entries.mirroredSize()).isZero();
    }

    private static Duration age(CachedJobs<String> entries, long jobId) {
        return Duration.ofNanos(entries.caffeine().policy().expireAfterAccess().orElseThrow()
                .ageOf(jobId, TimeUnit.NANOSECONDS).orElseThrow());
    }

    /** The mirror holds exactly Caffeine's entries (the same instances). */
    @Override
    void afterEveryChange(CachedJobs<String> entries, long maxId) {
        MirroredCachedJobs<String> m = (MirroredCachedJobs<String>) entries;
        Set<Long> inCaffeine = new HashSet<>(m.caffeine().asMap().keySet());
        Set<Long> inMirror = new HashSet<>();
        for (long id = 1; id <= maxId; id++) {
            if (m.mirrored(id) != null) {
                inMirror.add(id);
            }
        }
        assertThat(inMirror).isEqualTo(inCaffeine);
        assertThat(m.mirroredSize()).isEqualTo(inCaffeine.size());
        for (long id : inCaffeine) {
            assertThat(m.mirrored(id)).isSameAs(m.caffeine().asMap().get(id));
        }
    }
}
