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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What admins do with the Portal's data: list developers and approve or disable them, list subscriptions and
 * approve, suspend or revoke them; operators publish proxies to the Portal. Every change is audited and changes
 * the key set Workers check at once.
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

    private void developers(ServerRequest req, ServerResponse res, Principal principal) {
        Json.send(res, Map.of("developers", developers.list(LIST_LIMIT).stream().map(d -> Map.of("id", d.id(),
                "email", d.email(), "status", d.status(), "createdAt", d.createdAt().toString())).toList()));
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
        Json.send(res, Map.of("subscriptions", applications.allSubscriptions(LIST_LIMIT).stream().map(s -> {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("id", s.id());
            map.put("application", s.applicationId());
            map.put("developer", s.developerId());
            map.put("proxy", s.proxy());
            map.put("status", s.status());
            map.put("plan", s.plan());
            map.put("createdAt", s.createdAt().toString());
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
        audit.record(principal.username(), "proxy.published", "proxy:" + name, SourceAddress.of(req), "success");
        Json.send(res, Map.of("proxy", name, "autoApprove", autoApprove));
    }

    private void unpublish(ServerRequest req, ServerResponse res, Principal principal) {
        String name = req.path().pathParameters().get("name");
        if (!applications.unpublish(name)) {
            throw ApiException.notFound("Proxy '" + DeveloperEndpoints.printable(name) + "' is not published.");
        }
        audit.record(principal.username(), "proxy.unpublished", "proxy:" + name, SourceAddress.of(req), "success");
        res.status(Status.NO_CONTENT_204).send();
    }
}
