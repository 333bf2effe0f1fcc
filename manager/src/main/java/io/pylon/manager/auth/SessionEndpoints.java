package io.pylon.manager.auth;

import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.Json;
import io.pylon.core.http.Routes;
import io.pylon.manager.api.ApiException;
import io.pylon.manager.api.Principal;
import io.pylon.manager.api.RequestBodies;
import io.pylon.manager.api.Secured;
import io.pylon.manager.api.SourceAddress;
import io.pylon.manager.audit.AuditLog;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * {@code POST /apiops/auth/revoke} (RFC 7009: form field {@code token}; 200 whether or not the token was known, so
 * the endpoint reveals nothing; a user revokes own tokens, an admin any) and {@code GET /apiops/auth/me}.
 */
public final class SessionEndpoints {
    private final Accounts accounts;
    private final TokenService tokens;
    private final AuditLog audit;
    private final Clock clock;

    public SessionEndpoints(Accounts accounts, TokenService tokens, AuditLog audit, Clock clock) {
        this.accounts = accounts;
        this.tokens = tokens;
        this.audit = audit;
        this.clock = clock;
    }

    public void register(Routes routes, Secured secured) {
        routes.post("/apiops/auth/revoke", secured.viewer(this::revoke));
        routes.get("/apiops/auth/me", secured.viewer(this::me));
    }

    private void revoke(ServerRequest req, ServerResponse res, Principal principal) {
        Map<String, String> form = RequestBodies.form(req);
        String value = form.get("token");
        if (value == null || value.isEmpty()) {
            throw ApiException.badRequest("Missing form field 'token'.");
        }
        Optional<StoredToken> token = tokens.find(value);
        if (token.isPresent() && (token.get().username().equals(principal.username()) || principal.isAdmin())) {
            if (tokens.revoke(token.get().id())) {
                audit.record(principal.username(), "token.revoked", "token:" + token.get().id(),
                        SourceAddress.of(req), "success");
            }
        }
        Json.send(res, Status.OK_200, Map.of());
    }

    private void me(ServerRequest req, ServerResponse res, Principal principal) {
        User user = accounts.find(principal.username())
                .orElseThrow(() -> ApiException.notFound("The account of this token no longer exists."));
        Json.send(res, user.toJson(clock.instant()));
    }
}
