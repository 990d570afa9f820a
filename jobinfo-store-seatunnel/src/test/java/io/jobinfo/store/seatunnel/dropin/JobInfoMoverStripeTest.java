package io.jobinfo.store.seatunnel.dropin;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The mover's stripe of a job id: SeaTunnel's ids drawn within a second (a millisecond timestamp shifted into the high
 * bits, a node and a sequence below) spread over every stripe, and an id always goes to the same stripe (a delete and
 * a later move of one id never overlap). Before, {@code Long.hashCode(id) % stripes} put 200 such ids on one stripe.
 */
class JobInfoMoverStripeTest {

    @Test
    void snowflakeLikeIdsDrawnWithinASecondUseEveryStripe() {
        int stripes = 8;
        int[] counts = new int[stripes];
        for (int i = 0; i < 200; i++) {
            long id = ((1_700_000_000_000L + i) << 22) | (1L << 12);
            int stripe = MoverStripes.of(id, stripes);
            assertThat(stripe).isBetween(0, stripes - 1).isEqualTo(MoverStripes.of(id, stripes));
            counts[stripe]++;
        }
        for (int c : counts) {
            assertThat(c).as("ids per stripe: %s", java.util.Arrays.toString(counts)).isGreaterThanOrEqualTo(10);
        }
    }
}
