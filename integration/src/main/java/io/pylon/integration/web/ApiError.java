package io.pylon.integration.web;

import org.jspecify.annotations.Nullable;

import io.helidon.http.Status;

/** An answer other than success: its status, error code and a description naming the problem. */
final class ApiError extends RuntimeException {
    final Status status;
    final String code;
    final transient @Nullable Object details;

    ApiError(Status status, String code, String description) {
        this(status, code, description, null);
    }

    ApiError(Status status, String code, String description, @Nullable Object details) {
        super(description, null, false, false);
        this.status = status;
        this.code = code;
        this.details = details;
    }

    static ApiError badRequest(String description) {
        return new ApiError(Status.BAD_REQUEST_400, "invalid_request", description);
    }

    static ApiError notFound(String description) {
        return new ApiError(Status.NOT_FOUND_404, "not_found", description);
    }
}
