package io.jobinfo.store.cli.ops;

/** A failure the operator can act on: the message names the thing and what to do; the exit code tells scripts. */
final class OpsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    OpsException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    OpsException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }
}
