package io.pylon.portal;

import org.jspecify.annotations.Nullable;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.ErrorBody;
import io.pylon.core.http.Json;
import io.pylon.core.http.Routes;
import io.pylon.gateway.model.TrustedProxies;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The browser's JSON API under {@code /api}: each call becomes one Manager call made with the Portal's credential.
 * The developer's session lives in an HttpOnly, SameSite=Strict cookie; state-changing calls carry the session's
 * CSRF token in {@code X-CSRF-Token}, which the Manager checks. The Portal keeps no state, so replicas need no
 * affinity. Stateless; thread-safe.
 */
final class PortalApi {
    private static final System.Logger LOG = System.getLogger(PortalApi.class.getName());
    static final String COOKIE = "pylon_portal_session";
    private static final int MAX_BODY = 16 * 1024;
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private final ManagerLink manager;
    private final String environment;
    private final ConnectSources connect;
    private final TrustedProxies trustedProxies;

    PortalApi(ManagerLink manager, String environment, ConnectSources connect, TrustedProxies trustedProxies) {
        this.manager = manager;
        this.environment = environment;
        this.connect = connect;
        this.trustedProxies = trustedProxies;
    }

    /** Before a page is served: learns the Workers' origin again when what is known is old (for "Try it"). */
    void refreshConnectSources() {
        if (!connect.stale()) {
            return;
        }
        try {
            ManagerLink.Answer answer = manager.call("GET", "/apiops/portal/catalog?environment=" + encode(environment),
                    null, null, null);
            if (answer.status() == 200) {
                connect.learned(Json.MAPPER.readTree(answer.body()).path("workerUrl").asText(""));
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "The Manager cannot be reached: " + e.getMessage());
        }
    }

    void register(Routes routes) {
        routes.get("/api/catalog", (req, res) -> forward(res, "GET", "/apiops/portal/catalog?environment="
                + encode(environment), null, null, null));
        routes.get("/api/catalog/{name}", (req, res) -> forward(res, "GET", "/apiops/portal/catalog/"
                + id(req, "name") + "?environment=" + encode(environment), null, null, null));
        routes.get("/api/catalog/{name}/openapi", this::openApi);
        routes.post("/api/signup", (req, res) -> forward(res, "POST", "/apiops/portal/developers", body(req), null, null));
        routes.post("/api/signin", this::signIn);
        routes.post("/api/applications/{id}/keys/{key}/rotate", (req, res) -> forward(res, "POST",
                "/apiops/portal/applications/" + id(req, "id") + "/keys/" + id(req, "key") + "/rotate", null,
                session(req), csrf(req)));
        routes.get("/api/me", (req, res) -> forward(res, "GET", "/apiops/portal/session", null, session(req), null));
        routes.post("/api/signout", this::signOut);
        routes.get("/api/applications", (req, res) -> forward(res, "GET", "/apiops/portal/applications", null,
                session(req), null));
        routes.post("/api/applications", (req, res) -> forward(res, "POST", "/apiops/portal/applications", body(req),
                session(req), csrf(req)));
        routes.post("/api/applications/{id}/subscriptions", (req, res) -> forward(res, "POST",
                "/apiops/portal/applications/" + id(req, "id") + "/subscriptions", body(req), session(req), csrf(req)));
        routes.post("/api/applications/{id}/keys", (req, res) -> forward(res, "POST",
                "/apiops/portal/applications/" + id(req, "id") + "/keys", null, session(req), csrf(req)));
        routes.get("/api/applications/{id}/usage", (req, res) -> forward(res, "GET",
                "/apiops/portal/applications/" + id(req, "id") + "/usage" + window(req), null, session(req), null));
        routes.delete("/api/applications/{id}/keys/{key}", (req, res) -> forward(res, "DELETE",
                "/apiops/portal/applications/" + id(req, "id") + "/keys/" + id(req, "key"), null, session(req),
                csrf(req)));
    }

    /** The usage window's {@code from} and {@code to}, passed on encoded; the Manager checks them. */
    private static String window(ServerRequest req) {
        StringBuilder query = new StringBuilder();
        for (String name : new String[]{"from", "to"}) {
            Optional<String> value = req.query().first(name).asOptional();
            if (value.isPresent()) {
                query.append(query.isEmpty() ? '?' : '&').append(name).append('=').append(encode(value.get()));
            }
        }
        return query.toString();
    }

    /** A refusal made by the Portal itself, before any Manager call. */
    private static final class Refused extends RuntimeException {
        final Status status;
        final String error;

        Refused(Status status, String error, String description) {
            super(description, null, false, false);
            this.status = status;
            this.error = error;
        }
    }

    private void forward(ServerResponse res, String method, String path, @Nullable Body body, @Nullable String session,
                         @Nullable String csrf) {
        try {
            ManagerLink.Answer answer = manager.call(method, path, body == null ? null : body.json(), session, csrf);
            relay(res, answer);
        } catch (IOException e) {
            unavailable(res, e);
        }
    }

    private static void relay(ServerResponse res, ManagerLink.Answer answer) {
        res.header(HeaderNames.CACHE_CONTROL, "no-store");
        if (answer.status() == 204 || answer.body().isEmpty()) {
            res.status(Status.create(answer.status())).send();
            return;
        }
        res.status(Status.create(answer.status()));
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(answer.body());
    }

    private static void unavailable(ServerResponse res, IOException e) {
        LOG.log(Level.WARNING, "The Manager cannot be reached: " + e.getMessage());
        ErrorBody.send(res, Status.SERVICE_UNAVAILABLE_503, "manager_unavailable",
                "The Portal cannot reach its Manager; try again shortly.");
    }

    // a fresh session on every sign-in (no fixation: whatever cookie came in is replaced)
    private void signIn(ServerRequest req, ServerResponse res) {
        Body body = body(req);
        ManagerLink.Answer answer;
        try {
            answer = manager.call("POST", "/apiops/portal/sessions", body.json(), null, null, clientAddress(req));
        } catch (IOException e) {
            unavailable(res, e);
            return;
        }
        if (answer.status() != 201) {
            relay(res, answer);
            return;
        }
        try {
            JsonNode signedIn = Json.MAPPER.readTree(answer.body());
            res.header(HeaderNames.SET_COOKIE, COOKIE + "=" + signedIn.path("session").asText()
                    + "; Path=/; HttpOnly; SameSite=Strict; Max-Age=" + signedIn.path("expiresIn").asLong()
                    + (req.isSecure() ? "; Secure" : ""));
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("developer", signedIn.path("developer"));
            out.put("csrf", signedIn.path("csrf").asText());
            res.header(HeaderNames.CACHE_CONTROL, "no-store");
            Json.send(res, Status.OK_200, out);
        } catch (IOException e) {
            unavailable(res, e);
        }
    }

    // the deployed revision's document with its servers pointing at the Workers (and the key header as a security
    // scheme), for Swagger UI to render and "Try it" to call through the real gateway
    private void openApi(ServerRequest req, ServerResponse res) {
        try {
            ManagerLink.Answer answer = manager.call("GET", "/apiops/portal/catalog/" + id(req, "name")
                    + "?environment=" + encode(environment), null, null, null);
            if (answer.status() != 200) {
                relay(res, answer);
                return;
            }
            JsonNode api = Json.MAPPER.readTree(answer.body());
            connect.learned(api.path("workerUrl").asText(""));
            JsonNode document = api.path("tryItDocument");
            if (!document.isObject()) {
                ErrorBody.send(res, Status.NOT_FOUND_404, "not_found", "This API has no OpenAPI document.");
                return;
            }
            res.header(HeaderNames.CACHE_CONTROL, "no-store");
            res.header(HeaderNames.CONTENT_TYPE, "application/json");
            res.send(Json.MAPPER.writeValueAsBytes(document));
        } catch (IOException e) {
            unavailable(res, e);
        }
    }

    private void signOut(ServerRequest req, ServerResponse res) {
        String session = session(req);
        try {
            ManagerLink.Answer answer = manager.call("DELETE", "/apiops/portal/session", null, session, csrf(req));
            if (answer.status() == 204) {
                res.header(HeaderNames.SET_COOKIE, COOKIE + "=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0");
            }
            relay(res, answer);
        } catch (IOException e) {
            unavailable(res, e);
        }
    }

    private record Body(String json) {
    }

    private static Body body(ServerRequest req) {
        String type = req.headers().contentType().map(t -> t.mediaType().text()).orElse("");
        if (!type.equals("application/json")) {
            throw new Refused(Status.UNSUPPORTED_MEDIA_TYPE_415, "invalid_request", "The body must be application/json.");
        }
        if (req.headers().contentLength().orElse(-1L) > MAX_BODY) {
            throw new Refused(Status.REQUEST_ENTITY_TOO_LARGE_413, "invalid_request",
                    "The body exceeds " + MAX_BODY + " bytes.");
        }
        try (InputStream in = req.content().inputStream()) {
            byte[] bytes = in.readNBytes(MAX_BODY + 1);
            if (bytes.length > MAX_BODY) {
                throw new Refused(Status.REQUEST_ENTITY_TOO_LARGE_413, "invalid_request",
                        "The body exceeds " + MAX_BODY + " bytes.");
            }
            return new Body(new String(bytes, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new Refused(Status.BAD_REQUEST_400, "invalid_request", "The body could not be read.");
        }
    }

    private static @Nullable String session(ServerRequest req) {
        Optional<String> cookie = req.headers().cookies().first(COOKIE).asOptional();
        return cookie.filter(c -> !c.isEmpty() && c.length() <= 100).orElse(null);
    }

    // the developer's address, which the Manager's sign-in throttling counts per: behind a trusted ingress, the
    // right-most X-Forwarded-For entry that is not a trusted proxy; else the connection's own peer
    private @Nullable String clientAddress(ServerRequest req) {
        java.net.SocketAddress address = req.remotePeer().address();
        if (!(address instanceof java.net.InetSocketAddress inet) || inet.getAddress() == null) {
            return null;
        }
        List<String> forwarded = req.headers().all(HeaderNames.X_FORWARDED_FOR, List::of);
        return trustedProxies.clientAddress(inet.getAddress(), forwarded.isEmpty() ? null : String.join(",", forwarded))
                .getHostAddress();
    }

    private static @Nullable String csrf(ServerRequest req) {
        return req.headers().first(io.helidon.http.HeaderNames.create("X-CSRF-Token")).orElse(null);
    }

    private static String id(ServerRequest req, String name) {
        String value = req.path().pathParameters().get(name);
        if (!ID.matcher(value).matches() || value.equals(".") || value.equals("..")) {
            throw new Refused(Status.NOT_FOUND_404, "not_found", "No such " + name + ".");
        }
        return value;
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    /** Answers the Portal's own refusals as JSON. */
    static void install(io.helidon.webserver.http.HttpRouting.Builder routing) {
        routing.error(Refused.class, (req, res, e) -> ErrorBody.send(res, e.status, e.error, e.getMessage()));
    }
}
