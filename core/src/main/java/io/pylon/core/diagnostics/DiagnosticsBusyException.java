package io.pylon.core.diagnostics;

/** The pod is already building as many heavy answers as it allows: the caller should retry later (429). */
public final class DiagnosticsBusyException extends RuntimeException {
    private final int retryAfterSeconds;

    public DiagnosticsBusyException(String message, int retryAfterSeconds) {
        super(message, null, false, false);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** The value of the {@code Retry-After} header. */
    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
