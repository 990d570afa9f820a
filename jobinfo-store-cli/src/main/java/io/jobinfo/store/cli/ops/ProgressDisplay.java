package io.jobinfo.store.cli.ops;

import io.jobinfo.store.config.ByteSize;
import java.io.PrintWriter;
import java.time.Duration;

/**
 * Progress on standard error. On a terminal: one bar redrawn in place (entries, bytes/s, ETA), at most five times a
 * second. Elsewhere (a pipe, a log file, CI): a plain line every 10% or every 10 seconds. Thread-safe.
 */
final class ProgressDisplay {

    /** How progress is shown. */
    enum Mode {
        /** A bar on a terminal, lines otherwise. */
        auto,
        bar,
        lines,
        none
    }

    private static final long BAR_REFRESH_NANOS = 200_000_000L;
    private static final long LINE_EVERY_NANOS = 10_000_000_000L;
    private static final int BAR_WIDTH = 30;

    private final PrintWriter err;
    private final Mode mode;
    private final String verb;
    private long startNanos;
    private long lastDrawNanos;
    private int lastDecile = -1;
    private int total;
    private int done;
    private long bytes;
    private int barLength;

    ProgressDisplay(PrintWriter err, Mode mode, String verb) {
        this.err = err;
        this.mode = mode == Mode.auto ? (System.console() != null ? Mode.bar : Mode.lines) : mode;
        this.verb = verb;
    }

    Mode effectiveMode() {
        return mode;
    }

    /** @param totalEntries how many steps will come, or a negative number when unknown (no percentage, no ETA) */
    synchronized void start(int totalEntries) {
        this.total = totalEntries;
        this.startNanos = System.nanoTime();
        if (mode == Mode.lines && totalEntries >= 0) {
            err.printf("%s: %d entries%n", verb, totalEntries);
            err.flush();
        }
    }

    synchronized void step(long entryBytes) {
        done++;
        bytes += entryBytes;
        long now = System.nanoTime();
        switch (mode) {
            case bar:
                if (now - lastDrawNanos >= BAR_REFRESH_NANOS || done == total) {
                    lastDrawNanos = now;
                    drawBar(now);
                }
                break;
            case lines:
                int decile = total <= 0 ? lastDecile : (int) ((long) done * 10 / total);
                if (decile != lastDecile || now - lastDrawNanos >= LINE_EVERY_NANOS) {
                    lastDecile = decile;
                    lastDrawNanos = now;
                    err.println(verb + ": " + status(now));
                    err.flush();
                }
                break;
            default:
                break;
        }
    }

    synchronized void finish() {
        if (mode == Mode.bar && barLength > 0) {
            drawBar(System.nanoTime());
            err.println();
            err.flush();
        } else if (mode == Mode.lines && total < 0 && done > 0) {
            err.println(verb + ": " + status(System.nanoTime()));
            err.flush();
        }
    }

    private void drawBar(long now) {
        int filled = total <= 0 ? BAR_WIDTH : (int) ((long) done * BAR_WIDTH / total);
        String line = "\r" + verb + " [" + repeat('=', filled) + (filled < BAR_WIDTH ? ">" : "")
                + repeat(' ', Math.max(0, BAR_WIDTH - filled - 1)) + "] " + status(now);
        int pad = Math.max(0, barLength - line.length());
        barLength = line.length();
        err.print(line + repeat(' ', pad));
        err.flush();
    }

    private String status(long now) {
        double secs = Math.max(1e-3, (now - startNanos) / 1e9);
        if (total < 0) {
            return done + " objects, " + ByteSize.format(bytes) + ", " + ByteSize.format((long) (bytes / secs)) + "/s";
        }
        int pct = total == 0 ? 100 : (int) ((long) done * 100 / total);
        String eta = done == 0 ? "?" : DurationConverter.format(Duration.ofSeconds(
                Math.round(secs / done * (total - done))));
        return done + "/" + total + " entries " + pct + "%, " + ByteSize.format(bytes) + ", "
                + ByteSize.format((long) (bytes / secs)) + "/s, ETA " + eta;
    }

    private static String repeat(char c, int n) {
        char[] chars = new char[Math.max(0, n)];
        java.util.Arrays.fill(chars, c);
        return new String(chars);
    }
}
