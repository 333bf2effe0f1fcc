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
import java.util.regex.Pattern;

/**
 * Plans and the plan of a subscription: admins define plans (for one proxy or for any) and give them to
 * subscriptions; Workers enforce a subscription's plan on the Cache's counters. Every change is audited and reaches
 * the Workers with the key set.
 */
public final class PlanEndpoints {
    static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");
    static final int MAX_REQUESTS = 1_000_000;
    static final int MAX_PLANS = 1000;

    private final PlanStore plans;
    private final ApplicationStore applications;
    private final ProxyStore proxies;
    private final KeySetWatch keys;
    private final AuditLog audit;
    private final Clock clock;

    public PlanEndpoints(PlanStore plans, ApplicationStore applications, ProxyStore proxies, KeySetWatch keys,
                         AuditLog audit, Clock clock) {
        this.plans = plans;
        this.applications = applications;
        this.proxies = proxies;
        this.keys = keys;
        this.audit = audit;
        this.clock = clock;
    }

    public void register(Routes routes, Secured secured) {
        routes.get("/apiops/plans", secured.viewer(this::list));
        routes.put("/apiops/plans/{name}", secured.admin(this::put));
        routes.delete("/apiops/plans/{name}", secured.admin(this::delete));
        routes.put("/apiops/subscriptions/{id}/plan", secured.admin(this::assign));
    }

    private void list(ServerRequest req, ServerResponse res, Principal principal) {
        Json.send(res, Map.of("plans", plans.list().stream().map(Plan::toJson).toList()));
    }

    private static String name(ServerRequest req) {
        String name = req.path().pathParameters().get("name");
        if (!NAME.matcher(name).matches()) {
            throw ApiException.badRequest("A plan's name is 1 to 64 lower-case letters, digits and '-', starting with a "
                    + "letter or digit.");
        }
        return name;
    }

    private void put(ServerRequest req, ServerResponse res, Principal principal) {
        String name = name(req);
        ObjectNode body = RequestBodies.jsonObject(req);
        RequestBodies.onlyFields(body, Set.of("requests", "per", "proxy"));
        JsonNode requests = body.get("requests");
        if (requests == null || !requests.canConvertToInt() || !requests.isIntegralNumber() || requests.asInt() < 1
                || requests.asInt() > MAX_REQUESTS) {
            throw ApiException.badField("requests", "The field 'requests' must be a whole number from 1 to "
                    + MAX_REQUESTS + ".");
        }
        String per = RequestBodies.text(body, "per");
        if (per == null || !"second".equals(per) && !"minute".equals(per)) {
            throw ApiException.badField("per", "The field 'per' must be 'second' or 'minute'.");
        }
        String proxy = RequestBodies.text(body, "proxy");
        if (proxy != null && proxies.latest(proxy).isEmpty()) {
            throw ApiException.aboutField(Status.BAD_REQUEST_400, "invalid_request", "No proxy named '"
                    + DeveloperEndpoints.printable(proxy) + "'.", "proxy");
        }
        if (proxy != null && plans.holdersOutside(name, proxy) > 0) {
            throw ApiException.conflict("Plan '" + name + "' is held by subscriptions of other proxies than '" + proxy
                    + "'; give them another plan first.");
        }
        boolean exists = plans.find(name).isPresent();
        if (!exists && plans.list().size() >= MAX_PLANS) {
            throw ApiException.conflict("There are at most " + MAX_PLANS + " plans.");
        }
        Plan plan = new Plan(name, requests.asInt(), per, proxy);
        boolean created = plans.put(plan, clock.instant());
        keys.changed();
        audit.record(principal.username(), created ? "plan.created" : "plan.changed", "plan:" + name,
                SourceAddress.of(req), "success");
        Json.send(res, created ? Status.CREATED_201 : Status.OK_200, plan.toJson());
    }

    private void delete(ServerRequest req, ServerResponse res, Principal principal) {
        String name = name(req);
        if (plans.find(name).isEmpty()) {
            throw ApiException.notFound("No plan '" + name + "'.");
        }
        int holders = plans.holders(name);
        if (holders > 0) {
            throw ApiException.conflict("Plan '" + name + "' is held by " + holders + " subscription(s); give them "
                    + "another plan first.");
        }
        plans.delete(name);
        keys.changed();
        audit.record(principal.username(), "plan.deleted", "plan:" + name, SourceAddress.of(req), "success");
        res.status(Status.NO_CONTENT_204).send();
    }

    private void assign(ServerRequest req, ServerResponse res, Principal principal) {
        String id = req.path().pathParameters().get("id");
        ObjectNode body = RequestBodies.jsonObject(req);
        RequestBodies.onlyFields(body, Set.of("plan"));
        if (!body.has("plan")) {
            throw ApiException.badField("plan", "The field 'plan' is required: a plan's name, or null for none.");
        }
        String planName = RequestBodies.text(body, "plan");
        ApplicationStore.Subscription subscription = applications.subscription(id).orElseThrow(() ->
                ApiException.notFound("No subscription '" + DeveloperEndpoints.printable(id) + "'."));
        if (planName != null) {
            Plan plan = plans.find(planName).orElseThrow(() -> ApiException.badField("plan", "No plan '"
                    + DeveloperEndpoints.printable(planName) + "'."));
            if (plan.proxy() != null && !plan.proxy().equals(subscription.proxy())) {
                throw ApiException.badField("plan", "Plan '" + planName + "' is for proxy '" + plan.proxy()
                        + "', not '" + subscription.proxy() + "'.");
            }
        }
        if (!plans.assign(id, planName, clock.instant())) {
            throw ApiException.notFound("No subscription '" + DeveloperEndpoints.printable(id) + "'.");
        }
        keys.changed();
        audit.record(principal.username(), "subscription.plan-changed", "subscription:" + id, SourceAddress.of(req),
                planName == null ? "none" : planName);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("id", id);
        answer.put("proxy", subscription.proxy());
        answer.put("plan", planName);
        Json.send(res, answer);
    }
}
