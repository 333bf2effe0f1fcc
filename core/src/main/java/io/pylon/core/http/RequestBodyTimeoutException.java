package io.pylon.core.http;

import java.io.IOException;
import java.time.Duration;

/** A request body read gave up: the client sent none of the body's next bytes within the body timeout. */
public final class RequestBodyTimeoutException extends IOException {
    private static final long serialVersionUID = 1L;

    public RequestBodyTimeoutException(Duration timeout) {
        super("no request body bytes for " + timeout.toMillis() + " ms");
    }

    /** Whether {@code t} or one of its causes is a body timeout. */
    public static boolean in(Throwable t) {
        for (Throwable cause = t; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof RequestBodyTimeoutException) {
                return true;
            }
        }
        return false;
    }
}
