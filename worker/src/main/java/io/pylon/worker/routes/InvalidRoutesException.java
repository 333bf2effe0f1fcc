package io.pylon.worker.routes;

/** A routes file that cannot be used; the message names the route and the field. */
public final class InvalidRoutesException extends Exception {
    public InvalidRoutesException(String message) {
        super(message);
    }
}
