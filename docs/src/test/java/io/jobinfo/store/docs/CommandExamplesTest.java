package io.jobinfo.store.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobinfo.store.demo.DemoCli;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every ```bash block is valid bash ({@code bash -n}); every command line in it that starts with
 * {@code bin/jobinfo-store} is parsed by the real picocli command line of the tool, the demo module's launcher (the ops
 * CLI's commands plus {@code demo}, what {@code bin/jobinfo-store} runs; parsed, not run: the ops commands need a live
 * cluster); lines of other tools are limited to a short list of external tools, which are only
 * syntax-checked. README.md's first bash block is exactly the two commands {@code .ci/run} runs from it, and the demo
 * it advertises runs (small) against a store configured with a documented YAML example.
 */
class CommandExamplesTest {

    /** Tools the docs may show besides our own; checked for bash syntax only. */
    private static final Set<String> EXTERNAL_TOOLS = Set.of("aws", "hdfs", "kinit", "cp", "rm", "curl",
            "tar", "sha256sum", "cd", "ls", "grep");

    @Test
    void everyBashBlockIsValidBash() throws Exception {
        for (Markdown.Block block : Markdown.allBlocks("bash")) {
            Process bash = new ProcessBuilder("bash", "-n").redirectErrorStream(true).start();
            bash.getOutputStream().write(block.text().getBytes(StandardCharsets.UTF_8));
            bash.getOutputStream().close();
            String output = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(bash.exitValue()).as("%s: bash -n says %s", block, output).isZero();
        }
    }

    @Test
    void everyJobInfoStoreCommandParsesWithTheRealCommandLine() {
        Set<String> subcommands = new TreeSet<>();
        int parsed = 0;
        for (Markdown.Block block : Markdown.allBlocks("bash")) {
            boolean readmeSetup = block.file().getFileName().toString().equals("README.md")
                    && block.equals(Markdown.blocks(block.file()).stream()
                    .filter(b -> b.language().equals("bash")).findFirst().orElseThrow());
            for (List<String> command : commands(block.text())) {
                String tool = command.get(0);
                if (tool.equals("bin/jobinfo-store")) {
                    List<String> args = command.subList(1, command.size());
                    CommandLine.ParseResult result;
                    try {
                        result = DemoCli.commandLine().parseArgs(args.toArray(String[]::new));
                    } catch (CommandLine.ParameterException e) {
                        fail(block + ": `" + String.join(" ", command) + "` does not parse: " + e.getMessage());
                        return;
                    }
                    assertThat(result.subcommand()).as("%s: %s names a command", block, command).isNotNull();
                    assertThat(result.subcommand().unmatched()).as(block.toString()).isEmpty();
                    subcommands.add(result.subcommand().commandSpec().name());
                    parsed++;
                } else if (tool.equals("mvn")) {
                    assertThat(readmeSetup).as("%s: mvn appears only in README's set-up block", block).isTrue();
                } else {
                    assertThat(EXTERNAL_TOOLS).as("%s: `%s` is neither bin/jobinfo-store nor a known external tool",
                            block, String.join(" ", command)).contains(tool);
                }
            }
        }
        assertThat(parsed).isGreaterThanOrEqualTo(10);
        assertThat(subcommands).as("the docs show every command").contains("demo", "migrate", "verify", "gc",
                "inspect");
    }

    @Test
    void theParsingIsLive() {
        // an option the tool does not have must fail to parse, so the test above can fail
        List<String> wrong = commands("bin/jobinfo-store demo --stores local\n").get(0);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DemoCli.commandLine()
                        .parseArgs(wrong.subList(1, wrong.size()).toArray(String[]::new)))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("--stores");
    }

    /** The command line the lines above are parsed with is the one {@code bin/jobinfo-store} runs. */
    @Test
    void theLauncherRunsTheDemoModulesJarWhoseMainIsTheParsedCommandLine() {
        String launcher = Docs.read("bin/jobinfo-store");
        assertThat(launcher).contains("jobinfo-store-demo/target/jobinfo-store-demo.jar")
                .contains("-pl jobinfo-store-demo -am package");
        assertThat(Docs.read("jobinfo-store-demo/pom.xml")).contains("<mainClass>" + DemoCli.class.getName()
                + "</mainClass>");
    }

    /** README's first bash block: two commands, the second is what .ci/run runs (asked from .ci/run itself). */
    @Test
    void readmeSetUpBlockIsWhatCiRuns() throws Exception {
        Markdown.Block setup = Markdown.blocks(Docs.ROOT.resolve("README.md")).stream()
                .filter(b -> b.language().equals("bash")).findFirst().orElseThrow();
        List<String> lines = setup.text().lines().filter(l -> !l.isBlank()).toList();
        assertThat(lines).as("README's first bash block holds exactly two commands").hasSize(2);
        assertThat(commands(setup.text()).get(0)).startsWith("bin/jobinfo-store", "demo");

        String extraction = Docs.read(".ci/run").lines().filter(l -> l.startsWith("test_cmd=")).findFirst()
                .orElseThrow(() -> new AssertionError(".ci/run no longer has its test_cmd= line"));
        Process bash = new ProcessBuilder("bash", "-c", extraction + "\nprintf '%s' \"$test_cmd\"")
                .directory(Docs.ROOT.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String ciCommand = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();
        // two modules at a time (-T 2) on 2 cores, seatunnel-it with two test JVMs of its own
        assertThat(ciCommand).isEqualTo("mvn -B -T 2 verify");
        assertThat(commands(setup.text()).get(1)).containsExactly("mvn", "-B", "-T", "2", "verify");
    }

    /**
     * The demo README advertises, run small, on a store configured by configuration.md's smallest example (its
     * namespace moved to a temporary directory): every job restored and verified after the master is killed.
     */
    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void theDemoRunsOnADocumentedConfiguration(@TempDir Path dir) throws IOException {
        Markdown.Block smallest = Markdown.blocks(Docs.ROOT.resolve("docs/configuration.md")).stream()
                .filter(b -> b.language().equals("yaml") && b.text().contains("type: local")
                        && !b.text().contains("plugin-config"))
                .findFirst().orElseThrow();
        String yaml = smallest.text().replace("/var/lib/seatunnel/jobinfo", dir.resolve("jobinfo").toString());
        assertThat(yaml).isNotEqualTo(smallest.text());
        Path config = Files.writeString(dir.resolve("jobinfo-storage.yaml"), yaml);

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = DemoCli.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute("demo", "--storage-config", config.toString(), "--jobs", "6", "--blob-size", "20KiB",
                "--members", "2", "--json");

        assertThat(exit).as(err.toString()).isZero();
        JsonNode summary = new ObjectMapper().readTree(out.toString());
        assertThat(summary.get("restored").asInt()).isEqualTo(6);
        assertThat(summary.get("failed").asInt()).isZero();
        assertThat(summary.get("mismatched").asInt()).isZero();
    }

    /**
     * The commands of a bash block: continuation lines joined, comments and blank lines dropped, each split into
     * words with single and double quotes honoured (no expansions: the docs use none).
     */
    static List<List<String>> commands(String bashText) {
        List<List<String>> commands = new ArrayList<>();
        String joined = bashText.replace("\\\n", " ");
        for (String line : joined.split("\n")) {
            List<String> words = words(line);
            if (!words.isEmpty()) {
                commands.add(words);
            }
        }
        return commands;
    }

    private static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                word = word == null ? new StringBuilder() : word;
            } else if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
            } else if (c == '#' && word == null) {
                break; // a comment
            } else {
                word = word == null ? new StringBuilder() : word;
                word.append(c);
            }
        }
        if (quote != 0) {
            throw new AssertionError("unclosed quote in: " + line);
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }
}
