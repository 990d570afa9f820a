package io.jobinfo.store.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A part of {@code docs/reliability.md} that a publisher of its own writes and every other publisher keeps as it is:
 * the text between {@code <!-- NAME:begin ... -->} and {@code <!-- NAME:end -->}, markers included. The page's
 * template ({@code reliability-template.md}) holds an empty placeholder of each, so a freshly published reliability
 * report has every section to fill.
 *
 * <p>Here (the core test-jar) rather than in integration-tests, whose publisher writes the page, so that seatunnel-it
 * needs nothing of that module and the two build side by side.
 */
public enum ReliabilitySection {

    /** The 30-minute soak, written by integration-tests' PublishSoakReport. */
    SOAK("soak", "PublishSoakReport (see SoakTest)"),
    /** The crash trials on the real SeaTunnel engine, written by seatunnel-it's PublishEngineReliabilityReport. */
    ENGINE("engine", "PublishEngineReliabilityReport (see seatunnel-it's CrashTrials)"),
    /** The soak on the real SeaTunnel engine, written by seatunnel-it's PublishEngineSoakReport. */
    ENGINE_SOAK("engine-soak", "PublishEngineSoakReport (see seatunnel-it's DropInSoakTest)");

    private final String begin;
    private final String end;
    private final String writer;

    ReliabilitySection(String name, String writer) {
        this.begin = "<!-- " + name + ":begin";
        this.end = "<!-- " + name + ":end -->";
        this.writer = writer;
    }

    /** The opening marker's fixed start, {@code <!-- NAME:begin}. */
    public String begin() {
        return begin;
    }

    /** The closing marker, {@code <!-- NAME:end -->}. */
    public String end() {
        return end;
    }

    /** This section of {@code page}, markers included, or {@code null} if the page has none. */
    public String in(String page) {
        int b = page.indexOf(begin);
        int e = page.indexOf(end);
        if (b < 0 || e < b) {
            return null;
        }
        return page.substring(b, e + end.length());
    }

    /**
     * {@code page} with this section (markers included) replaced by {@code section}.
     *
     * @throws IllegalStateException the page has no such section
     */
    public String replaceIn(String page, String section) {
        String old = in(page);
        if (old == null) {
            throw new IllegalStateException("the page has no " + name().toLowerCase(java.util.Locale.ROOT)
                    + " section (" + begin + " ... " + end + ")");
        }
        int b = page.indexOf(begin);
        return page.substring(0, b) + section + page.substring(b + old.length());
    }

    /** {@code body} between this section's markers, the opening one saying who writes it. */
    public String wrap(String body) {
        return begin + ": this section is written by " + writer + "; PublishReliabilityReport keeps it -->\n"
                + body.strip() + "\n" + end;
    }

    /**
     * Replaces this section of {@code page} with {@code body} (wrapped in the markers), atomically: on any failure
     * the page is left as it was.
     *
     * @throws IllegalStateException the page does not exist or has no such section
     */
    public void publish(Path page, String body) throws IOException {
        if (!Files.isRegularFile(page)) {
            throw new IllegalStateException(page + " does not exist: run this from the repository root or give the"
                    + " root as the argument");
        }
        String text = Files.readString(page);
        if (in(text) == null) {
            throw new IllegalStateException(page + " has no " + name().toLowerCase(java.util.Locale.ROOT)
                    + " section (" + begin + " ... " + end + "): publish the reliability report first");
        }
        write(page, replaceIn(text, wrap(body)));
    }

    /**
     * Publishes a soak's result: {@code soakDir/soak.md} becomes this section of {@code docsDir/reliability.md} and
     * {@code soakDir/soak.png} becomes {@code docsDir/reliability/<chartName>}.
     *
     * @param runFirst the command that makes the result, for the message when there is none
     * @throws IllegalStateException a result file is missing (nothing is changed), or the page has no such section
     */
    public void publishSoak(Path soakDir, Path docsDir, String chartName, String runFirst) throws IOException {
        Path md = soakDir.resolve("soak.md");
        Path png = soakDir.resolve("soak.png");
        if (!Files.isRegularFile(md) || !Files.isRegularFile(png)) {
            throw new IllegalStateException(md + " or " + png + " does not exist: run the soak first (" + runFirst
                    + "), from the repository root");
        }
        publish(docsDir.resolve("reliability.md"), Files.readString(md));
        Path images = Files.createDirectories(docsDir.resolve("reliability"));
        Files.copy(png, images.resolve(chartName), StandardCopyOption.REPLACE_EXISTING);
    }

    /** Writes {@code text} to {@code page} through a temporary file in the same directory and an atomic move. */
    public static void write(Path page, String text) throws IOException {
        Path tmp = Files.createTempFile(page.toAbsolutePath().getParent(), ".reliability-", ".md");
        try {
            Files.writeString(tmp, text);
            Files.move(tmp, page, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
