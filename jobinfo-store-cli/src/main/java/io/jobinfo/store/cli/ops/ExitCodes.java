package io.jobinfo.store.cli.ops;

/** The exit codes of every {@code jobinfo-store} command, as their help lists them. */
public final class ExitCodes {

    /** Done, nothing found wrong. */
    public static final int OK = 0;
    /** Done, with problems listed (failed entries, broken blobs, undecodable values, an interrupted run). */
    public static final int PROBLEMS = 1;
    /** Invalid arguments or configuration, or a refusal before anything was changed. */
    public static final int USAGE = 2;
    /** The cluster or the store could not be reached; nothing was changed. */
    public static final int UNREACHABLE = 3;
    /** Internal error (a bug). */
    public static final int INTERNAL = 4;

    /** The help lines of the codes whose meaning is the same for every command (picocli's {@code exitCodeList}). */
    static final String HELP_USAGE = "2:invalid arguments or configuration";
    static final String HELP_UNREACHABLE = "3:the cluster or the store could not be reached";
    static final String HELP_INTERNAL = "4:internal error (a bug: please report it, with the trace printed)";
    static final String HELP_STOPPED_UNCHANGED = "130/143:stopped by SIGINT (Ctrl-C) or SIGTERM; nothing was changed";

    private ExitCodes() {
    }
}
