package io.jobinfo.store.cli.ops;

import java.io.PrintWriter;
import picocli.CommandLine.Option;

/** {@code --progress}: how a long run shows its progress; a picocli mixin of gc, verify and migrate. */
public final class ProgressOption {

    @Option(names = "--progress", defaultValue = "auto", paramLabel = "MODE")
    ProgressDisplay.Mode mode;

    /** The display of a run named {@code verb}, on {@code err}. */
    ProgressDisplay display(PrintWriter err, String verb) {
        return new ProgressDisplay(err, mode, verb);
    }
}
