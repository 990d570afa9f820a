package io.jobinfo.store.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ScaleBudgetTest {

    @Test
    void theFirstCountAlwaysStarts() {
        ScaleBudget budget = new ScaleBudget(10, 1);
        assertThat(budget.estimate(10)).isZero();
        assertThat(budget.refusal(1, 10, 0)).isNull();
    }

    @Test
    void oneMeasuredCountIsScaledByTheJobs() {
        ScaleBudget budget = new ScaleBudget(40, 1);
        budget.took(10, 2.0);
        assertThat(budget.estimate(30)).isCloseTo(6.0, within(1e-9));
    }

    /** The runs of 2026-12-07: 30 jobs 1.9 min, 100 jobs 7.7 min; 300 ran on towards 50 min. */
    @Test
    void growthBetweenTheLastTwoCountsIsExtrapolated() {
        ScaleBudget budget = new ScaleBudget(40, 1);
        budget.took(10, 1.0);
        budget.took(30, 1.9);
        budget.took(100, 7.7);
        double k = Math.log(7.7 / 1.9) / Math.log(100 / 30.0);
        assertThat(budget.estimate(300)).isCloseTo(7.7 * Math.pow(3, k), within(1e-9)).isGreaterThan(3 * 7.7);
        // 21 min spent: the linear estimate (23.1) would have started it within 40 min; this one (27.7) does not
        String refusal = budget.refusal(1, 300, 21);
        assertThat(refusal).contains("Round 1 stopped before 300 jobs", "21.0 min spent", "about 28 min more",
                "the 30- and 100-job counts took 1.9 and 7.7", "budget of 40 min");
        assertThat(budget.refusal(1, 300, 10)).isNull();
    }

    @Test
    void growthSlowerThanTheJobsIsStillEstimatedInProportion() {
        ScaleBudget budget = new ScaleBudget(40, 1);
        budget.took(10, 2.0);
        budget.took(100, 4.0);
        assertThat(budget.estimate(300)).isCloseTo(12.0, within(1e-9));
    }

    @Test
    void aCountMeasuredInAnEarlierRoundIsEstimatedByItsLongestTime() {
        ScaleBudget budget = new ScaleBudget(60, 2);
        budget.took(10, 1.0);
        budget.took(100, 8.0);
        budget.took(100, 9.5);
        budget.took(100, 7.0);
        assertThat(budget.estimate(100)).isEqualTo(9.5);
        assertThat(budget.refusal(2, 100, 51)).contains("the time this count took in an earlier round");
        assertThat(budget.refusal(2, 100, 50)).isNull();
    }

    /** Round 1 of 3 on 2026-12-07: 10, 30, 100 jobs on four clusters took 2.5, 4.5 and 19 min; 300 was started. */
    @Test
    void laterRoundsKeepTheTimeTheyNeedToRepeatEveryCount() {
        ScaleBudget budget = new ScaleBudget(85, 3);
        budget.took(10, 2.5);
        budget.took(30, 4.5);
        // 100 jobs (estimated 15) may start in round 1: 7 + 15 + 2 x (2.5 + 4.5 + 15) = 66
        assertThat(budget.refusal(1, 100, 7)).isNull();
        budget.took(100, 19);
        // 300 jobs (about 71) alone would fit in a budget of 100 min of one round after 26 ...
        ScaleBudget oneRound = new ScaleBudget(100, 1);
        oneRound.took(10, 2.5);
        oneRound.took(30, 4.5);
        oneRound.took(100, 19);
        assertThat(oneRound.estimate(300)).isBetween(60.0, 74.0);
        assertThat(oneRound.refusal(1, 300, 26)).isNull();
        // ... but rounds 2 and 3 need their 26 min each, and 300 jobs again
        assertThat(budget.refusal(1, 300, 26)).contains("Round 1 stopped before 300 jobs",
                "kept for the 2 later round(s)");
        // the last round has no later ones: its 100 jobs start if they fit
        assertThat(budget.refusal(3, 100, 60)).isNull();
        assertThat(budget.refusal(3, 100, 67)).contains("Round 3 stopped before 100 jobs").doesNotContain("kept");
    }

    @Test
    void aStartedRunMayGoAQuarterPastTheBudgetThenIsStopped() {
        ScaleBudget budget = new ScaleBudget(40, 1);
        assertThat(budget.timeoutMinutes(21)).isCloseTo(29, within(1e-9));
        assertThat(budget.timeoutMinutes(60)).isEqualTo(1);
    }
}
