package io.pylon.manager.proxies;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;
import com.flipkart.zjsonpatch.JsonDiff;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.Json;
import io.pylon.core.http.Routes;
import io.pylon.gateway.model.ProxyParser;
import io.pylon.manager.api.ApiException;
import io.pylon.manager.api.Principal;
import io.pylon.manager.api.RequestBodies;
import io.pylon.manager.api.Secured;
import io.pylon.manager.api.SourceAddress;
import io.pylon.manager.audit.AuditLog;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * API proxies: everyone with a token reads them, operators and admins create, change (a new revision each time,
 * {@code If-Match} guarding against a stale base) and delete them (not while deployed).
 */
public final class ProxyEndpoints {
    /** Largest proxy definition accepted. */
    public static final int MAX_DEFINITION = 256 * 1024;
    private static final int MAX_COMMENT = 1000;

    private final ProxyStore store;
    /** Where a proxy is deployed now, environment -> revision (the deployments package answers it). */
    private final Function<String, Map<String, Integer>> deployments;
    private final ProxyDefinitions definitions;
    private final OpenApiImport openApi;
    private final AuditLog audit;
    private final Clock clock;

    public ProxyEndpoints(ProxyStore store, Function<String, Map<String, Integer>> deployments, ProxyDefinitions definitions,
                          OpenApiImport openApi, AuditLog audit, Clock clock) {
        this.store = store;
        this.deployments = deployments;
        this.definitions = definitions;
        this.openApi = openApi;
        this.audit = audit;
        this.clock = clock;
    }

    public void register(Routes routes, Secured secured) {
        routes.get("/apiops/proxies", secured.viewer(this::list));
        routes.post("/apiops/proxies", secured.operator(this::create));
        routes.post("/apiops/proxies/import", secured.operator(this::importOpenApi));
        routes.get("/apiops/proxies/{name}", secured.viewer(this::read));
        routes.put("/apiops/proxies/{name}", secured.operator(this::replace));
        routes.delete("/apiops/proxies/{name}", secured.operator(this::delete));
        routes.get("/apiops/proxies/{name}/revisions", secured.viewer(this::revisions));
        routes.get("/apiops/proxies/{name}/revisions/{revision}", secured.viewer(this::revision));
        routes.get("/apiops/proxies/{name}/diff", secured.viewer(this::diff));
    }

    private void list(ServerRequest req, ServerResponse res, Principal principal) {
        Json.send(res, Map.of("proxies", store.list().stream().map(r -> summary(r)).toList()));
    }

    private static Map<String, Object> summary(ProxyRevision r) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("name", r.name());
        map.put("revision", r.revision());
        map.put("pathPrefix", r.definition().path("pathPrefix").asText(null));
        map.put("description", r.definition().path("description").asText(null));
        map.put("updatedAt", r.createdAt().toString());
        map.put("updatedBy", r.author());
        map.put("definition", r.definition());
        return map;
    }

    private void read(ServerRequest req, ServerResponse res, Principal principal) {
        ProxyRevision latest = require(name(req));
        send(res, Status.OK_200, latest);
    }

    private void send(ServerResponse res, Status status, ProxyRevision latest) {
        Map<String, Object> body = summary(latest);
        body.put("comment", latest.comment());
        body.put("createdAt", store.createdAt(latest.name()).map(Object::toString).orElse(null));
        body.put("hasOpenApi", latest.openapi() != null);
        body.put("deployments", deployments.apply(latest.name()));
        res.header(HeaderNames.ETAG, "\"" + latest.revision() + "\"");
        Json.send(res, status, body);
    }

    private void create(ServerRequest req, ServerResponse res, Principal principal) {
        JsonNode definition = definitions.validate(RequestBodies.document(req, MAX_DEFINITION));
        String name = definition.get("name").asText();
        ProxyStore.Change change = store.create(name, definition, null, principal.username(), comment(req),
                clock.instant());
        if (change instanceof ProxyStore.Exists) {
            audit.record(principal.username(), "proxy.created", "proxy:" + name, SourceAddress.of(req), "conflict");
            throw ApiException.conflict("A proxy named '" + name + "' already exists; change it with PUT "
                    + "/apiops/proxies/" + name + ".");
        }
        audit.record(principal.username(), "proxy.created", "proxy:" + name, SourceAddress.of(req), "success");
        res.header(HeaderNames.LOCATION, "/apiops/proxies/" + name);
        send(res, Status.CREATED_201, ((ProxyStore.Written) change).revision());
    }

    private void replace(ServerRequest req, ServerResponse res, Principal principal) {
        String name = name(req);
        Integer expected = ifMatch(req);
        JsonNode definition = definitions.validate(RequestBodies.document(req, MAX_DEFINITION));
        if (!definition.get("name").asText().equals(name)) {
            throw ApiException.badRequest("Proxy '" + name + "': field 'name' is '" + definition.get("name").asText()
                    + "'; a proxy is not renamed (create the new name, delete the old).");
        }
        Optional<ProxyRevision> current = store.latest(name);
        String openapi = current.map(ProxyRevision::openapi).orElse(null);
        ProxyStore.Change change = store.update(name, expected, definition, openapi, principal.username(),
                comment(req), clock.instant());
        switch (change) {
            case ProxyStore.NotFound n -> throw ApiException.notFound("No proxy named '" + name + "'.");
            case ProxyStore.Stale stale -> {
                audit.record(principal.username(), "proxy.updated", "proxy:" + name, SourceAddress.of(req), "stale");
                res.header(HeaderNames.ETAG, "\"" + stale.current() + "\"");
                throw new ApiException(Status.PRECONDITION_FAILED_412, "stale_revision", "Proxy '" + name
                        + "' is at revision " + stale.current() + ", not " + expected + " (If-Match): someone changed "
                        + "it meanwhile; read it again and reapply your change.");
            }
            case ProxyStore.Written written -> {
                audit.record(principal.username(), "proxy.updated", "proxy:" + name, SourceAddress.of(req), "success");
                send(res, Status.OK_200, written.revision());
            }
            case ProxyStore.Exists e -> throw new IllegalStateException("update never reports Exists");
        }
    }

    private void importOpenApi(ServerRequest req, ServerResponse res, Principal principal) {
        OpenApiImport.Imported imported = openApi.read(req);
        JsonNode definition = definitions.validate(imported.definition());
        String name = definition.get("name").asText();
        Optional<ProxyRevision> current = store.latest(name);
        ProxyStore.Change change = current.isEmpty()
                ? store.create(name, definition, imported.document(), principal.username(), imported.comment(), clock.instant())
                : store.update(name, current.get().revision(), definition, imported.document(), principal.username(),
                imported.comment(), clock.instant());
        if (!(change instanceof ProxyStore.Written written)) {
            throw ApiException.conflict("Proxy '" + name + "' changed while it was imported; import again.");
        }
        audit.record(principal.username(), "proxy.imported", "proxy:" + name, SourceAddress.of(req), "success");
        res.header(HeaderNames.LOCATION, "/apiops/proxies/" + name);
        send(res, current.isEmpty() ? Status.CREATED_201 : Status.OK_200, written.revision());
    }

    private void delete(ServerRequest req, ServerResponse res, Principal principal) {
        String name = name(req);
        require(name);
        Map<String, Integer> deployed = deployments.apply(name);
        if (!deployed.isEmpty()) {
            throw ApiException.conflict("Proxy '" + name + "' is deployed to " + String.join(", ", deployed.keySet())
                    + "; undeploy it first (POST /apiops/environments/{env}/deployments with \"undeploy\").");
        }
        store.delete(name);
        audit.record(principal.username(), "proxy.deleted", "proxy:" + name, SourceAddress.of(req), "success");
        res.status(Status.NO_CONTENT_204).send();
    }

    private void revisions(ServerRequest req, ServerResponse res, Principal principal) {
        String name = name(req);
        require(name);
        Json.send(res, Map.of("name", name, "revisions", store.revisions(name).stream()
                .map(r -> r.toJson(false)).toList()));
    }

    private void revision(ServerRequest req, ServerResponse res, Principal principal) {
        String name = name(req);
        int number = number(req.path().pathParameters().get("revision"), "revision");
        ProxyRevision revision = store.revision(name, number).orElseThrow(() -> ApiException.notFound(
                "Proxy '" + name + "' has no revision " + number + "."));
        res.header(HeaderNames.ETAG, "\"" + revision.revision() + "\"");
        Json.send(res, revision.toJson(true));
    }

    private void diff(ServerRequest req, ServerResponse res, Principal principal) {
        String name = name(req);
        ProxyRevision latest = require(name);
        int from = number(req.query().first("from").orElse(null), "from");
        int to = req.query().first("to").isPresent() ? number(req.query().first("to").get(), "to") : latest.revision();
        JsonNode a = store.revision(name, from).orElseThrow(() -> ApiException.notFound("Proxy '" + name
                + "' has no revision " + from + " (query parameter 'from').")).definition();
        JsonNode b = store.revision(name, to).orElseThrow(() -> ApiException.notFound("Proxy '" + name
                + "' has no revision " + to + " (query parameter 'to').")).definition();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("from", from);
        body.put("to", to);
        body.put("patch", JsonDiff.asJson(a, b));
        Json.send(res, body);
    }

    private ProxyRevision require(String name) {
        return store.latest(name).orElseThrow(() -> ApiException.notFound("No proxy named '" + name + "'."));
    }

    /** The path's proxy name, refused (400, not 404) when it could never be one. */
    static String name(ServerRequest req) {
        String name = req.path().pathParameters().get("name");
        if (name == null || !ProxyParser.NAME.matcher(name).matches()) {
            throw ApiException.badRequest("The proxy name in the path is not a name: 1 to 64 letters, digits, '.', "
                    + "'_' or '-', starting with a letter or digit.");
        }
        return name;
    }

    static int number(String text, String parameter) {
        if (text == null) {
            throw ApiException.badRequest("Missing parameter '" + parameter + "' (a revision number).");
        }
        try {
            int value = Integer.parseInt(text);
            if (value >= 1) {
                return value;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw ApiException.badRequest("Parameter '" + parameter + "' must be a revision number (1 or more).");
    }

    private static @Nullable Integer ifMatch(ServerRequest req) {
        Optional<String> header = req.headers().first(HeaderNames.IF_MATCH);
        if (header.isEmpty() || header.get().strip().equals("*")) {
            return null;
        }
        String value = header.get().strip();
        if (value.startsWith("W/")) {
            value = value.substring(2);
        }
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            value = value.substring(1, value.length() - 1);
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("Header 'If-Match' must be a revision in quotes, such as \"3\".");
        }
    }

    static String comment(ServerRequest req) {
        String comment = req.query().first("comment").orElse("");
        if (comment.length() > MAX_COMMENT || comment.chars().anyMatch(c -> c < 0x20 && c != '\t')) {
            throw ApiException.badRequest("Parameter 'comment' must be at most " + MAX_COMMENT
                    + " characters without control characters.");
        }
        return comment;
    }
}
