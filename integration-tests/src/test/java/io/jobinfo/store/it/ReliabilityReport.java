package io.jobinfo.store.it;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Collects the figures of every scenario the suite runs in this JVM and writes them under {@code target/}: never a
 * tracked file. Nothing in the table is typed by hand: each row is added by the test that measured it, after its
 * assertions passed or failed (a failed run shows its non-zero figures). {@code target/reliability.md} is written after
 * every test class; {@code target/reliability-complete.md} too once every group of the suite has reported rows, and
 * {@link PublishReliabilityReport} copies that one to {@code docs/reliability.md} when asked.
 */
final class ReliabilityReport {

    /** The groups of the suite; the docs page is rewritten once all have reported. */
    static final Set<String> GROUPS = Set.of("failover", "fencing", "backend-faults", "corruption");

    /**
     * One scenario on one backend.
     *
     * @param acknowledged       acknowledged submits (the promises the scenario checks)
     * @param lost               acknowledged jobs not readable afterwards (must be 0)
     * @param torn               reads that returned bytes other than those submitted (must be 0)
     * @param pointersNoBlob     pointers whose blob was missing or did not verify, not caused by the test (0)
     * @param orphansLeftAfterGc blobs without pointer left after GC past its grace period (must be 0)
     */
    record Row(String group, String scenario, String backend, int trials, int acknowledged, int lost, int torn,
               int pointersNoBlob, int orphansLeftAfterGc, String notes) {
    }

    private static final Map<String, Row> ROWS = new LinkedHashMap<>();
    private static final Set<String> REPORTED = new TreeSet<>();

    private ReliabilityReport() {
    }

    static synchronized void add(Row row) {
        ROWS.put(row.group() + "|" + row.scenario() + "|" + row.backend(), row);
    }

    /** The report of whatever ran, written after every group. */
    static final Path PARTIAL = Path.of("target", "reliability.md");
    /** The report of a run in which every group reported rows: what {@link PublishReliabilityReport} publishes. */
    static final Path COMPLETE = Path.of("target", PublishReliabilityReport.COMPLETE_NAME);

    /** Marks {@code group} as complete and rewrites the reports under {@code target/}. */
    static synchronized void groupDone(String group) {
        REPORTED.add(group);
        try {
            String md = render();
            Files.createDirectories(PARTIAL.getParent());
            Files.writeString(PARTIAL, md);
            if (complete()) {
                Files.writeString(COMPLETE, md);
            }
        } catch (Exception e) {
            throw new IllegalStateException("could not write the reliability report", e);
        }
    }

    /** Every group has reported and has at least one row measured by its tests. */
    private static boolean complete() {
        if (!REPORTED.containsAll(GROUPS)) {
            return false;
        }
        for (String group : GROUPS) {
            if (ROWS.values().stream().noneMatch(r -> r.group().equals(group))) {
                return false;
            }
        }
        return true;
    }

    private static String render() throws Exception {
        String template;
        try (InputStream in = ReliabilityReport.class.getResourceAsStream("/reliability-template.md")) {
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        StringBuilder table = new StringBuilder();
        table.append("| scenario | backend | trials | acknowledged jobs | acknowledged jobs lost | torn reads |"
                + " pointers without blob | orphans left after GC | notes |\n");
        table.append("|---|---|---:|---:|---:|---:|---:|---:|---|\n");
        List<Row> rows = new ArrayList<>(ROWS.values());
        List<String> groupOrder = List.of("failover", "fencing", "backend-faults", "corruption");
        List<String> backendOrder = List.of("local", "hdfs", "s3");
        rows.sort(Comparator.comparingInt((Row r) -> groupOrder.indexOf(r.group()))
                .thenComparingInt(r -> backendOrder.indexOf(r.backend())));
        for (Row r : rows) {
            table.append("| ").append(r.scenario()).append(" | ").append(r.backend()).append(" | ")
                    .append(r.trials()).append(" | ").append(r.acknowledged()).append(" | ").append(r.lost())
                    .append(" | ").append(r.torn()).append(" | ").append(r.pointersNoBlob()).append(" | ")
                    .append(r.orphansLeftAfterGc()).append(" | ").append(r.notes().replace("|", "/"))
                    .append(" |\n");
        }
        String mode = Backends.longMode() ? "long mode (`-Djobinfo.it.long=true`)" : "default (CI) mode";
        // the backends the rows were measured on (naming them does not start the others)
        String backends = String.join(", ", rows.stream().map(Row::backend).distinct().toList());
        return template.replace("{{TABLE}}", table.toString())
                .replace("{{RUN}}", "Generated by `integration-tests` on " + Instant.now().truncatedTo(
                        ChronoUnit.SECONDS) + ", " + mode + ", backends: " + backends + ", groups: "
                        + String.join(", ", REPORTED) + ".");
    }
}
