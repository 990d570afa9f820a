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

    private ExitCodes() {
    }
}
