package io.jobinfo.store.seatunnel.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The three real job sizes of the scenario: a streaming FakeSource -> Console job whose {@code tables_configs} has
 * this many tables of this many columns. SeaTunnel 2.3.8 serializes them to about 10 KB, 200 KB and 1.8 MB of
 * {@code JobImmutableInformation} (the logical DAG is almost all of it: about 250 B per table and 78 B per column).
 */
public enum JobSize {
    SMALL("~10 KB", 1, 2),
    MEDIUM("~200 KB", 110, 20),
    LARGE("~1.8 MB", 1000, 20);

    private final String label;
    private final int tables;
    private final int columns;

    JobSize(String label, int tables, int columns) {
        this.label = label;
        this.tables = tables;
        this.columns = columns;
    }

    /** The name on the command line and in the JSON: {@code small}, {@code medium}, {@code large}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The approximate serialized size, for tables. */
    public String label() {
        return label;
    }

    public int tables() {
        return tables;
    }

    public int columns() {
        return columns;
    }

    /**
     * Parses a comma-separated list such as {@code small,large}.
     *
     * @throws IllegalArgumentException naming the unknown size and the known ones, or if the list is empty
     */
    public static List<JobSize> parseList(String list) {
        List<JobSize> out = new ArrayList<>();
        for (String part : list.split(",")) {
            String p = part.trim().toLowerCase(Locale.ROOT);
            if (p.isEmpty()) {
                continue;
            }
            JobSize found = null;
            for (JobSize s : values()) {
                if (s.id().equals(p)) {
                    found = s;
                }
            }
            if (found == null) {
                throw new IllegalArgumentException("unknown job size '" + part.trim() + "': use small (~10 KB), "
                        + "medium (~200 KB) or large (~1.8 MB), comma-separated");
            }
            if (!out.contains(found)) {
                out.add(found);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no job size given: use small, medium and/or large, comma-separated");
        }
        return out;
    }
}
