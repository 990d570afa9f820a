package io.jobinfo.store.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Copies the report of a complete suite run ({@code integration-tests/target/reliability-complete.md}) to
 * {@code docs/reliability.md}. The suite itself never writes tracked files; run this from the repository root after
 * {@code mvn -B -pl integration-tests -am verify}:
 * <pre>
 * java -cp integration-tests/target/test-classes io.jobinfo.store.it.PublishReliabilityReport
 * </pre>
 * Needs nothing but the JDK. Exits 2, changing nothing, when no complete report exists (a partial run, a failed
 * build, or the wrong directory); the message says what to run. The soak section of the page (between
 * {@link #SOAK_BEGIN} and {@link #SOAK_END}, written by {@link PublishSoakReport}) is kept as it is.
 */
public final class PublishReliabilityReport {

    static final String COMPLETE_NAME = "reliability-complete.md";
    static final String SOAK_BEGIN = "<!-- soak:begin";
    static final String SOAK_END = "<!-- soak:end -->";

    private PublishReliabilityReport() {
    }

    public static void main(String[] args) {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        try {
            Path docs = publish(root.resolve("integration-tests").resolve("target").resolve(COMPLETE_NAME),
                    root.resolve("docs").resolve("reliability.md"));
            System.out.println("wrote " + docs);
        } catch (IllegalStateException | IOException e) {
            System.err.println("PublishReliabilityReport: " + e.getMessage());
            System.exit(2);
        }
    }

    /**
     * Replaces {@code docs} with {@code complete}.
     *
     * @throws IllegalStateException {@code complete} does not exist, or {@code docs}' directory does not
     */
    static Path publish(Path complete, Path docs) throws IOException {
        if (!Files.isRegularFile(complete)) {
            throw new IllegalStateException(complete + " does not exist: run the whole suite first (mvn -B -pl"
                    + " integration-tests -am verify; a partial run or a failed group writes only"
                    + " target/reliability.md), from the repository root");
        }
        if (!Files.isDirectory(docs.getParent())) {
            throw new IllegalStateException(docs.getParent() + " is not a directory: run this from the repository"
                    + " root or give the root as the argument");
        }
        String text = Files.readString(complete);
        if (Files.isRegularFile(docs)) {
            String kept = section(Files.readString(docs));
            if (kept != null && section(text) != null) {
                text = replaceSection(text, kept);
            }
        }
        Path tmp = Files.createTempFile(docs.getParent(), ".reliability-", ".md");
        try {
            Files.writeString(tmp, text);
            Files.move(tmp, docs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return docs;
    }

    /** The soak section of {@code page}, markers included, or {@code null} if it has none. */
    static String section(String page) {
        int begin = page.indexOf(SOAK_BEGIN);
        int end = page.indexOf(SOAK_END);
        if (begin < 0 || end < begin) {
            return null;
        }
        return page.substring(begin, end + SOAK_END.length());
    }

    /** {@code page} with its soak section (markers included) replaced by {@code section}. */
    static String replaceSection(String page, String section) {
        int begin = page.indexOf(SOAK_BEGIN);
        int end = page.indexOf(SOAK_END);
        if (begin < 0 || end < begin) {
            throw new IllegalStateException("the page has no soak section (" + SOAK_BEGIN + " ... " + SOAK_END + ")");
        }
        return page.substring(0, begin) + section + page.substring(end + SOAK_END.length());
    }
}
