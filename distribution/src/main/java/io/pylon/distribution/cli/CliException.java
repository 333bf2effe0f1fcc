package io.pylon.distribution.cli;

/**
 * A failure the CLI reports as one line and an exit code. The message is shown to the operator as it is, so it must
 * never carry a token, password or environment ID.
 */
public final class CliException extends RuntimeException {
    /** Exit codes scripts can rely on. */
    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int USAGE = 2;
    public static final int AUTH = 3;

    private final int exitCode;

    public CliException(int exitCode, String message) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    public static CliException usage(String message) {
        return new CliException(USAGE, message);
    }

    public static CliException auth(String message) {
        return new CliException(AUTH, message);
    }

    public static CliException failed(String message) {
        return new CliException(FAILED, message);
    }

    public int exitCode() {
        return exitCode;
    }
}
