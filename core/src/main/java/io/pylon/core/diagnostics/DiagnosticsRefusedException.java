package io.pylon.core.diagnostics;

import org.jspecify.annotations.Nullable;

/**
 * A diagnostics call that the pod refuses for a reason of state rather than form: 409 when a flight recording is
 * running already, 404 for an unknown recording, 507 when the disk is too full. Answered with its status, an error
 * code and the message.
 */
public final class DiagnosticsRefusedException extends RuntimeException {
    private final int status;
    private final String error;
    private final java.util.@Nullable Map<String, Object> details;

    public DiagnosticsRefusedException(int status, String error, String message) {
        this(status, error, message, null);
    }

    /** @param details what the JSON body carries under {@code details}; null for none */
    public DiagnosticsRefusedException(int status, String error, String message, java.util.@Nullable Map<String, Object> details) {
        super(message);
        this.status = status;
        this.error = error;
        this.details = details;
    }

    public java.util.@Nullable Map<String, Object> details() {
        return details;
    }

    public int status() {
        return status;
    }

    public String error() {
        return error;
    }
}
