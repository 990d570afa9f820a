package io.jobinfo.store.seatunnel.dropin;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MoveBackoffTest {

    @Test
    void delaysDoubleFromHalfASecondToThirtySecondsAndStayThere() {
        List<Long> delays = new ArrayList<>();
        for (int attempt = 0; attempt < 10; attempt++) {
            delays.add(MoveBackoff.delayMillis(attempt));
        }
        assertThat(delays).containsExactly(500L, 1_000L, 2_000L, 4_000L, 8_000L, 16_000L, 30_000L, 30_000L, 30_000L,
                30_000L);
        assertThat(MoveBackoff.delayMillis(Integer.MAX_VALUE)).isEqualTo(30_000L);
    }

    @Test
    void theFirstFailureAndEveryTenthAfterItAreWarnedWithTheirCount() {
        List<Integer> warned = new ArrayList<>();
        for (int attempt = 0; attempt < 25; attempt++) {
            if (MoveBackoff.warns(attempt)) {
                warned.add(attempt);
            }
        }
        assertThat(warned).containsExactly(0, 10, 20);
        assertThat(MoveBackoff.attemptNote(0)).isEmpty();
        assertThat(MoveBackoff.attemptNote(10)).isEqualTo(" (failed 11 times so far)");
    }
}
