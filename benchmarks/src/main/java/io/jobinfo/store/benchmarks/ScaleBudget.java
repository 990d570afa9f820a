package io.jobinfo.store.benchmarks;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The machine-time budget of the real-engine scale scenario ({@code --engine-scale-minutes}), over all its rounds:
 * whether a job count may start, and how long a started one may run.
 *
 * <p>Estimate of a count: the longest time the same count took in an earlier round; else the last measured count's
 * time extrapolated with the growth measured between the last two counts below it ({@code t(n) = t(b) (n / b)^k},
 * {@code k = log(t(b) / t(a)) / log(b / a)}, at least 1: the cost per job of this scenario grows with the jobs, so a
 * linear estimate is too low, as a 300-job count of 2026-12-07 showed); else, with one count measured, in proportion
 * to the jobs; with none, 0 (the first count always starts). A count starts only if the minutes spent plus its
 * estimate fit in the budget with the later rounds' share kept free: each later round repeats every count measured so
 * far and this one, so a large count of the first round cannot spend the time the other rounds need for their medians
 * (a 300-job count started in round 1 of 3 would have). One that was started but runs past the budget plus a grace of
 * a quarter of it is stopped ({@link #timeoutMinutes}) and recorded as stopped by the budget.
 */
final class ScaleBudget {

    private final int budgetMinutes;
    private final int rounds;
    /** Minutes each count took, the longest over the rounds measured so far. */
    private final TreeMap<Integer, Double> minutes = new TreeMap<>();

    /** A budget of {@code budgetMinutes} over {@code rounds} rounds. */
    ScaleBudget(int budgetMinutes, int rounds) {
        this.budgetMinutes = budgetMinutes;
        this.rounds = rounds;
    }

    /** Records that one run of {@code count} jobs (every cluster of it) took {@code took} minutes. */
    void took(int count, double took) {
        minutes.merge(count, took, Math::max);
    }

    /** The estimated minutes of {@code count} jobs (above). */
    double estimate(int count) {
        Double same = minutes.get(count);
        if (same != null) {
            return same;
        }
        Map.Entry<Integer, Double> b = minutes.lowerEntry(count);
        if (b == null) {
            return 0;
        }
        Map.Entry<Integer, Double> a = minutes.lowerEntry(b.getKey());
        double k = 1;
        if (a != null && a.getValue() > 0 && b.getValue() > a.getValue()) {
            k = Math.max(1, Math.log(b.getValue() / a.getValue()) / Math.log((double) b.getKey() / a.getKey()));
        }
        return b.getValue() * Math.pow((double) count / b.getKey(), k);
    }

    /**
     * Null if {@code count} may start after {@code spent} minutes in round {@code round} (from 1); else why not, for
     * the report.
     */
    String refusal(int round, int count, double spent) {
        double estimate = estimate(count);
        double others = minutes.entrySet().stream().filter(e -> e.getKey() != count)
                .mapToDouble(Map.Entry::getValue).sum();
        double reserve = Math.max(0, rounds - round) * (estimate + others);
        if (spent + estimate + reserve <= budgetMinutes) {
            return null;
        }
        return String.format(Locale.ROOT, "Round %d stopped before %d jobs: %.1f min spent, and %d jobs would take"
                + " about %.0f min more (%s)%s, past the budget of %d min (`--engine-scale-minutes`).", round, count,
                spent, count, estimate, basis(count), reserve == 0 ? "" : String.format(Locale.ROOT,
                        ", with %.0f min kept for the %d later round(s) to repeat every count so far and this one",
                        reserve, rounds - round), budgetMinutes);
    }

    /** The minutes a run started after {@code spent} minutes may take: to the budget plus a quarter (at least 1). */
    double timeoutMinutes(double spent) {
        return Math.max(1, budgetMinutes * 1.25 - spent);
    }

    private String basis(int count) {
        if (minutes.containsKey(count)) {
            return "the time this count took in an earlier round";
        }
        Integer b = minutes.lowerKey(count);
        Integer a = b == null ? null : minutes.lowerKey(b);
        if (a == null) {
            return String.format(Locale.ROOT, "the %d-job count took %.1f, scaled by the jobs", b, minutes.get(b));
        }
        return String.format(Locale.ROOT, "the %d- and %d-job counts took %.1f and %.1f; extrapolated with that growth,"
                + " at least in proportion to the jobs", a, b, minutes.get(a), minutes.get(b));
    }
}
