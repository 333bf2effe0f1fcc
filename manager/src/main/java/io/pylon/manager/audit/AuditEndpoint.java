package io.pylon.manager.audit;

import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.Json;
import io.pylon.core.http.Routes;
import io.pylon.manager.api.ApiException;
import io.pylon.manager.api.Principal;
import io.pylon.manager.api.Secured;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code GET /apiops/audit?limit=100&before=<id>}, admins only: the newest events first. */
public final class AuditEndpoint {
    private static final int DEFAULT_LIMIT = 100;
    private static final int MAX_LIMIT = 1000;

    private final AuditLog audit;

    public AuditEndpoint(AuditLog audit) {
        this.audit = audit;
    }

    public void register(Routes routes, Secured secured) {
        routes.get("/apiops/audit", secured.admin(this::list));
    }

    private void list(ServerRequest req, ServerResponse res, Principal principal) {
        int limit = (int) number(req, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
        long before = number(req, "before", 0, 0, Long.MAX_VALUE);
        List<AuditEvent> events = audit.recent(limit, before);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("events", events.stream().map(AuditEndpoint::json).toList());
        body.put("next", events.size() == limit ? events.getLast().id() : null);
        Json.send(res, body);
    }

    private static Map<String, Object> json(AuditEvent e) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", e.id());
        json.put("time", e.time().toString());
        json.put("actor", e.actor());
        json.put("action", e.action());
        json.put("target", e.target());
        json.put("sourceAddress", e.sourceAddress());
        json.put("outcome", e.outcome());
        return json;
    }

    private static long number(ServerRequest req, String name, long fallback, long min, long max) {
        String raw = req.query().first(name).orElse(null);
        if (raw == null) {
            return fallback;
        }
        try {
            long value = Long.parseLong(raw);
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiException.badRequest("The query parameter '" + name + "' must be a whole number from " + min
                + " to " + max + ".");
    }
}
