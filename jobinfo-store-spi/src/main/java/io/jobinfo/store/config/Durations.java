package io.jobinfo.store.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one duration syntax of the project, for YAML keys and command-line options alike: whole numbers with a unit,
 * {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 2d}, or several of them such as {@code 1h30m}
 * ({@code 0} needs no unit). ISO-8601
 * ({@code PT30M}) is accepted too, so that files written for earlier versions keep working. Never negative.
 */
public final class Durations {

    /** The forms, for messages. */
    public static final String FORMS = "500ms, 30s, 5m, 1h or 2d";

    private static final String UNITS = "(ms|s|m|h|d)";
    private static final Pattern PART = Pattern.compile("(\\d{1,18})\\s*" + UNITS, Pattern.CASE_INSENSITIVE);
    /** One or more parts, such as {@code 1h30m}. */
    private static final Pattern SIMPLE = Pattern.compile("(?:\\d{1,18}\\s*" + UNITS + "\\s*)+",
            Pattern.CASE_INSENSITIVE);
    private static final int MAX_ECHO = 40;

    private Durations() {
    }

    /**
     * Reads {@code value} (a string, or {@code 0}).
     *
     * @throws IllegalArgumentException not a duration, negative or too large; the message quotes at most 40
     *                                  characters of the value and names the accepted forms
     */
    public static Duration parse(Object value) {
        String text = value == null ? "" : String.valueOf(value).trim();
        if (text.equals("0")) {
            return Duration.ZERO;
        }
        if (SIMPLE.matcher(text).matches()) {
            Duration total = Duration.ZERO;
            Matcher part = PART.matcher(text);
            try {
                while (part.find()) {
                    total = total.plus(unit(Long.parseLong(part.group(1)), part.group(2).toLowerCase(Locale.ROOT)));
                }
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException(quote(text) + " is too large a duration");
            }
            return total;
        }
        if (text.regionMatches(true, 0, "P", 0, 1) || text.regionMatches(true, 0, "-P", 0, 2)) {
            try {
                Duration d = Duration.parse(text.toUpperCase(Locale.ROOT));
                if (d.isNegative()) {
                    throw new IllegalArgumentException(quote(text) + " is negative; give a duration of 0 or more");
                }
                return d;
            } catch (DateTimeParseException e) {
                // fall through to the message naming the forms
            }
        }
        if (text.matches("\\d+")) {
            throw new IllegalArgumentException(quote(text) + " has no unit; write it like " + FORMS);
        }
        throw new IllegalArgumentException(quote(text) + " is not a duration; write it like " + FORMS);
    }

    private static Duration unit(long n, String unit) {
        if (unit.equals("ms")) {
            return Duration.ofMillis(n);
        } else if (unit.equals("s")) {
            return Duration.ofSeconds(n);
        } else if (unit.equals("m")) {
            return Duration.ofMinutes(n);
        } else if (unit.equals("h")) {
            return Duration.ofHours(n);
        }
        return Duration.ofDays(n);
    }

    /** The shortest text {@link #parse} reads back to {@code d}: {@code 1h30m}, {@code 500ms}, {@code 0s}. */
    public static String format(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        long s = d.getSeconds();
        int millis = d.getNano() / 1_000_000;
        StringBuilder b = new StringBuilder();
        if (s >= 86400) {
            b.append(s / 86400).append('d');
            s %= 86400;
        }
        if (s >= 3600) {
            b.append(s / 3600).append('h');
            s %= 3600;
        }
        if (s >= 60) {
            b.append(s / 60).append('m');
            s %= 60;
        }
        if (s > 0) {
            b.append(s).append('s');
        }
        if (millis > 0) {
            b.append(millis).append("ms");
        }
        return b.length() == 0 ? "0s" : b.toString();
    }

    static String quote(String text) {
        return "'" + (text.length() > MAX_ECHO ? text.substring(0, MAX_ECHO) + "..." : text) + "'";
    }
}
