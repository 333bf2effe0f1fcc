package io.pylon.manager.console;

import io.helidon.http.Status;

/** A console API request that cannot be served, with the status and the words the caller sees. */
final class ConsoleException extends RuntimeException {
    private final Status status;
    private final String error;

    ConsoleException(Status status, String error, String description) {
        super(description, null, false, false);
        this.status = status;
        this.error = error;
    }

    Status status() {
        return status;
    }

    String error() {
        return error;
    }
}
