package io.jobinfo.store.seatunnel.it;

import io.jobinfo.store.testing.ReliabilitySection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Puts the result of the crash trials on the real SeaTunnel engine ({@link CrashTrials}:
 * {@code seatunnel-it/target/seatunnel-it/reliability-engine.md}) into the engine section of
 * {@code docs/reliability.md} (between its {@code <!-- engine:begin ... -->} and {@code <!-- engine:end -->}
 * markers; the rest of the page is left as it is). The trials never write tracked files; run this from the
 * repository root after them:
 * <pre>
 * java -cp seatunnel-it/target/test-classes:jobinfo-store-core/target/test-classes \
 *     io.jobinfo.store.seatunnel.it.PublishEngineReliabilityReport
 * </pre>
 * Needs nothing but the JDK. Exits 2, changing nothing, when there is no result or the page has no engine section;
 * the message says what to do.
 */
public final class PublishEngineReliabilityReport {

    private PublishEngineReliabilityReport() {
    }

    public static void main(String[] args) {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        Path page = root.resolve("docs").resolve("reliability.md");
        try {
            publish(root.resolve("seatunnel-it").resolve("target").resolve("seatunnel-it")
                    .resolve("reliability-engine.md"), page);
            System.out.println("wrote " + page);
        } catch (IllegalStateException | IOException e) {
            System.err.println("PublishEngineReliabilityReport: " + e.getMessage());
            System.exit(2);
        }
    }

    /**
     * Publishes {@code result} into the engine section of {@code page}; the result's title becomes a second-level
     * heading, since it is a section of the page.
     *
     * @throws IllegalStateException {@code result} does not exist, or {@code page} does not exist or has no engine
     *     section
     */
    static void publish(Path result, Path page) throws IOException {
        if (!Files.isRegularFile(result)) {
            throw new IllegalStateException(result + " does not exist: run the crash trials first (mvn -B -pl"
                    + " seatunnel-it -am verify -Djobinfo.it.long=true -Dtest='DropIn*CrashTrialsTest'"
                    + " -Dsurefire.failIfNoSpecifiedTests=false), from the repository root");
        }
        String body = Files.readString(result).strip();
        if (body.startsWith("# ")) {
            body = "#" + body;
        }
        ReliabilitySection.ENGINE.publish(page, body);
    }
}
