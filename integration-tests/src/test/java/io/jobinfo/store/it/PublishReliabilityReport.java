package io.jobinfo.store.it;

import io.jobinfo.store.testing.ReliabilitySection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Copies the report of a complete suite run ({@code integration-tests/target/reliability-complete.md}) to
 * {@code docs/reliability.md}. The suite itself never writes tracked files; run this from the repository root after
 * {@code mvn -B -pl integration-tests -am verify}:
 * <pre>
 * java -cp integration-tests/target/test-classes io.jobinfo.store.it.PublishReliabilityReport
 * </pre>
 * Needs nothing but the JDK. Exits 2, changing nothing, when no complete report exists (a partial run, a failed
 * build, or the wrong directory); the message says what to run. The sections other publishers write
 * ({@link ReliabilitySection}: the soak, the crash trials on the real engine) are kept as they are.
 */
public final class PublishReliabilityReport {

    static final String COMPLETE_NAME = "reliability-complete.md";

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
            String published = Files.readString(docs);
            for (ReliabilitySection s : ReliabilitySection.values()) {
                String kept = s.in(published);
                if (kept == null) {
                    continue;
                }
                // a report made from an older template may lack a section: the published one is appended then
                text = s.in(text) != null ? s.replaceIn(text, kept) : text.stripTrailing() + "\n\n" + kept + "\n";
            }
        }
        ReliabilitySection.write(docs, text);
        return docs;
    }
}
