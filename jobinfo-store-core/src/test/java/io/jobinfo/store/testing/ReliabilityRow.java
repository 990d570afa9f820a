package io.jobinfo.store.testing;

import java.util.List;

/**
 * One row of {@code docs/reliability.md}'s results table, and the table itself: integration-tests' reliability suite
 * and seatunnel-it's crash trials on the real engine write rows of the same table. Here (the core test-jar) so that
 * seatunnel-it needs nothing of integration-tests and the two modules build side by side.
 *
 * @param group              the suite's group of the scenario (failover, fencing, backend-faults, corruption, ...)
 * @param acknowledged       acknowledged submits (the promises the scenario checks)
 * @param lost               acknowledged jobs not readable afterwards (must be 0)
 * @param torn               reads that returned bytes other than those submitted (must be 0)
 * @param pointersNoBlob     pointers whose blob was missing or did not verify, not caused by the test (0)
 * @param orphansLeftAfterGc blobs without pointer left after GC past its grace period (must be 0)
 */
public record ReliabilityRow(String group, String scenario, String backend, int trials, int acknowledged, int lost,
        int torn, int pointersNoBlob, int orphansLeftAfterGc, String notes) {

    /** The Markdown table of {@code rows}, in their order: header, alignment line, one line per row. */
    public static String table(List<ReliabilityRow> rows) {
        StringBuilder table = new StringBuilder();
        table.append("| scenario | backend | trials | acknowledged jobs | acknowledged jobs lost | torn reads |"
                + " pointers without blob | orphans left after GC | notes |\n");
        table.append("|---|---|---:|---:|---:|---:|---:|---:|---|\n");
        for (ReliabilityRow r : rows) {
            table.append("| ").append(r.scenario()).append(" | ").append(r.backend()).append(" | ")
                    .append(r.trials()).append(" | ").append(r.acknowledged()).append(" | ").append(r.lost())
                    .append(" | ").append(r.torn()).append(" | ").append(r.pointersNoBlob()).append(" | ")
                    .append(r.orphansLeftAfterGc()).append(" | ").append(r.notes().replace("|", "/"))
                    .append(" |\n");
        }
        return table.toString();
    }
}
