package io.jobinfo.store.seatunnel.harness;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A live-object class histogram as HotSpot's {@code GC.class_histogram} prints it ({@link HeapHistogramProbe}), by
 * class: what grew between two of them, for saying what holds a member's heap.
 */
public final class ClassHistogram {

    /** One class's instances and bytes. */
    public record Row(String className, long instances, long bytes) {
    }

    /** A histogram line: {@code "   1:        123456      7890123  [B (java.base@17)"}. */
    private static final Pattern LINE = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");

    private final Map<String, Row> rows;

    private ClassHistogram(Map<String, Row> rows) {
        this.rows = rows;
    }

    /**
     * Reads a histogram's text; lines that are not a class's (the header, the total) are skipped.
     *
     * @throws IllegalArgumentException if no line is a class's (not a histogram), naming the text's start
     */
    public static ClassHistogram parse(String text) {
        Map<String, Row> rows = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            Matcher m = LINE.matcher(line);
            if (m.find()) {
                rows.merge(m.group(3), new Row(m.group(3), Long.parseLong(m.group(1)), Long.parseLong(m.group(2))),
                        (a, b) -> new Row(a.className(), a.instances() + b.instances(), a.bytes() + b.bytes()));
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("not a class histogram (no line of '<n>: <instances> <bytes>"
                    + " <class>'): " + text.substring(0, Math.min(200, text.length())));
        }
        return new ClassHistogram(rows);
    }

    /** The bytes of every class together. */
    public long totalBytes() {
        return rows.values().stream().mapToLong(Row::bytes).sum();
    }

    /**
     * The {@code top} classes whose bytes grew most from {@code before} to this one, largest first, as rows of the
     * growth (instances and bytes this one holds more; a class absent before counts from zero).
     */
    public List<Row> grownSince(ClassHistogram before, int top) {
        List<Row> out = new ArrayList<>();
        for (Row now : rows.values()) {
            Row was = before.rows.get(now.className());
            long bytes = now.bytes() - (was == null ? 0 : was.bytes());
            if (bytes > 0) {
                out.add(new Row(now.className(), now.instances() - (was == null ? 0 : was.instances()), bytes));
            }
        }
        out.sort(Comparator.comparingLong(Row::bytes).reversed());
        return out.subList(0, Math.min(top, out.size()));
    }
}
