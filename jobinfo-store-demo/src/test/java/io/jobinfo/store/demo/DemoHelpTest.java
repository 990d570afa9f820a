package io.jobinfo.store.demo;

import io.jobinfo.store.cli.HelpTest;
import java.util.List;
import picocli.CommandLine;

/** The CLI's help checks over what {@code bin/jobinfo-store} runs: {@code demo} and every ops command. */
class DemoHelpTest extends HelpTest {

    @Override
    protected CommandLine commandLine() {
        return DemoCli.commandLine();
    }

    @Override
    protected List<String> expectedCommands() {
        return List.of("demo", "migrate", "verify", "gc", "inspect", "rebuild-pointers", "check-config");
    }
}
