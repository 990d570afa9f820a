package io.jobinfo.store.seatunnel.dropin;

/**
 * How the drop-in's movers retry a move that failed (the store down, a claim lock busy): attempt n waits
 * {@link #delayMillis(int)} (0.5 s doubling, at most 30 s), and only the first failure of a value and every tenth
 * after it is logged at WARN ({@link #warns(int)}), with the attempt count, so an outage logs a line per value and not
 * one per value per retry. Used by {@link JobInfoMover} and {@link HistoryMover}.
 */
final class MoveBackoff {

    private MoveBackoff() {
    }

    /** The wait before attempt {@code attempt + 1}. */
    static long delayMillis(int attempt) {
        return Math.min(30_000L, 500L << Math.min(attempt, 6));
    }

    /** Whether the failure of attempt {@code attempt} (0 the first) is logged at WARN. */
    static boolean warns(int attempt) {
        return attempt % 10 == 0;
    }

    /** " (attempt n)" for a retried move, "" for the first one: what the WARN line says of the count. */
    static String attemptNote(int attempt) {
        return attempt == 0 ? "" : " (failed " + (attempt + 1) + " times so far)";
    }
}
