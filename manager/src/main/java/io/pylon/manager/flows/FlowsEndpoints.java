package io.pylon.manager.flows;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.ErrorBody;
import io.pylon.core.http.Json;
import io.pylon.core.http.Routes;
import io.pylon.core.http.WholeAnswer;
import io.pylon.manager.api.ApiException;
import io.pylon.manager.api.RequestBodies;
import io.pylon.manager.api.Principal;
import io.pylon.manager.api.Secured;
import io.pylon.manager.api.SourceAddress;
import io.pylon.manager.audit.AuditLog;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * {@code /apiops/flows}: the management API's face of integration flows. Flows live with the Integration pods, which
 * validate, schedule and run them (docs/integration.md); the Manager checks the caller's role, forwards the call with
 * the caller's own token to the Integration service ({@code pylon.manager.integration-url}), relays the answer, and
 * audits every change and every run it started. With several Integration URLs ({@code pylon up}'s pods), a call that
 * cannot connect to one (nothing was sent) goes to the next, and the one that answered is tried first from then on.
 *
 * <p>Threading: handlers run on many threads at once over a thread-safe HTTP client; the index of the URL tried first
 * is a volatile int, a hint that a race may leave one call behind.
 */
public final class FlowsEndpoints {
    /** Largest body forwarded: a flow document (256 KiB) or a run's input (1 MiB). */
    static final int MAX_BODY = 1024 * 1024;
    private static final Duration TIMEOUT = Duration.ofSeconds(75);
    /** The most of an Integration answer the Manager holds to forward (a run with its step outputs is the largest). */
    static final int MAX_ANSWER = 64 * 1024 * 1024;
    private static final Set<String> QUERY = Set.of("limit", "after", "before", "wait");

    private final List<URI> integrations;
    private volatile int preferred;
    private final String segment;
    private final AuditLog audit;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    public FlowsEndpoints(List<URI> integrations, String segment, AuditLog audit) {
        if (integrations.isEmpty()) {
            throw new IllegalArgumentException("no Integration URL");
        }
        this.integrations = List.copyOf(integrations);
        this.segment = segment;
        this.audit = audit;
    }

    public void register(Routes routes, Secured secured) {
        routes.get("/apiops/flows", secured.viewer((req, res, p) -> forward(req, res, p, "GET", "/flows", null)));
        routes.post("/apiops/flows", secured.operator((req, res, p) -> forward(req, res, p, "POST", "/flows", "flow.created")));
        routes.post("/apiops/flows/validate", secured.viewer((req, res, p) -> forward(req, res, p, "POST", "/flows/validate", null)));
        routes.get("/apiops/flows/{name}", secured.viewer((req, res, p) -> forward(req, res, p, "GET", flow(req), null)));
        routes.put("/apiops/flows/{name}", secured.operator((req, res, p) -> forward(req, res, p, "PUT", flow(req), "flow.replaced")));
        routes.delete("/apiops/flows/{name}", secured.operator((req, res, p) -> forward(req, res, p, "DELETE", flow(req), "flow.deleted")));
        routes.post("/apiops/flows/{name}/trigger-key", secured.operator((req, res, p) -> forward(req, res, p, "POST",
                flow(req) + "/trigger-key", "flow.trigger-key.rotated")));
        routes.post("/apiops/flows/{name}/enable", secured.operator((req, res, p) -> forward(req, res, p, "POST",
                flow(req) + "/enable", "flow.enabled")));
        routes.post("/apiops/flows/{name}/disable", secured.operator((req, res, p) -> forward(req, res, p, "POST",
                flow(req) + "/disable", "flow.disabled")));
        routes.post("/apiops/flows/{name}/runs", secured.operator((req, res, p) -> forward(req, res, p, "POST",
                flow(req) + "/runs", "flow.run")));
        routes.get("/apiops/flows/{name}/runs", secured.viewer((req, res, p) -> forward(req, res, p, "GET",
                flow(req) + "/runs", null)));
        routes.get("/apiops/flows/{name}/runs/{id}", secured.viewer((req, res, p) -> forward(req, res, p, "GET",
                "/runs/" + segment(req, "id"), null)));
        routes.get("/apiops/flows/{name}/runs/{id}/steps", secured.viewer((req, res, p) -> forward(req, res, p, "GET",
                "/runs/" + segment(req, "id") + "/steps", null)));
    }

    private static String flow(ServerRequest req) {
        return "/flows/" + segment(req, "name");
    }

    private static String segment(ServerRequest req, String param) {
        String value = req.path().pathParameters().get(param);
        if (!value.matches("[A-Za-z0-9._-]{1,100}")) {
            throw ApiException.badRequest("The " + param + " is 1 to 100 letters, digits, '.', '-' or '_'.");
        }
        return value;
    }

    private void forward(ServerRequest req, ServerResponse res, Principal principal, String method, String path,
                         @Nullable String auditAction) {
        StringBuilder query = new StringBuilder();
        for (String name : QUERY) {
            req.query().first(name).ifPresent(v -> query.append(query.isEmpty() ? '?' : '&').append(name).append('=')
                    .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        }
        byte[] body = body(req);
        HttpResponse<byte[]> received = null;
        IOException failure = null;
        URI integration = integrations.get(0);
        int first = preferred;
        for (int i = 0; i < integrations.size() && received == null; i++) {
            int index = (first + i) % integrations.size();
            integration = integrations.get(index);
            HttpRequest.Builder out = HttpRequest.newBuilder(integration.resolve("/" + segment + "/integration" + path + query))
                    .timeout(TIMEOUT)
                    .header("Authorization", req.headers().first(HeaderNames.AUTHORIZATION).orElse(""))
                    .method(method, body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            req.headers().first(HeaderNames.CONTENT_TYPE).ifPresent(v -> out.header("Content-Type", v));
            try {
                received = WholeAnswer.send(client, out.build(), WholeAnswer.bytesAtMost(MAX_ANSWER));
                preferred = index;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                ErrorBody.send(res, Status.SERVICE_UNAVAILABLE_503, "temporarily_unavailable", "The Manager is stopping.");
                return;
            } catch (java.net.ConnectException | java.net.http.HttpConnectTimeoutException e) {
                failure = e; // nothing reached this pod: the next one may take the call, even a POST
            } catch (WholeAnswer.TooLargeException e) {
                ErrorBody.send(res, Status.BAD_GATEWAY_502, "integration_unavailable", "The Integration service at "
                        + integration + " answered with more than " + MAX_ANSWER / (1024 * 1024) + " MiB.");
                return;
            } catch (IOException e) {
                failure = e; // the call may have reached the pod: not sent twice
                break;
            }
        }
        if (received == null) {
            ErrorBody.send(res, Status.BAD_GATEWAY_502, "integration_unavailable",
                    "The Integration service at " + integration + " did not answer ("
                            + (failure == null ? "no answer" : failure.getClass().getSimpleName()) + ").");
            return;
        }
        HttpResponse<byte[]> answer = received;
        if (auditAction != null) {
            String target2 = auditTarget(req, answer);
            audit.record(principal.username(), auditAction, target2, SourceAddress.of(req),
                    answer.statusCode() < 400 ? "success" : "refused " + answer.statusCode());
        }
        res.status(Status.create(answer.statusCode()));
        answer.headers().firstValue("Content-Type").ifPresent(v -> res.header(HeaderNames.CONTENT_TYPE, v));
        answer.headers().firstValue("Location").ifPresent(v -> res.header(HeaderNames.LOCATION,
                v.replace("/" + segment + "/integration/runs/", "/apiops/flows/" + flowOf(req, answer) + "/runs/")
                        .replace("/" + segment + "/integration/flows/", "/apiops/flows/")));
        res.send(answer.body());
    }

    private static String flowOf(ServerRequest req, HttpResponse<byte[]> answer) {
        return req.path().pathParameters().contains("name") ? req.path().pathParameters().get("name") : "-";
    }

    private static String auditTarget(ServerRequest req, HttpResponse<byte[]> answer) {
        if (req.path().pathParameters().contains("name")) {
            return "flow:" + req.path().pathParameters().get("name");
        }
        try {
            JsonNode node = Json.MAPPER.readTree(answer.body());
            return "flow:" + node.path("name").asText("?");
        } catch (IOException e) {
            return "flow:?";
        }
    }

    private static byte[] body(ServerRequest req) {
        try {
            return RequestBodies.read(req, MAX_BODY);
        } catch (java.io.UncheckedIOException e) {
            throw ApiException.badRequest("The request body could not be read.");
        }
    }
}
