package io.jobinfo.store.cli;

import io.jobinfo.store.cli.ops.CheckConfigCommand;
import io.jobinfo.store.cli.ops.ExitCodes;
import io.jobinfo.store.cli.ops.GcCommand;
import io.jobinfo.store.cli.ops.InspectCommand;
import io.jobinfo.store.cli.ops.MigrateCommand;
import io.jobinfo.store.cli.ops.RebuildPointersCommand;
import io.jobinfo.store.cli.ops.StorageConfigFile;
import io.jobinfo.store.cli.ops.VerifyCommand;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code jobinfo-store} command. Exit codes: 0 success, 1 the work found problems, 2 bad arguments. */
@Command(name = "jobinfo-store", mixinStandardHelpOptions = true, versionProvider = JobInfoStoreCli.Version.class,
        resourceBundle = "io.jobinfo.store.cli.Messages",
        header = "Keeps large job descriptions out of a Hazelcast IMap, on shared storage.",
        description = "Migrates, verifies, collects garbage of, inspects and rebuilds the pointers of the job map and"
                + " store of a running cluster. Run a command with --help for its options.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:the command ran and found problems (failed jobs, orphans, corrupt blobs)",
            "2:invalid arguments or configuration", "3:a cluster or store could not be reached",
            "4:internal error (a bug: please report it)",
            "130/143:stopped by SIGINT (Ctrl-C) or SIGTERM before a report (migrate instead finishes the entries in"
                + " progress, reports and exits 1)"})
public final class JobInfoStoreCli implements Runnable {

    public static final int EXIT_OK = ExitCodes.OK;
    public static final int EXIT_PROBLEMS = ExitCodes.PROBLEMS;
    public static final int EXIT_USAGE = ExitCodes.USAGE;
    public static final int EXIT_UNREACHABLE = ExitCodes.UNREACHABLE;
    public static final int EXIT_INTERNAL = ExitCodes.INTERNAL;
    /** Columns of every help text. */
    public static final int USAGE_WIDTH = 100;

    /** The ops commands, in the order the help lists them. */
    private static final List<Class<?>> OPS_COMMANDS = Arrays.asList(MigrateCommand.class, VerifyCommand.class,
            GcCommand.class, InspectCommand.class, RebuildPointersCommand.class, CheckConfigCommand.class);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code (for tests and embedding). */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    public static CommandLine commandLine() {
        return commandLine(new Object[0]);
    }

    /**
     * The command line with {@code firstCommands} ({@code @Command} objects or classes) listed before the ops commands,
     * under the same exit codes, exception handling and help layout: the {@code jobinfo-store-demo} module adds its
     * {@code demo} command this way.
     */
    public static CommandLine commandLine(Object... firstCommands) {
        CommandLine cli = new CommandLine(new JobInfoStoreCli());
        for (Object command : firstCommands) {
            cli.addSubcommand(command);
        }
        for (Class<?> command : OPS_COMMANDS) {
            cli.addSubcommand(command);
        }
        // the same layout on every terminal and in every pipe: picocli wraps descriptions at this width (set after the
        // subcommands are added: picocli applies these settings to the subcommands present at the call)
        cli.setUsageHelpAutoWidth(false);
        cli.setUsageHelpWidth(USAGE_WIDTH);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof StorageConfigFile.Invalid) {
                commandLine.getErr().println("jobinfo-store " + commandLine.getCommandName() + ": " + e.getMessage());
                return EXIT_USAGE;
            }
            if (e instanceof io.jobinfo.store.config.InvalidConfigurationException) {
                commandLine.getErr().println(e.getMessage());
                return EXIT_USAGE;
            }
            if (e instanceof io.jobinfo.store.spi.JobInfoStoreException
                    || e instanceof com.hazelcast.core.HazelcastException
                    || e instanceof java.io.IOException) {
                commandLine.getErr().println("jobinfo-store " + commandLine.getCommandName() + ": " + e.getMessage());
                return EXIT_UNREACHABLE;
            }
            commandLine.getErr().println("jobinfo-store " + commandLine.getCommandName()
                    + ": internal error, please report it with this trace:");
            e.printStackTrace(commandLine.getErr());
            return EXIT_INTERNAL;
        });
        return cli;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Name a command: "
                + spec.subcommands().keySet());
    }

    /** Version from the jar manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = JobInfoStoreCli.class.getPackage().getImplementationVersion();
            return new String[] {"jobinfo-store " + (v == null ? "development build" : v)};
        }
    }
}
