package io.pylon.manager.environments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.helidon.http.HeaderNames;
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

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Environments: everyone with a token reads them (viewers without the ID), admins create, replace, delete and
 * rotate the ID. The ID is set at creation (given, to register an existing environment, or generated) and changed
 * only by rotation.
 */
public final class EnvironmentEndpoints {
    public static final List<String> TYPES = List.of("local", "development", "test", "staging", "production");
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
    private static final int MAX_DESCRIPTION = 1000;

    private final EnvironmentStore store;
    private final AuditLog audit;
    private final Clock clock;

    public EnvironmentEndpoints(EnvironmentStore store, AuditLog audit, Clock clock) {
        this.store = store;
        this.audit = audit;
        this.clock = clock;
    }

    public void register(Routes routes, Secured secured) {
        routes.get("/apiops/environments", secured.viewer(this::list));
        routes.post("/apiops/environments", secured.admin(this::create));
        routes.get("/apiops/environments/{name}", secured.viewer(this::read));
        routes.put("/apiops/environments/{name}", secured.admin(this::replace));
        routes.delete("/apiops/environments/{name}", secured.admin(this::delete));
        routes.post("/apiops/environments/{name}/rotate-id", secured.admin(this::rotate));
    }

    private void list(ServerRequest req, ServerResponse res, Principal principal) {
        Json.send(res, Map.of("environments",
                store.list().stream().map(e -> e.toJson(principal.isAdmin())).toList()));
    }

    private void read(ServerRequest req, ServerResponse res, Principal principal) {
        Json.send(res, require(req).toJson(principal.isAdmin()));
    }

    private void create(ServerRequest req, ServerResponse res, Principal principal) {
        ObjectNode body = RequestBodies.jsonObject(req);
        RequestBodies.onlyFields(body, Set.of("name", "type", "description", "environmentId", "urls"));
        String name = RequestBodies.requiredText(body, "name");
        if (!NAME.matcher(name).matches()) {
            throw ApiException.badRequest("An environment name is 1 to 63 lower-case letters, digits or '-', "
                    + "starting and ending with a letter or digit.");
        }
        String id = RequestBodies.text(body, "environmentId");
        if (id == null) {
            id = EnvironmentIds.generate();
        } else if (!EnvironmentIds.isValid(id)) {
            throw ApiException.badRequest("The field 'environmentId' must be 24 lower-case hex digits.");
        }
        Instant now = clock.instant();
        Environment environment = new Environment(name, type(body), description(body), id, urls(body), now, now);
        if (!store.insert(environment)) {
            throw ApiException.conflict("An environment named '" + name + "' already exists.");
        }
        audit.record(principal.username(), "environment.created", "environment:" + name, SourceAddress.of(req), "success");
        res.header(HeaderNames.LOCATION, "/apiops/environments/" + name);
        Json.send(res, Status.CREATED_201, environment.toJson(true));
    }

    private void replace(ServerRequest req, ServerResponse res, Principal principal) {
        Environment current = require(req);
        ObjectNode body = RequestBodies.jsonObject(req);
        RequestBodies.onlyFields(body, Set.of("name", "type", "description", "environmentId", "urls",
                "createdAt", "updatedAt"));
        String name = RequestBodies.text(body, "name");
        if (name != null && !name.equals(current.name())) {
            throw ApiException.badRequest("The name cannot be changed (it is '" + current.name() + "').");
        }
        String id = RequestBodies.text(body, "environmentId");
        if (id != null && !id.equals(current.environmentId())) {
            throw ApiException.badRequest("The environment ID is changed only by POST /apiops/environments/"
                    + current.name() + "/rotate-id.");
        }
        store.update(current.name(), type(body), description(body), urls(body), clock.instant());
        audit.record(principal.username(), "environment.updated", "environment:" + current.name(),
                SourceAddress.of(req), "success");
        Json.send(res, require(req).toJson(true));
    }

    private void delete(ServerRequest req, ServerResponse res, Principal principal) {
        Environment current = require(req);
        store.delete(current.name());
        audit.record(principal.username(), "environment.deleted", "environment:" + current.name(),
                SourceAddress.of(req), "success");
        res.status(Status.NO_CONTENT_204).send();
    }

    private void rotate(ServerRequest req, ServerResponse res, Principal principal) {
        Environment current = require(req);
        store.updateId(current.name(), EnvironmentIds.generate(), clock.instant());
        audit.record(principal.username(), "environment.id-rotated", "environment:" + current.name(),
                SourceAddress.of(req), "success");
        Json.send(res, require(req).toJson(true));
    }

    private Environment require(ServerRequest req) {
        String name = req.path().pathParameters().get("name");
        return store.find(name).orElseThrow(() -> ApiException.notFound("No environment named '" + name + "'."));
    }

    private static String type(ObjectNode body) {
        String type = RequestBodies.requiredText(body, "type").toLowerCase(Locale.ROOT);
        if (!TYPES.contains(type)) {
            throw ApiException.badRequest("The field 'type' must be one of " + String.join(", ", TYPES) + ".");
        }
        return type;
    }

    private static String description(ObjectNode body) {
        String description = RequestBodies.text(body, "description");
        if (description != null && description.length() > MAX_DESCRIPTION) {
            throw ApiException.badRequest("A description has at most " + MAX_DESCRIPTION + " characters.");
        }
        return description == null ? "" : description;
    }

    /** The module URLs: http(s) without query or fragment, trailing slash dropped; worker and cache required. */
    static Map<String, String> urls(ObjectNode body) {
        JsonNode node = body.get("urls");
        if (node == null || node.isNull()) {
            throw ApiException.badRequest("Missing field 'urls' (the access URLs of at least worker and cache).");
        }
        if (!node.isObject()) {
            throw ApiException.badRequest("The field 'urls' must be an object of module name to URL.");
        }
        Map<String, String> urls = new LinkedHashMap<>();
        node.fields().forEachRemaining(field -> {
            if (!Environment.MODULES.contains(field.getKey())) {
                throw ApiException.badRequest("Unknown module '" + field.getKey() + "' in 'urls'; modules: "
                        + String.join(", ", Environment.MODULES) + ".");
            }
            if (field.getValue().isNull()) {
                return;
            }
            if (!field.getValue().isTextual()) {
                throw ApiException.badRequest("urls." + field.getKey() + " must be a string.");
            }
            urls.put(field.getKey(), url(field.getKey(), field.getValue().asText()));
        });
        for (String required : List.of("worker", "cache")) {
            if (!urls.containsKey(required)) {
                throw ApiException.badRequest("Missing urls." + required + " (the " + required + " access URL).");
            }
        }
        return urls;
    }

    /** Checks one access URL; also what the start-up bootstrap uses. */
    public static String url(String module, String text) {
        URI uri;
        try {
            uri = URI.create(text.strip());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("urls." + module + " is not a valid URL.");
        }
        boolean http = "http".equals(uri.getScheme()) || "https".equals(uri.getScheme());
        if (!http || uri.getHost() == null || uri.getRawQuery() != null || uri.getRawFragment() != null
                || uri.getRawUserInfo() != null || text.length() > 2048) {
            throw ApiException.badRequest("urls." + module + " must be an http:// or https:// URL without user info, "
                    + "query or fragment.");
        }
        String value = uri.toString();
        return value.endsWith("/") ? value.substring(0, value.length() - 1) : value;
    }
}
