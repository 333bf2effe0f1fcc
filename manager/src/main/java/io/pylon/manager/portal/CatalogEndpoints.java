package io.pylon.manager.portal;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.Json;
import io.pylon.core.http.Routes;
import io.pylon.manager.api.ApiException;
import io.pylon.manager.api.Principal;
import io.pylon.manager.api.Secured;
import io.pylon.manager.environments.Environment;
import io.pylon.manager.environments.EnvironmentStore;
import io.pylon.manager.proxies.ProxyRevision;
import io.pylon.manager.proxies.ProxyStore;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The Portal's catalog (role {@code portal}): the proxies published to the Portal that are deployed in the given
 * environment, each at the revision deployed there, with its description and OpenAPI document. A proxy that is not
 * both published and deployed there answers 404.
 */
public final class CatalogEndpoints {
    private final ApplicationStore applications;
    private final ProxyStore proxies;
    private final Function<String, Map<String, Integer>> deployedRevisions;
    private final EnvironmentStore environments;

    public CatalogEndpoints(ApplicationStore applications, ProxyStore proxies,
                            Function<String, Map<String, Integer>> deployedRevisions, EnvironmentStore environments) {
        this.applications = applications;
        this.proxies = proxies;
        this.deployedRevisions = deployedRevisions;
        this.environments = environments;
    }

    public void register(Routes routes, Secured secured) {
        routes.get("/apiops/portal/catalog", secured.portal(this::list));
        routes.get("/apiops/portal/catalog/{name}", secured.portal(this::read));
    }

    private Environment environment(ServerRequest req) {
        String name = req.query().first("environment").orElseThrow(() ->
                ApiException.badRequest("Missing parameter 'environment'."));
        return environments.find(name).orElseThrow(() -> ApiException.notFound("No environment '"
                + DeveloperEndpoints.printable(name) + "'."));
    }

    private Optional<ProxyRevision> deployed(String proxy, String environment) {
        Integer revision = deployedRevisions.apply(proxy).get(environment);
        return revision == null ? Optional.empty() : proxies.revision(proxy, revision);
    }

    private void list(ServerRequest req, ServerResponse res, Principal portal) {
        Environment environment = environment(req);
        List<Map<String, Object>> apis = new ArrayList<>();
        for (Map.Entry<String, Boolean> published : applications.publications().entrySet()) {
            deployed(published.getKey(), environment.name()).ifPresent(r ->
                    apis.add(summary(r, published.getValue(), environment)));
        }
        Json.send(res, Map.of("apis", apis, "workerUrl", new HashMap<>(environment.urls()).getOrDefault("worker", "")));
    }

    private void read(ServerRequest req, ServerResponse res, Principal portal) {
        Environment environment = environment(req);
        String name = req.path().pathParameters().get("name");
        Boolean autoApprove = applications.publication(name).orElse(null);
        ProxyRevision revision = autoApprove == null ? null : deployed(name, environment.name()).orElse(null);
        if (autoApprove == null || revision == null) {
            throw ApiException.notFound("No published API '" + DeveloperEndpoints.printable(name) + "' here.");
        }
        Map<String, Object> body = summary(revision, autoApprove, environment);
        body.put("openapi", revision.openapi());
        body.put("tryItDocument", revision.openapi() == null ? null : TryItDocument.rewrite(revision.openapi(),
                publicBase(revision, body.get("workerUrl").toString()),
                revision.definition().has("keyAuth") ? body.get("keyHeader").toString() : null));
        Json.send(res, body);
    }

    // the documented paths are the upstream's; through the Worker they sit under the prefix when it is stripped or
    // rewritten, and are the public paths themselves when the prefix passes through unchanged
    private static String publicBase(ProxyRevision r, String workerUrl) {
        String worker = workerUrl.endsWith("/") ? workerUrl.substring(0, workerUrl.length() - 1) : workerUrl;
        JsonNode definition = r.definition();
        boolean moved = definition.path("stripPrefix").asBoolean(false) || definition.hasNonNull("rewritePrefix");
        String prefix = definition.path("pathPrefix").asText("");
        return moved && !prefix.equals("/") ? worker + (prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1)
                : prefix) : worker;
    }

    private static Map<String, Object> summary(ProxyRevision r, boolean autoApprove, Environment environment) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("name", r.name());
        map.put("revision", r.revision());
        map.put("description", r.definition().path("description").asText(""));
        map.put("pathPrefix", r.definition().path("pathPrefix").asText(""));
        map.put("keyAuth", r.definition().has("keyAuth"));
        map.put("keyHeader", r.definition().path("keyAuth").path("header").asText("X-API-Key"));
        map.put("autoApprove", autoApprove);
        map.put("hasOpenApi", r.openapi() != null);
        map.put("workerUrl", new HashMap<>(environment.urls()).getOrDefault("worker", ""));
        return map;
    }
}
