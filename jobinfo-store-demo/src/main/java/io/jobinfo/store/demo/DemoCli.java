package io.jobinfo.store.demo;

import io.jobinfo.store.cli.JobInfoStoreCli;
import picocli.CommandLine;

/**
 * What {@code bin/jobinfo-store} runs: the ops command line of {@code jobinfo-store-cli} ({@code migrate},
 * {@code verify}, {@code gc}, {@code inspect}, {@code rebuild-pointers}) with the {@code demo} command added in front,
 * the same exit codes and the same help layout. The ops commands are the CLI's own classes; only the demo, its
 * embedded servers and the real-engine demo live in this module.
 */
public final class DemoCli {

    /** The top-level description with the demo in it (the ops CLI's own names its commands only). */
    static final String DESCRIPTION = "Runs the demo, or migrates, verifies, collects garbage of, inspects and rebuilds"
            + " the pointers of the job map and store of a running cluster. Run a command with --help for its options.";

    private DemoCli() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code (for tests and embedding). */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /** The ops command line with {@code demo} as its first command. */
    public static CommandLine commandLine() {
        CommandLine cli = JobInfoStoreCli.commandLine(new DemoCommand());
        cli.getCommandSpec().usageMessage().description(DESCRIPTION);
        return cli;
    }
}
