package io.pylon.manager.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import org.jspecify.annotations.Nullable;

import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Personal API Access Tokens of the caller: list (never the values), create (value shown once), revoke. */
public final class PersonalTokenEndpoints {
    private static final int MAX_NAME = 100;
    /**
     * The latest expiry accepted: the last second of year 9999. Every date the API stores must fit the database
     * (PostgreSQL's timestamptz ends in year 294276, java.time's OffsetDateTime at year 999999999) and the clients
     * that read it back (ISO 8601's four-digit years, JavaScript's Date up to 275760).
     */
    static final Instant LATEST_EXPIRY = Instant.parse("9999-12-31T23:59:59Z");

    private final TokenService tokens;
    private final AuditLog audit;
    private final Clock clock;

    public PersonalTokenEndpoints(TokenService tokens, AuditLog audit, Clock clock) {
        this.tokens = tokens;
        this.audit = audit;
        this.clock = clock;
    }

    public void register(Routes routes, Secured secured) {
        routes.get("/apiops/tokens", secured.viewer(this::list));
        routes.post("/apiops/tokens", secured.viewer(this::create));
        routes.delete("/apiops/tokens/{id}", secured.viewer(this::delete));
    }

    private void list(ServerRequest req, ServerResponse res, Principal principal) {
        Instant now = clock.instant();
        Json.send(res, Map.of("tokens", tokens.listPersonal(principal.username()).stream().map(t -> t.toJson(now)).toList()));
    }

    private void create(ServerRequest req, ServerResponse res, Principal principal) {
        ObjectNode body = RequestBodies.jsonObject(req);
        RequestBodies.onlyFields(body, Set.of("name", "expiresAt"));
        String name = RequestBodies.requiredText(body, "name").strip();
        if (name.length() > MAX_NAME) {
            throw ApiException.badRequest("A token name has at most " + MAX_NAME + " characters.");
        }
        Instant expiresAt = expiresAt(body.get("expiresAt"));
        TokenService.Issued issued = tokens.createPersonalToken(principal.username(), name, expiresAt);
        audit.record(principal.username(), "token.created", "token:" + issued.id(), SourceAddress.of(req),
                expiresAt == null ? "no-expiry" : "expires=" + expiresAt);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", issued.id());
        json.put("name", name);
        json.put("createdAt", issued.createdAt().toString());
        json.put("expiresAt", expiresAt == null ? null : expiresAt.toString());
        json.put("token", issued.value());
        Json.send(res, Status.CREATED_201, json);
    }

    private @Nullable Instant expiresAt(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw ApiException.badField("expiresAt", "The field 'expiresAt' must be an ISO-8601 instant such as "
                    + "2030-01-31T00:00:00Z, or null for no expiry.");
        }
        Instant instant;
        try {
            instant = Instant.parse(node.asText());
        } catch (DateTimeParseException e) {
            throw ApiException.badField("expiresAt", "The field 'expiresAt' must be an ISO-8601 instant such as "
                    + "2030-01-31T00:00:00Z, or null for no expiry.");
        }
        if (!instant.isAfter(clock.instant())) {
            throw ApiException.badField("expiresAt", "The field 'expiresAt' must lie in the future.");
        }
        if (instant.isAfter(LATEST_EXPIRY)) {
            throw ApiException.badField("expiresAt", "The field 'expiresAt' must be at most " + LATEST_EXPIRY
                    + " (or null for no expiry).");
        }
        return instant;
    }

    private void delete(ServerRequest req, ServerResponse res, Principal principal) {
        String id = req.path().pathParameters().get("id");
        if (!tokens.revokePersonal(id, principal.username())) {
            throw ApiException.notFound("You have no personal token with ID '" + id + "'.");
        }
        audit.record(principal.username(), "token.revoked", "token:" + id, SourceAddress.of(req), "success");
        res.status(Status.NO_CONTENT_204).send();
    }
}
