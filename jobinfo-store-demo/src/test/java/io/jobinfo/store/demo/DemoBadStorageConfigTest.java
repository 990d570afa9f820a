package io.jobinfo.store.demo;

import io.jobinfo.store.cli.ops.BadStorageConfigTest;
import java.util.List;
import picocli.CommandLine;

/**
 * The CLI's bad {@code --storage-config} files given to {@code demo}: exit 2, one message listing every problem, no
 * trace, no secret, and nothing started (no "starting" line: the demo checks the file before its members start).
 */
class DemoBadStorageConfigTest extends BadStorageConfigTest {

    @Override
    protected CommandLine commandLine() {
        return DemoCli.commandLine();
    }

    @Override
    protected List<String> commands() {
        return List.of("demo");
    }

    @Override
    protected List<String> extraArgs(String command, int clusterPort) {
        return List.of();
    }
}
