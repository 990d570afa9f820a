package io.jobinfo.store.cli.ops;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Reads durations such as {@code 90s}, {@code 30m}, {@code 1h}, {@code 2d}, {@code 500ms} or ISO-8601 {@code PT1H}. */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    private static final Pattern SIMPLE = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)?");

    @Override
    public Duration convert(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        Matcher m = SIMPLE.matcher(v);
        if (m.matches()) {
            long n;
            try {
                n = Long.parseLong(m.group(1));
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is too large a duration");
            }
            String unit = m.group(2) == null ? "s" : m.group(2);
            return switch (unit) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
        try {
            Duration d = Duration.parse(value.trim().toUpperCase(Locale.ROOT));
            if (d.isNegative()) {
                throw new CommandLine.TypeConversionException("'" + value + "' is negative; give a duration >= 0");
            }
            return d;
        } catch (DateTimeParseException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a duration; write it like 90s, 30m,"
                    + " 1h, 2d, 500ms or PT1H");
        }
    }

    /** {@code 1h 2m 3s}-style text for reports. */
    static String format(Duration d) {
        long s = d.toSeconds();
        if (d.isZero()) {
            return "0s";
        }
        if (s == 0) {
            return d.toMillis() + "ms";
        }
        StringBuilder b = new StringBuilder();
        if (s >= 86400) {
            b.append(s / 86400).append("d");
            s %= 86400;
        }
        if (s >= 3600) {
            b.append(s / 3600).append("h");
            s %= 3600;
        }
        if (s >= 60) {
            b.append(s / 60).append("m");
            s %= 60;
        }
        if (s > 0 || b.length() == 0) {
            b.append(s).append("s");
        }
        return b.toString();
    }
}
