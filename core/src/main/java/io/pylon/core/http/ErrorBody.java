package io.pylon.core.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;
import org.jspecify.annotations.Nullable;

/**
 * The JSON error body used across Pylon: {@code {"error":"...","error_description":"..."}}, the OAuth 2.0 shape the
 * token endpoint requires, reused everywhere so that clients parse one shape. Extra fields are additive. Every error
 * answer carries {@code Cache-Control: no-store}: an error is about one request, and on the management API it may
 * name accounts or tokens; no browser or proxy may keep it. {@code request_id} is the gateway's: the identifier of the
 * proxied request its own answer is about (the Worker's {@code RequestId}), left out everywhere else.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ErrorBody(String error, @Nullable String error_description, @Nullable Object details,
                        @Nullable String request_id) {
    public static final Header NO_STORE = HeaderValues.createCached(HeaderNames.CACHE_CONTROL, "no-store");

    public ErrorBody(String error, @Nullable String error_description, @Nullable Object details) {
        this(error, error_description, details, null);
    }

    public static ErrorBody of(String error, @Nullable String description) {
        return new ErrorBody(error, description, null);
    }

    public void send(ServerResponse res, Status status) {
        res.header(NO_STORE);
        Json.send(res, status, this);
    }

    public static void send(ServerResponse res, Status status, String error, @Nullable String description) {
        of(error, description).send(res, status);
    }
}
