package io.pylon.cache.client;

import org.jspecify.annotations.Nullable;

/**
 * The data grid could not answer: the client is not connected, or the operation did not complete within the
 * operation timeout. Thrown at once while disconnected, so a request thread never waits on a grid that is down.
 */
public final class GridUnavailableException extends RuntimeException {

    public GridUnavailableException(String message) {
        super(message);
    }

    public GridUnavailableException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
