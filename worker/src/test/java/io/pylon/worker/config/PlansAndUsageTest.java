package io.pylon.worker.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.pylon.cache.CacheModule;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.pylon.worker.config.ControlPlane.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Plans and usage end to end on real pods: a real Manager, a real Cache pod whose counters the Workers share, two
 * real Workers following the Manager, a third one whose way to the Manager can be cut, a real upstream. A plan given
 * to a subscription holds across both Workers (429 with Retry-After and a JSON body); usage counts exactly the
 * requests, client and server errors an application made; a Worker that cannot report keeps its counts and reports
 * them once it can.
 */
class PlansAndUsageTest {
    static Pod cache;
    static ControlPlane cp;
    static TestUpstream upstream;
    static Pod one;
    static Pod two;
    static String portal;
    static Session alice;

    @BeforeAll
    static void start() throws Exception {
        int gridPort = TestPods.freePort();
        cache = TestPods.start(new CacheModule(), "cache-plans", Map.of("pylon.grid.port", String.valueOf(gridPort),
                "pylon.grid.members", "127.0.0.1:" + gridPort));
        cp = new ControlPlane(Map.of("pylon.manager.portal.auto-approve-developers", "true"));
        upstream = TestUpstream.start(exchange -> {
            String path = exchange.getRequestURI().getPath();
            exchange.getRequestBody().readAllBytes();
            if (path.endsWith("/slow")) {
                try {
                    Thread.sleep(3_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            TestUpstream.send(exchange, path.endsWith("/fail") ? 500 : path.endsWith("/missing") ? 404 : 200,
                    "orders".getBytes());
        });
        Map<String, String> workerSettings = Map.of(
                "pylon.cache.addresses", "127.0.0.1:" + gridPort,
                "pylon.cache.reconnect.initial-backoff", "100ms",
                "pylon.cache.reconnect.max-backoff", "500ms",
                "pylon.worker.usage.report-interval", "300ms");
        one = ControlPlane.worker("gw-plan-one", cp.url(), workerSettings);
        two = ControlPlane.worker("gw-plan-two", cp.url(), workerSettings);
        assertThat(cp.post("/apiops/users", "{\"username\":\"portal\",\"password\":\"portal-Passw0rd-1\","
                + "\"role\":\"portal\"}").statusCode()).isEqualTo(201);
        portal = cp.token("portal", "portal-Passw0rd-1");

        String definition = "{\"name\":\"orders\",\"pathPrefix\":\"/orders\",\"upstreams\":[\"" + upstream.url()
                + "\"],\"keyAuth\":{}}";
        assertThat(cp.post("/apiops/proxies", definition).statusCode()).isEqualTo(201);
        assertThat(cp.post("/apiops/proxies", ControlPlane.proxy("other", "/other", upstream.url())).statusCode())
                .isEqualTo(201);
        HttpResponse<String> deployed = cp.post("/apiops/environments/test/deployments",
                "{\"proxies\":[\"orders\",\"other\"],\"wait\":\"20s\"}");
        assertThat(json(deployed.body()).path("deploymentResult").path("success").asBoolean()).as(deployed.body())
                .isTrue();
        assertThat(cp.send("PUT", "/apiops/publications/orders", cp.admin, "application/json",
                "{\"autoApprove\":true}").statusCode()).isEqualTo(200);
        alice = developer("alice@example.com");
        for (Pod worker : List.of(one, two)) {
            ControlPlane.await("the grid on " + worker.identity().podName(), () -> "CONNECTED".equals(
                    diagnostics(worker, "connections").path("cache").path("state").asText()));
        }
    }

    @AfterAll
    static void stop() {
        one.stop();
        two.stop();
        cp.close();
        cache.stop();
        upstream.close();
    }

    private record Session(String token, String csrf) {
        String[] headers() {
            return new String[]{"X-Pylon-Developer-Session", token, "X-Pylon-Csrf", csrf};
        }
    }

    private record App(String id, String subscription, String key) {
    }

    private static HttpResponse<String> asPortal(String method, String path, String body, String... headers) {
        return cp.send(method, path, portal, body == null ? null : "application/json", body, headers);
    }

    private static Session developer(String email) {
        String credentials = "{\"email\":\"" + email + "\",\"password\":\"dev-Passw0rd-123\"}";
        assertThat(asPortal("POST", "/apiops/portal/developers", credentials).statusCode()).isEqualTo(202);
        JsonNode session = json(asPortal("POST", "/apiops/portal/sessions", credentials).body());
        return new Session(session.path("session").asText(), session.path("csrf").asText());
    }

    /** An application of alice's subscribed to orders, with a key both Workers accept. */
    private static App application(String name) throws InterruptedException {
        String id = json(asPortal("POST", "/apiops/portal/applications", "{\"name\":\"" + name + "\"}",
                alice.headers()).body()).path("id").asText();
        HttpResponse<String> subscribed = asPortal("POST", "/apiops/portal/applications/" + id + "/subscriptions",
                "{\"proxy\":\"orders\"}", alice.headers());
        assertThat(subscribed.statusCode()).as(subscribed.body()).isEqualTo(201);
        String key = json(asPortal("POST", "/apiops/portal/applications/" + id + "/keys", null, alice.headers())
                .body()).path("key").asText();
        awaitKeySet();
        return new App(id, json(subscribed.body()).path("id").asText(), key);
    }

    private static JsonNode diagnostics(Pod worker, String name) {
        return json(TestPods.get(worker, "/platform/diagnostics/" + name + "?internal=true", "Authorization",
                TestPods.ENVIRONMENT_ID).body()).path(name);
    }

    /** Until every Worker holds the Manager's current key set. */
    private static void awaitKeySet(Pod... workers) throws InterruptedException {
        HttpResponse<String> current = TestPods.send(HttpRequest.newBuilder(URI.create(cp.url()
                + "/apiops/gateway/keys")).header("X-Pylon-Environment-Id", TestPods.ENVIRONMENT_ID).build());
        long version = Long.parseLong(current.headers().firstValue("ETag").orElseThrow().replace("\"", ""));
        for (Pod worker : workers.length == 0 ? new Pod[]{one, two} : workers) {
            ControlPlane.await("key set " + version + " on " + worker.identity().podName(),
                    () -> diagnostics(worker, "config").path("keySetVersion").asLong(-1) >= version);
        }
    }

    private static HttpResponse<String> call(Pod worker, String path, String key) {
        return TestPods.get(worker, path, "X-API-Key", key);
    }

    @Test
    void aPlanHoldsAcrossWorkersOnTheCacheCounters() throws Exception {
        // plans: validated, audited, listed
        assertThat(cp.send("PUT", "/apiops/plans/five", cp.admin, "application/json",
                "{\"requests\":0,\"per\":\"minute\"}").statusCode()).isEqualTo(400);
        assertThat(cp.send("PUT", "/apiops/plans/five", cp.admin, "application/json",
                "{\"requests\":5,\"per\":\"hour\"}").statusCode()).isEqualTo(400);
        assertThat(cp.send("PUT", "/apiops/plans/five", cp.admin, "application/json",
                "{\"requests\":5,\"per\":\"minute\",\"burst\":2}").statusCode()).isEqualTo(400);
        assertThat(cp.send("PUT", "/apiops/plans/five", cp.admin, "application/json",
                "{\"requests\":5,\"per\":\"minute\",\"proxy\":\"nope\"}").statusCode()).isEqualTo(400);
        assertThat(cp.send("PUT", "/apiops/plans/Bad%20Name", cp.admin, "application/json",
                "{\"requests\":5,\"per\":\"minute\"}").statusCode()).isEqualTo(400);
        assertThat(cp.send("PUT", "/apiops/plans/five", portal, "application/json",
                "{\"requests\":5,\"per\":\"minute\"}").statusCode()).as("the Portal's credential").isEqualTo(403);
        assertThat(cp.send("PUT", "/apiops/plans/five", cp.admin, "application/json",
                "{\"requests\":50,\"per\":\"minute\",\"proxy\":\"orders\"}").statusCode()).isEqualTo(201);
        HttpResponse<String> changed = cp.send("PUT", "/apiops/plans/five", cp.admin, "application/json",
                "{\"requests\":5,\"per\":\"minute\",\"proxy\":\"orders\"}");
        assertThat(changed.statusCode()).isEqualTo(200);
        assertThat(cp.send("PUT", "/apiops/plans/other-only", cp.admin, "application/json",
                "{\"requests\":5,\"per\":\"second\",\"proxy\":\"other\"}").statusCode()).isEqualTo(201);
        assertThat(json(cp.get("/apiops/plans").body()).path("plans").toString())
                .contains("{\"name\":\"five\",\"requests\":5,\"per\":\"minute\",\"proxy\":\"orders\"}");

        App app = application("limited");
        String plan = "/apiops/subscriptions/" + app.subscription() + "/plan";
        assertThat(cp.send("PUT", plan, cp.admin, "application/json", "{\"plan\":\"other-only\"}").statusCode())
                .as("a plan of another proxy").isEqualTo(400);
        assertThat(cp.send("PUT", plan, cp.admin, "application/json", "{\"plan\":\"nope\"}").statusCode())
                .isEqualTo(400);
        assertThat(cp.send("PUT", "/apiops/subscriptions/nope/plan", cp.admin, "application/json",
                "{\"plan\":\"five\"}").statusCode()).isEqualTo(404);
        assertThat(cp.send("PUT", plan, cp.admin, "application/json", "{\"plan\":\"five\"}").statusCode())
                .isEqualTo(200);
        assertThat(cp.send("DELETE", "/apiops/plans/five", cp.admin, null, null).statusCode()).as("held")
                .isEqualTo(409);
        assertThat(cp.send("DELETE", "/apiops/plans/nope", cp.admin, null, null).statusCode()).isEqualTo(404);
        assertThat(cp.get("/apiops/subscriptions").body()).contains("\"plan\":\"five\"");
        String audit = cp.get("/apiops/audit?limit=200").body();
        assertThat(audit).contains("plan.created").contains("plan.changed").contains("subscription.plan-changed");
        awaitKeySet();

        awayFromAMinuteBoundary();
        List<Integer> statuses = new ArrayList<>();
        List<String> retryAfter = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            HttpResponse<String> response = call(i % 2 == 0 ? one : two, "/orders/" + i, app.key());
            statuses.add(response.statusCode());
            if (response.statusCode() == 429) {
                retryAfter.add(response.headers().firstValue("Retry-After").orElse("none"));
                assertThat(json(response.body()).path("error").asText()).isEqualTo("plan_limit_exceeded");
                assertThat(json(response.body()).path("error_description").asText()).contains("'five'")
                        .contains("5 request(s) per minute");
            }
        }
        assertThat(statuses).containsExactly(200, 200, 200, 200, 200, 429, 429, 429);
        assertThat(retryAfter).hasSize(3).allSatisfy(v -> assertThat(Integer.parseInt(v)).isBetween(1, 60));
        // another application of the same developer has its own count
        App free = application("free");
        assertThat(call(one, "/orders/x", free.key()).statusCode()).isEqualTo(200);

        // the plan taken away, the key is unlimited again; then the plan can go
        assertThat(cp.send("PUT", plan, cp.admin, "application/json", "{\"plan\":null}").statusCode()).isEqualTo(200);
        awaitKeySet();
        assertThat(call(two, "/orders/again", app.key()).statusCode()).isEqualTo(200);
        assertThat(cp.send("DELETE", "/apiops/plans/five", cp.admin, null, null).statusCode()).isEqualTo(204);
        assertThat(cp.get("/apiops/audit?limit=200").body()).contains("plan.deleted");
    }

    @Test
    void usageCountsExactlyWhatAnApplicationDid() throws Exception {
        App app = application("counted");
        Instant from = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(1));
        for (int i = 0; i < 7; i++) {
            assertThat(call(i % 2 == 0 ? one : two, "/orders/ok", app.key()).statusCode()).isEqualTo(200);
        }
        for (int i = 0; i < 3; i++) {
            assertThat(call(i % 2 == 0 ? two : one, "/orders/fail", app.key()).statusCode()).isEqualTo(500);
        }
        for (int i = 0; i < 2; i++) {
            assertThat(call(one, "/orders/missing", app.key()).statusCode()).isEqualTo(404);
        }
        // a client that leaves before the answer: its own error (nginx's 499), not the upstream's
        try (java.net.Socket left = new java.net.Socket("127.0.0.1", one.port())) {
            left.getOutputStream().write(("GET /orders/slow HTTP/1.1\r\nHost: gw\r\nX-API-Key: " + app.key()
                    + "\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            Thread.sleep(300);
        }
        // a request without a key or with an unknown one belongs to no application
        assertThat(TestPods.get(one, "/orders/ok").statusCode()).isEqualTo(401);

        String query = "/apiops/usage?proxy=orders&from=" + from;
        ControlPlane.await("13 requests of the application counted", () -> requestsOf(cp.get(query).body(),
                app.id()) >= 13);
        Thread.sleep(1000); // more reports come in: nothing is counted twice
        JsonNode usage = json(cp.get(query).body());
        JsonNode row = application(usage, app.id());
        assertThat(row.path("requests").asLong()).isEqualTo(13);
        assertThat(row.path("name").asText()).isEqualTo("counted");
        assertThat(row.path("errors").asLong()).isEqualTo(6);
        assertThat(row.path("clientErrors").asLong()).isEqualTo(3);
        assertThat(row.path("serverErrors").asLong()).isEqualTo(3);
        assertThat(row.path("latencyMsAvg").asDouble()).isGreaterThan(0);
        assertThat(row.path("latencyMsMax").asDouble()).isGreaterThanOrEqualTo(row.path("latencyMsAvg").asDouble());
        assertThat(usage.path("minutes").size()).isBetween(1, 2);
        assertThat(usage.path("proxy").asText()).isEqualTo("orders");

        // the developer sees their application's usage through the Portal's calls; another developer does not
        HttpResponse<String> own = asPortal("GET", "/apiops/portal/applications/" + app.id() + "/usage?from=" + from,
                null, alice.headers());
        assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
        JsonNode mine = json(own.body());
        assertThat(mine.path("totals").path("requests").asLong()).isEqualTo(13);
        assertThat(mine.path("totals").path("errors").asLong()).isEqualTo(6);
        assertThat(mine.path("proxies").get(0).path("proxy").asText()).isEqualTo("orders");
        Session mallory = developer("mallory-usage@example.com");
        assertThat(asPortal("GET", "/apiops/portal/applications/" + app.id() + "/usage", null, mallory.headers())
                .statusCode()).isEqualTo(404);
        assertThat(cp.get("/apiops/portal/applications/" + app.id() + "/usage").statusCode()).as("an admin")
                .isEqualTo(403);

        // bad questions
        assertThat(cp.get("/apiops/usage?from=yesterday").statusCode()).isEqualTo(400);
        assertThat(cp.get("/apiops/usage?from=2026-01-01T00:00:00Z&to=2026-01-03T00:00:00Z").statusCode())
                .isEqualTo(400);
        assertThat(cp.get("/apiops/usage?proxy=%3Cscript%3E").statusCode()).isEqualTo(400);
        assertThat(cp.send("GET", "/apiops/usage", portal, null, null).statusCode()).isEqualTo(403);
    }

    @Test
    void theReportEndpointCountsAReportOnceAndRefusesBadOnes() {
        String minute = Instant.now().truncatedTo(ChronoUnit.MINUTES).toString();
        String entry = "{\"application\":\"app-direct\",\"proxy\":\"orders\",\"minute\":\"" + minute
                + "\",\"requests\":4,\"clientErrors\":1,\"serverErrors\":0,\"latencyMicrosSum\":400,"
                + "\"latencyMicrosMax\":200}";
        String report = "{\"report\":\"direct-1\",\"entries\":[" + entry + "]}";
        assertThat(report(report, TestPods.ENVIRONMENT_ID).statusCode()).isEqualTo(200);
        HttpResponse<String> again = report(report, TestPods.ENVIRONMENT_ID);
        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(json(again.body()).path("counted").asBoolean()).isFalse();
        assertThat(requestsOf(cp.get("/apiops/usage?proxy=orders").body(), "app-direct")).isEqualTo(4);

        assertThat(report(report, "wrong").statusCode()).isEqualTo(401);
        assertThat(report("{\"report\":\"x\",\"entries\":[", TestPods.ENVIRONMENT_ID).statusCode()).isEqualTo(400);
        assertThat(report(report.replace("\"requests\":4", "\"requests\":-4"), TestPods.ENVIRONMENT_ID).statusCode())
                .isEqualTo(400);
        assertThat(report(report.replace("\"clientErrors\":1", "\"clientErrors\":9"), TestPods.ENVIRONMENT_ID)
                .statusCode()).as("more errors than requests").isEqualTo(400);
        assertThat(report(report.replace(minute, "2999-01-01T00:00:00Z"), TestPods.ENVIRONMENT_ID).statusCode())
                .isEqualTo(400);
        assertThat(report("{\"report\":\"big\",\"entries\":[" + (entry + ",").repeat(5001) + entry + "]}",
                TestPods.ENVIRONMENT_ID).statusCode()).isIn(400, 413);
        assertThat(requestsOf(cp.get("/apiops/usage?proxy=orders").body(), "app-direct")).isEqualTo(4);
    }

    @Test
    void aWorkerThatCannotReachTheManagerKeepsItsCountsAndSendsThemLater() throws Exception {
        AtomicBoolean reportsRefused = new AtomicBoolean(true);
        HttpServer relay = relay(reportsRefused);
        Pod three = ControlPlane.worker("gw-plan-three", "http://127.0.0.1:" + relay.getAddress().getPort(),
                Map.of("pylon.worker.usage.report-interval", "300ms"));
        try {
            App app = application("offline");
            awaitKeySet(three);
            for (int i = 0; i < 4; i++) {
                assertThat(call(three, "/orders/ok", app.key()).statusCode()).isEqualTo(200);
            }
            // the count of waiting reports is published before the first attempt is refused: wait for both
            ControlPlane.await("a refused report waiting on the Worker", () -> {
                JsonNode config = diagnostics(three, "config");
                return config.path("usageReportsWaiting").asInt() >= 1
                        && config.path("usageReportError").asText().contains("503");
            });
            assertThat(requestsOf(cp.get("/apiops/usage?proxy=orders").body(), app.id())).isZero();
            Thread.sleep(1000); // a few more refused attempts
            reportsRefused.set(false);
            ControlPlane.await("the waiting counts reported", () ->
                    requestsOf(cp.get("/apiops/usage?proxy=orders").body(), app.id()) == 4);
            ControlPlane.await("nothing waiting", () ->
                    diagnostics(three, "config").path("usageReportsWaiting").asInt() == 0);
            assertThat(diagnostics(three, "config").path("usageDropped").asLong()).isZero();
            assertThat(requestsOf(cp.get("/apiops/usage?proxy=orders").body(), app.id())).isEqualTo(4);
        } finally {
            three.stop();
            relay.stop(0);
        }
    }

    /** Forwards everything to the Manager, except usage reports while {@code refused} (503). */
    private static HttpServer relay(AtomicBoolean refused) throws IOException {
        HttpClient client = HttpClient.newHttpClient();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 50);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        Set<String> hopByHop = Set.of("connection", "content-length", "host", "transfer-encoding", "upgrade",
                "keep-alive");
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            if (refused.get() && exchange.getRequestURI().getPath().equals("/apiops/gateway/usage")) {
                TestUpstream.send(exchange, 503, "{\"error\":\"down\"}".getBytes());
                return;
            }
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(cp.url() + exchange.getRequestURI()))
                    .timeout(Duration.ofSeconds(90))
                    .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!hopByHop.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                    values.forEach(v -> request.header(name, v));
                }
            });
            try {
                HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
                response.headers().map().forEach((name, values) -> {
                    if (!hopByHop.contains(name.toLowerCase(java.util.Locale.ROOT)) && !name.startsWith(":")) {
                        exchange.getResponseHeaders().put(name, values);
                    }
                });
                byte[] out = response.body();
                exchange.sendResponseHeaders(response.statusCode(), out.length == 0 ? -1 : out.length);
                try (OutputStream stream = exchange.getResponseBody()) {
                    stream.write(out);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exchange.close();
            } catch (IOException e) {
                exchange.close();
            }
        });
        server.start();
        return server;
    }

    private static HttpResponse<String> report(String body, String environmentId) {
        return TestPods.send(HttpRequest.newBuilder(URI.create(cp.url() + "/apiops/gateway/usage"))
                .header("X-Pylon-Environment-Id", environmentId)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private static JsonNode application(JsonNode usage, String id) {
        for (JsonNode row : usage.path("applications")) {
            if (row.path("application").asText().equals(id)) {
                return row;
            }
        }
        throw new AssertionError("no usage of " + id + " in " + usage);
    }

    private static long requestsOf(String usage, String id) {
        for (JsonNode row : json(usage).path("applications")) {
            if (row.path("application").asText().equals(id)) {
                return row.path("requests").asLong();
            }
        }
        return 0;
    }

    // plan windows are aligned on the clock; a test that straddles a minute boundary would see two windows
    private static void awayFromAMinuteBoundary() throws InterruptedException {
        long intoMinute = System.currentTimeMillis() % 60_000;
        if (intoMinute > 50_000) {
            Thread.sleep(60_000 - intoMinute + 100);
        }
    }
}
