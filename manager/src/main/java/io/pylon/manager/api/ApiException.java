package io.pylon.manager.api;

import org.jspecify.annotations.Nullable;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.ErrorBody;

import java.time.Duration;

/** A request the API refuses, with the status and the {@code {error, error_description}} to answer. */
public final class ApiException extends RuntimeException {
    private final transient Status status;
    private final String error;
    private final transient @Nullable Duration retryAfter;
    private final @Nullable String field;

    public ApiException(Status status, String error, String description) {
        this(status, error, description, null, null);
    }

    private ApiException(Status status, String error, String description, @Nullable Duration retryAfter,
                         @Nullable String field) {
        super(description, null, false, false);
        this.status = status;
        this.error = error;
        this.retryAfter = retryAfter;
        this.field = field;
    }

    /** 400 about one field of the body or one parameter, named in the description and in {@code details.field}. */
    public static ApiException badField(String field, String description) {
        return new ApiException(Status.BAD_REQUEST_400, "invalid_request", description, null, field);
    }

    /** A refusal about one field (its name in {@code details.field}, for a form to show it there); any status. */
    public static ApiException aboutField(Status status, String error, String description, @Nullable String field) {
        return new ApiException(status, error, description, null, field);
    }

    /** A refusal that passes (overload, throttling): answered with {@code Retry-After} in whole seconds. */
    public static ApiException retryLater(Status status, String error, String description, Duration retryAfter) {
        return new ApiException(status, error, description, retryAfter, null);
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

    /** Seconds for {@code Retry-After} (at least 1), or null when the request should not simply be repeated. */
    public @Nullable Long retryAfterSeconds() {
        return retryAfter == null ? null : Math.max(1, (retryAfter.toMillis() + 999) / 1000);
    }

    /** Answers the refusal: {@code {error, error_description}} with its status, and {@code Retry-After} if any. */
    public void send(ServerResponse res) {
        Long seconds = retryAfterSeconds();
        if (seconds != null) {
            res.header(HeaderNames.RETRY_AFTER, Long.toString(seconds));
        }
        if (field != null) {
            new ErrorBody(error, getMessage(), java.util.Map.of("field", field)).send(res, status);
        } else {
            ErrorBody.send(res, status, error, getMessage());
        }
    }
}
