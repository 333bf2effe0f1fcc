package io.pylon.core.diagnostics;

/**
 * A diagnostics call that the pod refuses for a reason of state rather than form: 409 when a flight recording is
 * running already, 404 for an unknown recording, 507 when the disk is too full. Answered with its status, an error
 * code and the message.
 */
public final class DiagnosticsRefusedException extends RuntimeException {
    private final int status;
    private final String error;

    public DiagnosticsRefusedException(int status, String error, String message) {
        super(message);
        this.status = status;
        this.error = error;
    }

    public int status() {
        return status;
    }

    public String error() {
        return error;
    }
}
