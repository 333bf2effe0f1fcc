package io.pylon.manager.api;

import io.helidon.http.Status;

/** A request the API refuses, with the status and the {@code {error, error_description}} to answer. */
public final class ApiException extends RuntimeException {
    private final transient Status status;
    private final String error;

    public ApiException(Status status, String error, String description) {
        super(description, null, false, false);
        this.status = status;
        this.error = error;
    }

    public static ApiException badRequest(String description) {
        return new ApiException(Status.BAD_REQUEST_400, "invalid_request", description);
    }

    public static ApiException notFound(String description) {
        return new ApiException(Status.NOT_FOUND_404, "not_found", description);
    }

    public static ApiException conflict(String description) {
        return new ApiException(Status.CONFLICT_409, "conflict", description);
    }

    public Status status() {
        return status;
    }

    public String error() {
        return error;
    }
}
