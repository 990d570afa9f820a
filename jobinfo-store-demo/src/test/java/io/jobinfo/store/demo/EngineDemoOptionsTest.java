package io.jobinfo.store.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.demo.engine.EngineHarness;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code demo --engine seatunnel}'s arguments, checked before anything starts (the run itself, on real SeaTunnel
 * member processes, is seatunnel-it's EngineDemoCommandTest): options of the other mode are named and refused, and a
 * harness that is not built is said so with the command that builds it.
 */
class EngineDemoOptionsTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = DemoCli.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void optionsOfTheEmbeddedDemoAreRefusedOnTheRealEngineAndTheOtherWayRound() {
        assertThat(run("demo", "--engine", "seatunnel", "--blob-size", "1MiB", "--store", "s3", "--job-sizes",
                "small,huge", "--jobs", "500")).isEqualTo(2);
        assertThat(err.toString()).contains("--blob-size applies to the embedded demo only")
                .contains("--store applies to the embedded demo only")
                .contains("--job-sizes: unknown size 'huge'")
                .contains("--jobs must be between 1 and 300 with --engine seatunnel");

        err.getBuffer().setLength(0);
        assertThat(run("demo", "--job-sizes", "small")).isEqualTo(2);
        assertThat(err.toString()).contains("--job-sizes and --work-dir apply to --engine seatunnel only");

        err.getBuffer().setLength(0);
        assertThat(run("demo", "--engine", "flink")).isEqualTo(2);
        assertThat(err.toString()).contains("flink");
    }

    @Test
    void aHarnessThatIsNotBuiltIsNamedWithTheCommandThatBuildsIt(@TempDir Path empty) {
        String before = System.getProperty(EngineHarness.PROPERTY);
        System.setProperty(EngineHarness.PROPERTY, empty.toString());
        try {
            assertThat(run("demo", "--engine", "seatunnel", "--jobs", "1")).isEqualTo(2);
        } finally {
            if (before == null) {
                System.clearProperty(EngineHarness.PROPERTY);
            } else {
                System.setProperty(EngineHarness.PROPERTY, before);
            }
        }
        assertThat(err.toString()).contains("the SeaTunnel engine harness is not built").contains(empty.toString())
                .contains(EngineHarness.BUILD);
    }
}
