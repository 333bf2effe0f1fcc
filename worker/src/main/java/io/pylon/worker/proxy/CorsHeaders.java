package io.pylon.worker.proxy;

import org.jspecify.annotations.Nullable;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.gateway.model.Cors;

/** The {@code Access-Control-*} headers of a CORS policy, on preflights and on forwarded responses. Stateless. */
final class CorsHeaders {
    private CorsHeaders() {
    }

    static void preflight(Cors cors, String origin, String method, ServerRequest req, ServerResponse res) {
        origin(cors, origin, res.headers());
        res.header(HeaderNames.ACCESS_CONTROL_ALLOW_METHODS, cors.allowMethods().isEmpty() ? method
                : String.join(", ", cors.allowMethods()));
        if (!cors.allowHeaders().isEmpty()) {
            res.header(HeaderNames.ACCESS_CONTROL_ALLOW_HEADERS, String.join(", ", cors.allowHeaders()));
        }
        if (cors.maxAge() != null) {
            res.header(HeaderNames.ACCESS_CONTROL_MAX_AGE, Long.toString(cors.maxAge().toSeconds()));
        }
    }

    /** On a forwarded response: the upstream's own CORS headers are replaced by the policy's. */
    static void response(Cors cors, @Nullable String origin, ServerResponseHeaders headers) {
        headers.remove(HeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN);
        headers.remove(HeaderNames.ACCESS_CONTROL_ALLOW_CREDENTIALS);
        headers.remove(HeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS);
        if (origin == null || !cors.allowsOrigin(origin)) {
            return;
        }
        origin(cors, origin, headers);
        if (!cors.exposeHeaders().isEmpty()) {
            headers.set(HeaderValues.create(HeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS,
                    String.join(", ", cors.exposeHeaders())));
        }
    }

    private static void origin(Cors cors, String origin, ServerResponseHeaders headers) {
        boolean any = cors.allowOrigins().contains("*") && !cors.allowCredentials();
        headers.set(HeaderValues.create(HeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, any ? "*" : origin));
        if (!any) {
            headers.add(HeaderValues.create(HeaderNames.VARY, "Origin"));
        }
        if (cors.allowCredentials()) {
            headers.set(HeaderValues.create(HeaderNames.ACCESS_CONTROL_ALLOW_CREDENTIALS, "true"));
        }
    }
}
