package io.jobinfo.store.demo.engine;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A stand-in for the real scenario JVM's main class, for {@link EngineHarnessOutcomeTest}: a scenario that hangs, fails
 * or completes on demand in well under a second, which the real one (3-member SeaTunnel clusters, minutes) does not.
 * Its first argument says which; the harness appends {@code --out FILE}.
 */
public final class ScenarioStandIn {

    private ScenarioStandIn() {
    }

    public static void main(String[] args) throws Exception {
        List<String> a = Arrays.asList(args);
        Path out = Path.of(a.get(a.indexOf("--out") + 1));
        System.out.println("stand-in scenario: " + a.get(0));
        switch (a.get(0)) {
            case "hang" -> Thread.sleep(600_000);
            case "fail" -> {
                Files.writeString(out, "{\"error\":\"the stand-in's members did not start\"}", StandardCharsets.UTF_8);
                System.exit(2);
            }
            case "crash" -> System.exit(3);
            default -> Files.writeString(out, "{\"variants\":{}}", StandardCharsets.UTF_8);
        }
    }
}
