package io.pylon.manager.portal;

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
import io.pylon.manager.proxies.ProxyStore;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What admins do with the Portal's data: list developers (all or of one status) and approve or disable them, list
 * subscriptions (all or of one status) and approve, suspend or revoke them; operators publish proxies to the Portal
 * and choose whether their subscriptions need approval. Every change is audited and changes the key set Workers
 * check at once (a publication too: it decides which proxies admit the Portal's origin).
 */
public final class PortalAdminEndpoints {
    private static final int LIST_LIMIT = 1000;
    private static final Map<String, String> DEVELOPER_ACTIONS = Map.of("approve", "active", "disable", "disabled");
    private static final Map<String, String> SUBSCRIPTION_ACTIONS = Map.of("approve", "active", "suspend", "suspended",
            "revoke", "revoked");

    private final DeveloperStore developers;
    private final ApplicationStore applications;
    private final ProxyStore proxies;
    private final KeySetWatch keys;
    private final AuditLog audit;
    private final Clock clock;

    public PortalAdminEndpoints(DeveloperStore developers, ApplicationStore applications, ProxyStore proxies,
                                KeySetWatch keys, AuditLog audit, Clock clock) {
        this.developers = developers;
        this.applications = applications;
        this.proxies = proxies;
        this.keys = keys;
        this.audit = audit;
        this.clock = clock;
    }

    public void register(Routes routes, Secured secured) {
        routes.get("/apiops/developers", secured.admin(this::developers));
        routes.post("/apiops/developers/{id}/{action}", secured.admin(this::developerAction));
        routes.get("/apiops/subscriptions", secured.admin(this::subscriptions));
        routes.post("/apiops/subscriptions/{id}/{action}", secured.admin(this::subscriptionAction));
        routes.get("/apiops/publications", secured.viewer(this::publications));
        routes.put("/apiops/publications/{name}", secured.operator(this::publish));
        routes.delete("/apiops/publications/{name}", secured.operator(this::unpublish));
    }

    private static final Set<String> DEVELOPER_STATUSES = Set.of("pending", "active", "disabled");
    private static final Set<String> SUBSCRIPTION_STATUSES = Set.of("pending", "active", "suspended", "revoked");

    private void developers(ServerRequest req, ServerResponse res, Principal principal) {
        String status = statusFilter(req, DEVELOPER_STATUSES);
        Map<String, int[]> holdings = applications.holdings();
        Instant now = clock.instant();
        Json.send(res, Map.of("developers", developers.list(status, LIST_LIMIT).stream().map(d -> {
            int[] held = holdings.getOrDefault(d.id(), new int[2]);
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("id", d.id());
            map.put("email", d.email());
            map.put("status", d.status());
            map.put("locked", d.lockedAt(now));
            map.put("applications", held[0]);
            map.put("liveKeys", held[1]);
            map.put("createdAt", d.createdAt().toString());
            return map;
        }).toList()));
    }

    /** The {@code status} query parameter: null for all, else one of {@code allowed} (400 otherwise). */
    private static String statusFilter(ServerRequest req, Set<String> allowed) {
        String status = req.query().first("status").orElse(null);
        if (status == null || status.isEmpty()) {
            return null;
        }
        if (!allowed.contains(status)) {
            throw ApiException.badField("status", "Parameter 'status' must be one of " + new TreeSet<>(allowed) + ".");
        }
        return status;
    }

    private void developerAction(ServerRequest req, ServerResponse res, Principal principal) {
        String id = req.path().pathParameters().get("id");
        String status = action(req, DEVELOPER_ACTIONS);
        if (!developers.setStatus(id, status, clock.instant())) {
            throw ApiException.notFound("No developer '" + DeveloperEndpoints.printable(id) + "'.");
        }
        if (!status.equals("active")) {
            developers.deleteSessionsOf(id);
        }
        applications.bumpVersion();
        keys.changed();
        audit.record(principal.username(), "developer." + status, "developer:" + id, SourceAddress.of(req), "success");
        Json.send(res, Map.of("id", id, "status", status));
    }

    private void subscriptions(ServerRequest req, ServerResponse res, Principal principal) {
        String status = statusFilter(req, SUBSCRIPTION_STATUSES);
        Json.send(res, Map.of("subscriptions", applications.allSubscriptions(status, LIST_LIMIT).stream().map(s -> {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("id", s.id());
            map.put("application", s.applicationId());
            map.put("applicationName", s.applicationName());
            map.put("developer", s.developerId());
            map.put("developerEmail", s.developerEmail());
            map.put("proxy", s.proxy());
            map.put("status", s.status());
            map.put("plan", s.plan());
            map.put("createdAt", s.createdAt().toString());
            map.put("updatedAt", s.updatedAt().toString());
            return map;
        }).toList()));
    }

    private void subscriptionAction(ServerRequest req, ServerResponse res, Principal principal) {
        String id = req.path().pathParameters().get("id");
        String status = action(req, SUBSCRIPTION_ACTIONS);
        ApplicationStore.Subscription subscription = applications.subscription(id).orElseThrow(() ->
                ApiException.notFound("No subscription '" + DeveloperEndpoints.printable(id) + "'."));
        if (subscription.status().equals("revoked")) {
            throw ApiException.conflict("Subscription '" + id + "' is revoked; a revoked subscription stays revoked.");
        }
        applications.setSubscriptionStatus(id, status, clock.instant());
        keys.changed();
        audit.record(principal.username(), "subscription." + status, "subscription:" + id, SourceAddress.of(req),
                "success");
        Json.send(res, Map.of("id", id, "status", status));
    }

    private static String action(ServerRequest req, Map<String, String> actions) {
        String action = req.path().pathParameters().get("action");
        String status = actions.get(action);
        if (status == null) {
            throw ApiException.notFound("No action '" + DeveloperEndpoints.printable(action) + "'; one of "
                    + Set.copyOf(actions.keySet()) + ".");
        }
        return status;
    }

    private void publications(ServerRequest req, ServerResponse res, Principal principal) {
        Json.send(res, Map.of("publications", applications.publications().entrySet().stream()
                .map(e -> Map.of("proxy", e.getKey(), "autoApprove", e.getValue())).toList()));
    }

    private void publish(ServerRequest req, ServerResponse res, Principal principal) {
        String name = req.path().pathParameters().get("name");
        ObjectNode body = RequestBodies.jsonObject(req);
        RequestBodies.onlyFields(body, Set.of("autoApprove"));
        JsonNode auto = body.get("autoApprove");
        if (auto != null && !auto.isBoolean()) {
            throw ApiException.badField("autoApprove", "The field 'autoApprove' must be true or false.");
        }
        if (proxies.latest(name).isEmpty()) {
            throw ApiException.notFound("No proxy named '" + DeveloperEndpoints.printable(name) + "'.");
        }
        boolean autoApprove = auto != null && auto.asBoolean();
        applications.publish(name, autoApprove, clock.instant());
        keys.changed();
        audit.record(principal.username(), "proxy.published", "proxy:" + name, SourceAddress.of(req), "success");
        Json.send(res, Map.of("proxy", name, "autoApprove", autoApprove));
    }

    private void unpublish(ServerRequest req, ServerResponse res, Principal principal) {
        String name = req.path().pathParameters().get("name");
        if (!applications.unpublish(name)) {
            throw ApiException.notFound("Proxy '" + DeveloperEndpoints.printable(name) + "' is not published.");
        }
        keys.changed();
        audit.record(principal.username(), "proxy.unpublished", "proxy:" + name, SourceAddress.of(req), "success");
        res.status(Status.NO_CONTENT_204).send();
    }
}
