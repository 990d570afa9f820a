package io.jobinfo.store.cli.ops;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.jobinfo.store.config.ByteSize;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** What every command of this package shares: {@code --json}, error reporting and exit codes. */
@Command(mixinStandardHelpOptions = true, sortOptions = false, exitCodeListHeading = "%nExit codes:%n")
abstract class ReportCommand implements Callable<Integer> {

    static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.INDENT_OUTPUT);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--json")
    boolean json;

    @Override
    public final Integer call() {
        try {
            return execute();
        } catch (OpsException e) {
            err().println("jobinfo-store " + spec.name() + ": " + e.getMessage());
            err().flush();
            return e.exitCode();
        }
    }

    /** Runs the command and returns its exit code; throws {@link OpsException} for errors the operator must fix. */
    abstract int execute();

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    void printJson(Object value) {
        printJson(out(), value);
    }

    /** {@code value} as one line of JSON on {@code out}, flushed. */
    static void printJson(PrintWriter out, Object value) {
        try {
            out.println(JSON.writeValueAsString(value));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("report not serializable", e);
        }
        out.flush();
    }

    /** One JSON object per item, in order, whose fields {@code fields} puts (in the order it puts them). */
    static <T> List<Map<String, Object>> jsonList(Iterable<T> items, BiConsumer<T, Map<String, Object>> fields) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (T item : items) {
            Map<String, Object> e = new LinkedHashMap<>();
            fields.accept(item, e);
            out.add(e);
        }
        return out;
    }

    static String bytes(long n) {
        return n < 0 ? "-" + ByteSize.format(-n) : ByteSize.format(n);
    }
}
