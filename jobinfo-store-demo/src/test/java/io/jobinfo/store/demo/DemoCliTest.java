package io.jobinfo.store.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What {@code bin/jobinfo-store} runs: {@code demo} first, then every ops command of the CLI, each reachable. */
class DemoCliTest {

    @Test
    void theDemoComesFirstAndEveryOpsCommandIsThere() {
        assertThat(DemoCli.commandLine().getSubcommands().keySet())
                .containsExactly("demo", "migrate", "verify", "gc", "inspect", "rebuild-pointers", "check-config");
    }

    @Test
    void anOpsCommandRunsThroughTheDemoLauncher() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = DemoCli.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        // parsed and refused before connecting: gc needs a store
        assertThat(cli.execute("gc", "--address", "127.0.0.1:1")).as(err.toString()).isEqualTo(2);
        assertThat(err.toString()).contains("--storage-config");

        out.getBuffer().setLength(0);
        assertThat(cli.execute("gc", "--help")).isZero();
        assertThat(out.toString()).contains("Usage: jobinfo-store gc");
    }
}
