package io.jobinfo.store.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The help of every command: a one-sentence summary, descriptions picocli wraps itself (one string per paragraph,
 * whole sentences) at 100 columns whatever the terminal, and the exit codes. Public for the demo module, whose
 * launcher adds {@code demo} to these commands and checks them all again (its {@code DemoHelpTest}).
 */
public class HelpTest {

    /** The command line whose help is checked. */
    protected CommandLine commandLine() {
        return JobInfoStoreCli.commandLine();
    }

    /** Commands it must have. */
    protected List<String> expectedCommands() {
        return List.of("migrate", "verify", "gc", "inspect", "rebuild-pointers", "check-config");
    }

    private String help(String... args) {
        StringWriter out = new StringWriter();
        CommandLine cli = commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(new StringWriter(), true));
        assertThat(cli.execute(args)).as(String.join(" ", args)).isZero();
        return out.toString();
    }

    private static boolean sentence(String s) {
        return !s.isBlank() && Character.isUpperCase(s.strip().charAt(0)) && s.strip().endsWith(".");
    }

    /** Each help text under target/help/, to read them as a user sees them. */
    private static void write(String name, String text) {
        try {
            java.nio.file.Path dir = java.nio.file.Files.createDirectories(java.nio.file.Path.of("target", "help"));
            java.nio.file.Files.writeString(dir.resolve(name + ".txt"), text);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The entries of the "Commands:" list, their wrapped lines joined. */
    private static java.util.Map<String, String> commandList(String help) {
        java.util.Map<String, String> entries = new java.util.LinkedHashMap<>();
        String current = null;
        boolean inList = false;
        for (String line : help.split("\n")) {
            if (line.equals("Commands:")) {
                inList = true;
            } else if (inList && line.matches("  \\S+ +\\S.*")) {
                String[] parts = line.strip().split(" +", 2);
                current = parts[0];
                entries.put(current, parts[1]);
            } else if (inList && current != null && line.matches(" {3,}\\S.*")) {
                entries.put(current, entries.get(current) + " " + line.strip());
            } else if (inList && !entries.isEmpty()) {
                inList = false;
            }
        }
        return entries;
    }

    @Test
    public void everyCommandHasASentenceSummaryCleanWrappingAt100ColumnsAndItsExitCodes() {
        CommandLine root = commandLine();
        assertThat(root.getUsageHelpWidth()).isEqualTo(100);
        assertThat(root.isUsageHelpAutoWidth()).isFalse();
        List<CommandLine> commands = new ArrayList<>(List.of(root));
        commands.addAll(root.getSubcommands().values());
        assertThat(root.getSubcommands().keySet()).containsAll(expectedCommands());

        SoftAssertions soft = new SoftAssertions();
        String rootHelp = help("--help");
        for (CommandLine c : commands) {
            CommandSpec spec = c.getCommandSpec();
            String name = spec.qualifiedName();
            String text = c == root ? rootHelp : help(spec.name(), "--help");
            write(spec.name(), text);
            soft.assertThat(spec.usageMessage().header()).as(name + " summary").hasSize(1)
                    .allMatch(HelpTest::sentence, "a whole sentence");
            soft.assertThat(spec.usageMessage().description()).as(name + " description").isNotEmpty()
                    .allMatch(HelpTest::sentence, "whole sentences, one string per paragraph");
            for (ArgSpec arg : spec.args()) {
                soft.assertThat(arg.description()).as(name + " " + arg.paramLabel() + " " + arg)
                        .hasSize(1).allMatch(HelpTest::sentence, "one whole-sentence string");
            }
            soft.assertThat(text).as(name).startsWith(spec.usageMessage().header()[0]).contains("Exit codes:")
                    .containsPattern("(?m)^ +0 +\\S").containsPattern("(?m)^ +2 +invalid arguments or configuration")
                    .containsPattern("(?m)^ +4 +internal error");
            String[] lines = text.split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                String line = lines[i];
                String next = i + 1 < lines.length ? lines[i + 1].strip() : "";
                soft.assertThat(line.length()).as(name + " help line: " + line).isLessThanOrEqualTo(100);
                soft.assertThat(line).as(name + " help line").doesNotEndWith(" ");
                // picocli may break inside a word at '/', ':' or '..' (hdfs:|//host, HOST:|PORT, 1..|64)
                boolean brokenWord = line.endsWith("/") || line.endsWith("..") && !line.endsWith("...")
                        || line.endsWith(":") && line.startsWith(" ") && (next.startsWith("/")
                        || !next.isEmpty() && Character.isDigit(next.charAt(0)) || next.matches("[A-Z]+\\b.*"));
                soft.assertThat(brokenWord).as(name + " help breaks a word: " + line + "|" + next).isFalse();
            }
            if (c != root) {
                // the command list of the top-level help shows the whole summary sentence
                String summary = spec.usageMessage().header()[0];
                String listed = commandList(rootHelp).get(spec.name());
                soft.assertThat(listed).as(name + " in the command list").isEqualTo(summary);
            }
        }
        soft.assertAll();
    }
}
