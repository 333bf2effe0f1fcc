package io.pylon.manager.api;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.ErrorBody;

import java.util.Optional;

/**
 * The Bearer check of every {@code /apiops/**} endpoint (RFC 6750). Without credentials: 401 with
 * {@code WWW-Authenticate: Bearer realm="pylon"}; with a token that is unknown, expired, revoked or whose account is
 * disabled: 401 with {@code error="invalid_token"}; with a role below the minimum: 403 with
 * {@code error="insufficient_scope"}. On failure the response is already written.
 */
public final class BearerAuth {
    public static final String REALM = "pylon";
    private static final String PREFIX = "bearer ";

    private final TokenAuthenticator tokens;

    public BearerAuth(TokenAuthenticator tokens) {
        this.tokens = tokens;
    }

    public Optional<Principal> require(ServerRequest req, ServerResponse res, Role minimum) {
        Optional<String> header = req.headers().first(HeaderNames.AUTHORIZATION);
        if (header.isEmpty() || !header.get().regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            res.header(HeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"" + REALM + "\"");
            ErrorBody.send(res, Status.UNAUTHORIZED_401, "unauthorized",
                    "This endpoint requires the header Authorization: Bearer <token>.");
            return Optional.empty();
        }
        String value = header.get().substring(PREFIX.length()).strip();
        Optional<Principal> principal = tokens.authenticate(value);
        if (principal.isEmpty()) {
            res.header(HeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"" + REALM
                    + "\", error=\"invalid_token\", error_description=\"The token is unknown, expired or revoked\"");
            ErrorBody.send(res, Status.UNAUTHORIZED_401, "invalid_token",
                    "The access token is unknown, expired or revoked, or its account is disabled.");
            return Optional.empty();
        }
        if (!principal.get().role().allows(minimum)) {
            res.header(HeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"" + REALM
                    + "\", error=\"insufficient_scope\", error_description=\"Requires the " + minimum.wireName() + " role\"");
            ErrorBody.send(res, Status.FORBIDDEN_403, "insufficient_scope",
                    "This action requires the " + minimum.wireName() + " role.");
            return Optional.empty();
        }
        return principal;
    }
}
