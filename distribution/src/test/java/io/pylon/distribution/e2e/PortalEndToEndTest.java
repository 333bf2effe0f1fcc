package io.pylon.distribution.e2e;

import com.sun.net.httpserver.HttpServer;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.manager.ManagerModule;
import io.pylon.portal.PortalModule;
import io.pylon.worker.WorkerModule;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The developer portal in headless Chromium (src/test/e2e/portal.e2e.mjs) on real pods: a Manager (developers
 * approved automatically), a Worker following it, a Portal pod talking to the Manager with its own {@code portal}
 * credential, and a real upstream. A developer signs up, creates an application, subscribes to a published API, copies
 * the key shown once, calls the API through the Worker (the upstream's 200), revokes the key and gets 401 within 3 s.
 * Hostile: a script in an API's description and OpenAPI document stays text, subscribe without the CSRF token is
 * refused, another developer's application id is refused, oversized and malformed sign-ups answer 4xx. An admin
 * publishes an API with approval in the Manager UI, approves a developer's pending subscription there and the key
 * then works through the Worker; suspending and disabling stop it. An admin creates, edits and deletes plans there and
 * gives one to a developer's subscription. "Try it" on the docs page gets the upstream's
 * answer through the Worker from the Portal's origin. A rotated key stops within 3 s while its successor works;
 * sign-in changes the session, answers unknown and wrong alike, and throttles a guessing browser.
 */
class PortalEndToEndTest {
    private static final String ADMIN_PASSWORD = "admin-Passw0rd-portal";
    private static final String PORTAL_PASSWORD = "portal-Passw0rd-e2e";
    private static final String XSS = "<img src=x onerror=\\\"window.__xss=1\\\"><script>window.__xss=2</script>";
    private static HttpServer upstream;
    private static Pod manager;
    private static Pod worker;
    private static Pod portal;
    private static String admin;

    @BeforeAll
    static void start() throws Exception {
        String missing = BrowserScript.missingTools();
        assertThat(missing).as("the browser test needs Chromium and Node.js").isNull();
        BrowserScript.installOnce();
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        upstream.createContext("/", exchange -> {
            byte[] body = ("{\"orders\":[],\"path\":\"" + exchange.getRequestURI().getPath() + "\"}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        upstream.start();
        Map<String, String> managerSettings = new HashMap<>(Map.of(
                "pylon.manager.admin.username", "admin",
                "pylon.manager.admin.password", ADMIN_PASSWORD,
                "pylon.manager.password.argon2-memory", "1024",
                "pylon.manager.password.argon2-iterations", "1",
                "pylon.manager.portal.auto-approve-developers", "true",
                // the enumeration check makes 20 failed sign-ins from one address; the per-account limit stays 5
                "pylon.manager.signin.source-max-failures", "100",
                "pylon.manager.bootstrap.environment-urls", "worker=http://127.0.0.1:1,cache=http://127.0.0.1:2"));
        manager = TestPods.start(new ManagerModule(), "manager-portal", managerSettings);
        String managerUrl = TestPods.baseUrl(manager);
        worker = TestPods.start(new WorkerModule(), "worker-portal", Map.of(
                "pylon.worker.config-source", "manager",
                "pylon.worker.manager-url", managerUrl,
                "pylon.worker.config-poll-wait", "20s"));
        admin = token("admin", ADMIN_PASSWORD);
        send("POST", "/apiops/users", "{\"username\":\"portal\",\"password\":\"" + PORTAL_PASSWORD
                + "\",\"role\":\"portal\"}", 201);
        String openapi = "{\"openapi\":\"3.0.3\",\"info\":{\"title\":\"Orders\",\"version\":\"1\",\"description\":\""
                + XSS + "\"},\"paths\":{\"/orders\":{\"get\":{\"summary\":\"List orders\",\"responses\":"
                + "{\"200\":{\"description\":\"OK\"}}}}}}";
        send("POST", "/apiops/proxies/import", "{\"document\":" + quote(openapi) + ",\"name\":\"orders\","
                + "\"pathPrefix\":\"/orders\",\"upstreams\":[\"http://127.0.0.1:" + upstream.getAddress().getPort()
                + "\"]}", 201);
        HttpResponse<String> current = send("GET", "/apiops/proxies/orders", null, 200);
        com.fasterxml.jackson.databind.node.ObjectNode definition = (com.fasterxml.jackson.databind.node.ObjectNode)
                io.pylon.core.http.Json.MAPPER.readTree(current.body()).path("definition");
        definition.putObject("keyAuth");
        definition.put("description", XSS.replace("\\\"", "\""));
        String keyed = definition.toString();
        HttpRequest put = HttpRequest.newBuilder(URI.create(managerUrl + "/apiops/proxies/orders"))
                .header("Authorization", "Bearer " + admin).header("Content-Type", "application/json")
                .header("If-Match", "\"1\"").PUT(HttpRequest.BodyPublishers.ofString(keyed)).build();
        HttpResponse<String> changed = TestPods.send(put);
        assertThat(changed.statusCode()).as(keyed + " -> " + changed.body()).isEqualTo(200);
        send("POST", "/apiops/environments/test/deployments", "{\"proxies\":[\"orders\"],\"wait\":\"20s\"}", 201);
        send("PUT", "/apiops/publications/orders", "{\"autoApprove\":true}", 200);
        // a second API with keys, deployed but not yet published: the admin publishes it in the Manager UI
        String billing = "{\"openapi\":\"3.0.3\",\"info\":{\"title\":\"Billing\",\"version\":\"1\"},"
                + "\"paths\":{\"/invoices\":{\"get\":{\"summary\":\"List invoices\",\"responses\":"
                + "{\"200\":{\"description\":\"OK\"}}}}}}";
        send("POST", "/apiops/proxies/import", "{\"document\":" + quote(billing) + ",\"name\":\"billing\","
                + "\"pathPrefix\":\"/billing\",\"upstreams\":[\"http://127.0.0.1:" + upstream.getAddress().getPort()
                + "\"]}", 201);
        com.fasterxml.jackson.databind.node.ObjectNode billingDefinition = (com.fasterxml.jackson.databind.node.ObjectNode)
                io.pylon.core.http.Json.MAPPER.readTree(send("GET", "/apiops/proxies/billing", null, 200).body())
                        .path("definition");
        billingDefinition.putObject("keyAuth");
        billingDefinition.put("stripPrefix", true);
        HttpResponse<String> keyedBilling = TestPods.send(HttpRequest.newBuilder(URI.create(managerUrl
                        + "/apiops/proxies/billing")).header("Authorization", "Bearer " + admin)
                .header("Content-Type", "application/json").header("If-Match", "\"1\"")
                .PUT(HttpRequest.BodyPublishers.ofString(billingDefinition.toString())).build());
        assertThat(keyedBilling.statusCode()).as(keyedBilling.body()).isEqualTo(200);
        send("POST", "/apiops/environments/test/deployments", "{\"proxies\":[\"orders\",\"billing\"],"
                + "\"wait\":\"20s\"}", 201);
        portal = TestPods.start(new PortalModule(), "portal-e2e", Map.of(
                "pylon.portal.manager-url", managerUrl,
                "pylon.portal.manager-password", PORTAL_PASSWORD));
        // the environment names its real Worker and Portal: "Try it" calls that Worker from the Portal's origin
        send("PUT", "/apiops/environments/test", "{\"type\":\"test\",\"urls\":{\"worker\":\""
                + TestPods.baseUrl(worker) + "\",\"cache\":\"http://127.0.0.1:2\",\"portal\":\""
                + TestPods.baseUrl(portal) + "\"}}", 200);
    }

    @AfterAll
    static void stop() {
        for (Pod pod : new Pod[]{portal, worker, manager}) {
            if (pod != null) {
                pod.stop();
            }
        }
        if (upstream != null) {
            upstream.stop(0);
        }
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String token(String user, String password) {
        HttpResponse<String> response = TestPods.send(HttpRequest.newBuilder(URI.create(TestPods.baseUrl(manager)
                        + "/apiops/auth/token")).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&client_id=" + user
                        + "&client_secret=" + password)).build());
        assertThat(response.statusCode()).isEqualTo(200);
        String body = response.body();
        int start = body.indexOf("\"access_token\":\"") + 16;
        return body.substring(start, body.indexOf('"', start));
    }

    private static HttpResponse<String> send(String method, String path, String json, int expected) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(TestPods.baseUrl(manager) + path))
                .header("Authorization", "Bearer " + admin)
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        HttpResponse<String> response = TestPods.send(request.build());
        assertThat(response.statusCode()).as(method + " " + path + ": " + response.body()).isEqualTo(expected);
        return response;
    }

    private static void phase(String phase) {
        BrowserScript.Result result = BrowserScript.script("portal.e2e.mjs", phase, Map.of(
                "PORTAL_URL", TestPods.baseUrl(portal),
                "WORKER_URL", TestPods.baseUrl(worker),
                "MANAGER_URL", TestPods.baseUrl(manager),
                "ADMIN_PASSWORD", ADMIN_PASSWORD));
        assertThat(result.exitCode()).as(result.output()).isZero();
        System.out.print(result.output()); // the figures the script measured (revocation, rotation, sign-in timing)
    }

    @Test
    void anAdminPublishesAndApprovesInTheManagerUiAndTheKeyThenWorks() {
        phase("admin");
    }

    @Test
    void anAdminKeepsPlansAndGivesOneToASubscriptionInTheManagerUi() {
        phase("plans");
    }

    @Test
    void tryItCallsTheRealWorkerFromTheDocsPage() {
        phase("tryit");
    }

    @Test
    void keysRotateAndSignInResistsFixationEnumerationAndGuessing() {
        phase("security");
    }

    @Test
    void aDeveloperGetsAKeyCallsTheApiAndRevokesIt() {
        phase("journey");
    }

    @Test
    void hostileInputIsRefusedOrEscaped() {
        phase("hostile");
    }
}
