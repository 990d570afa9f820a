package io.jobinfo.store.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses sizes such as {@code 64MiB}, {@code 512 KB}, {@code 1g} or a plain number of bytes. Powers of 1024. */
public final class ByteSize {

    private static final Pattern SIZE = Pattern.compile("\\s*(\\d+)\\s*([kmgt]?)(i?b?)\\s*", Pattern.CASE_INSENSITIVE);

    private ByteSize() {
    }

    /**
     * @throws IllegalArgumentException with a message naming the accepted forms
     */
    public static long parse(Object value) {
        if (value instanceof Number) {
            return whole((Number) value);
        }
        String text = String.valueOf(value);
        Matcher m = SIZE.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException(Durations.quote(text.trim()) + " is not a size; write bytes (65536) or"
                    + " a number with a unit: 64KiB, 64MiB, 1GiB");
        }
        long n;
        try {
            n = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(Durations.quote(text.trim()) + " is too large");
        }
        int shift;
        switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k":
                shift = 10;
                break;
            case "m":
                shift = 20;
                break;
            case "g":
                shift = 30;
                break;
            case "t":
                shift = 40;
                break;
            default:
                shift = 0;
        }
        if (shift > 0 && n > (Long.MAX_VALUE >> shift)) {
            throw new IllegalArgumentException(Durations.quote(text.trim()) + " is too large");
        }
        return n << shift;
    }

    /** A YAML number: a whole number of bytes that fits a long (SnakeYAML gives Integer, Long, BigInteger, Double). */
    private static long whole(Number n) {
        if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte) {
            return n.longValue();
        }
        if (n instanceof java.math.BigInteger) {
            if (((java.math.BigInteger) n).bitLength() > 63) {
                throw new IllegalArgumentException(Durations.quote(n.toString()) + " is too large");
            }
            return n.longValue();
        }
        double d = n.doubleValue();
        if (d != Math.rint(d) || Double.isInfinite(d)) {
            throw new IllegalArgumentException(Durations.quote(n.toString()) + " is not a whole number of bytes;"
                    + " write bytes (65536) or a number with a unit: 64KiB, 64MiB, 1GiB");
        }
        if (Math.abs(d) >= 0x1p63) {
            throw new IllegalArgumentException(Durations.quote(n.toString()) + " is too large");
        }
        return (long) d;
    }

    /** Human form, for messages: 1.5 MiB. */
    public static String format(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int i = -1;
        while (v >= 1024 && i < units.length - 1) {
            v /= 1024;
            i++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[i]);
    }
}
