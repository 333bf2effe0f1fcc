package io.pylon.core.broadcast;

import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * Why a pod has no answer in the aggregate: the HTTP status it stands for and a message for people. Never carries
 * the request's Authorization value.
 */
public record PodFailure(int status, @Nullable String message) {

    public static PodFailure timeout(Duration timeout) {
        return new PodFailure(504, "no answer within " + timeout.toMillis() + " ms");
    }

    public static PodFailure malformed(String why) {
        return new PodFailure(502, "malformed answer: " + why);
    }

    /** A failed call: timeouts are 504, everything else on the wire (refused, reset, closed, garbled) 502. */
    public static PodFailure of(Throwable t, Duration timeout) {
        for (Throwable cause = t; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SocketTimeoutException || cause instanceof HttpTimeoutException) {
                return timeout(timeout);
            }
            if (cause instanceof ConnectException) {
                return new PodFailure(502, "connection refused");
            }
        }
        if (t instanceof IOException || t instanceof UncheckedIOException) {
            return new PodFailure(502, "connection failed: " + describe(t));
        }
        return new PodFailure(502, "call failed: " + describe(t));
    }

    private static String describe(Throwable t) {
        Throwable root = t;
        for (Throwable cause = root.getCause(); cause != null && cause != root; cause = root.getCause()) {
            root = cause;
        }
        String message = root.getMessage();
        return message == null || message.isBlank() ? root.getClass().getSimpleName()
                : root.getClass().getSimpleName() + ": " + (message.length() > 200 ? message.substring(0, 200) : message);
    }
}
