package io.jobinfo.store.seatunnel.it;

import io.jobinfo.store.testing.ReliabilitySection;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Puts the result of a {@link DropInSoakTest} run into the docs: {@code seatunnel-it/target/seatunnel-it/soak/soak.png}
 * becomes {@code docs/reliability/engine-soak.png} and {@code soak.md} the engine-soak section of
 * {@code docs/reliability.md} (between its {@code <!-- engine-soak:begin ... -->} and {@code <!-- engine-soak:end -->}
 * markers; the rest of the page is left as it is). Run it from the repository root after the soak:
 * <pre>
 * java -cp seatunnel-it/target/test-classes:jobinfo-store-core/target/test-classes \
 *     io.jobinfo.store.seatunnel.it.PublishEngineSoakReport
 * </pre>
 * Needs nothing but the JDK. Exits 2, changing nothing, when there is no soak result or the page has no such
 * section; the message says what to do.
 */
public final class PublishEngineSoakReport {

    private PublishEngineSoakReport() {
    }

    public static void main(String[] args) {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        try {
            publish(root.resolve("seatunnel-it").resolve("target").resolve("seatunnel-it").resolve("soak"),
                    root.resolve("docs"));
            System.out.println("wrote " + root.resolve("docs").resolve("reliability.md"));
        } catch (IllegalStateException | IOException e) {
            System.err.println("PublishEngineSoakReport: " + e.getMessage());
            System.exit(2);
        }
    }

    /**
     * Publishes {@code soakDir}'s {@code soak.md} and {@code soak.png} into {@code docsDir}.
     *
     * @throws IllegalStateException a result file is missing, or {@code docsDir/reliability.md} has no such section
     */
    static void publish(Path soakDir, Path docsDir) throws IOException {
        ReliabilitySection.ENGINE_SOAK.publishSoak(soakDir, docsDir, "engine-soak.png", "mvn -B -pl seatunnel-it -am"
                + " verify -Djobinfo.it.soak=true -Dtest='io/jobinfo/store/seatunnel/it/DropInSoakTest'"
                + " -Dsurefire.failIfNoSpecifiedTests=false");
    }
}
