package io.jobinfo.store.ops;

import io.jobinfo.store.lifecycle.OrphanRule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.lifecycle.OrphanRule.Verdict;
import io.jobinfo.store.location.Location;
import io.jobinfo.store.spi.StoredBlob;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class OrphanRuleTest {

    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private final OrphanRule rule = new OrphanRule(Duration.ofHours(1));

    private static StoredBlob blob(Duration age, boolean incomplete) {
        return StoredBlob.of(1, Location.of("file:///loc/0000000000000001.jobinfo"), 10, NOW.minus(age), incomplete);
    }

    @Test
    void anUnregisteredCompleteBlobOlderThanTheGraceIsAnOrphan() {
        assertThat(rule.classify(blob(Duration.ofHours(2), false), false, NOW)).isEqualTo(Verdict.ORPHAN);
        assertThat(rule.isOrphan(blob(Duration.ofHours(2), false), false, NOW)).isTrue();
    }

    @Test
    void aRegisteredBlobIsReferencedHoweverOld() {
        assertThat(rule.classify(blob(Duration.ofDays(30), false), true, NOW)).isEqualTo(Verdict.REFERENCED);
    }

    @Test
    void aBlobNotOlderThanTheGraceOrFromTheFutureIsYoung() {
        assertThat(rule.classify(blob(Duration.ofMinutes(59), false), false, NOW)).isEqualTo(Verdict.YOUNG);
        assertThat(rule.classify(blob(Duration.ofHours(1), false), false, NOW)).isEqualTo(Verdict.YOUNG);
        assertThat(rule.classify(blob(Duration.ofHours(-1), false), false, NOW)).isEqualTo(Verdict.YOUNG);
    }

    @Test
    void anOldIncompleteBlobIsALeftoverEvenIfItsIdIsRegistered() {
        assertThat(rule.classify(blob(Duration.ofHours(2), true), true, NOW)).isEqualTo(Verdict.LEFTOVER);
        assertThat(rule.classify(blob(Duration.ofMinutes(5), true), false, NOW)).isEqualTo(Verdict.YOUNG);
    }

    @Test
    void refusesANegativeGrace() {
        assertThatThrownBy(() -> new OrphanRule(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("grace");
    }
}
