package io.jobinfo.store.it;

import io.jobinfo.store.testing.ReliabilitySection;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Puts the result of a {@link SoakTest} run into the docs: {@code integration-tests/target/soak/soak.png} becomes
 * {@code docs/reliability/soak.png} and {@code soak.md} becomes the soak section of {@code docs/reliability.md}
 * (between its {@code <!-- soak:begin ... -->} and {@code <!-- soak:end -->} markers; the rest of the page is left
 * as it is). The soak itself never writes tracked files; run this from the repository root after it:
 * <pre>
 * java -cp integration-tests/target/test-classes io.jobinfo.store.it.PublishSoakReport
 * </pre>
 * Needs nothing but the JDK. Exits 2, changing nothing, when there is no soak result, or the page has no soak
 * section; the message says what to do.
 */
public final class PublishSoakReport {

    private PublishSoakReport() {
    }

    public static void main(String[] args) {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        try {
            publish(root.resolve("integration-tests").resolve("target").resolve("soak"), root.resolve("docs"));
            System.out.println("wrote " + root.resolve("docs").resolve("reliability.md") + " and "
                    + root.resolve("docs").resolve("reliability").resolve("soak.png"));
        } catch (IllegalStateException | IOException e) {
            System.err.println("PublishSoakReport: " + e.getMessage());
            System.exit(2);
        }
    }

    /**
     * Publishes {@code soakDir}'s {@code soak.md} and {@code soak.png} into {@code docsDir}.
     *
     * @throws IllegalStateException a result file is missing, or {@code docsDir/reliability.md} has no soak section
     */
    static void publish(Path soakDir, Path docsDir) throws IOException {
        ReliabilitySection.SOAK.publishSoak(soakDir, docsDir, "soak.png", "mvn -B -pl integration-tests -am verify"
                + " -Djobinfo.it.soak=true -Dtest=SoakTest -Dsurefire.failIfNoSpecifiedTests=false");
    }
}
