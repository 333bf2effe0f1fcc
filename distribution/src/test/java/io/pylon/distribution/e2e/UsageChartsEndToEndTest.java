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
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The usage charts in headless Chromium (src/test/e2e/usage.e2e.mjs) on real pods: a Manager, a Worker following it
 * and reporting usage every 300 ms, a Portal pod, a real upstream that answers 500 on {@code /fail}. A developer's
 * 7 good and 3 failed calls show as exactly 10 requests and 3 errors in the Portal's chart of their application and
 * in the Manager's API usage screen.
 */
class UsageChartsEndToEndTest {
    private static final String ADMIN_PASSWORD = "admin-Passw0rd-usage";
    private static final String PORTAL_PASSWORD = "portal-Passw0rd-usage";
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
            boolean fail = exchange.getRequestURI().getPath().endsWith("/fail");
            byte[] body = "{\"orders\":[]}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(fail ? 500 : 200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        upstream.start();
        manager = TestPods.start(new ManagerModule(), "manager-usage", Map.of(
                "pylon.manager.admin.username", "admin",
                "pylon.manager.admin.password", ADMIN_PASSWORD,
                "pylon.manager.password.argon2-memory", "1024",
                "pylon.manager.password.argon2-iterations", "1",
                "pylon.manager.portal.auto-approve-developers", "true",
                "pylon.manager.bootstrap.environment-urls", "worker=http://127.0.0.1:1,cache=http://127.0.0.1:2"));
        String managerUrl = TestPods.baseUrl(manager);
        worker = TestPods.start(new WorkerModule(), "worker-usage", Map.of(
                "pylon.worker.config-source", "manager",
                "pylon.worker.manager-url", managerUrl,
                "pylon.worker.config-poll-wait", "20s",
                "pylon.worker.usage.report-interval", "300ms"));
        admin = token();
        send("POST", "/apiops/users", "{\"username\":\"portal\",\"password\":\"" + PORTAL_PASSWORD
                + "\",\"role\":\"portal\"}", 201);
        send("POST", "/apiops/proxies", "{\"name\":\"orders\",\"pathPrefix\":\"/orders\",\"upstreams\":"
                + "[\"http://127.0.0.1:" + upstream.getAddress().getPort() + "\"],\"keyAuth\":{}}", 201);
        send("POST", "/apiops/environments/test/deployments", "{\"proxies\":[\"orders\"],\"wait\":\"20s\"}", 201);
        send("PUT", "/apiops/publications/orders", "{\"autoApprove\":true}", 200);
        portal = TestPods.start(new PortalModule(), "portal-usage", Map.of(
                "pylon.portal.manager-url", managerUrl,
                "pylon.portal.manager-password", PORTAL_PASSWORD));
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

    private static String token() {
        HttpResponse<String> response = TestPods.send(HttpRequest.newBuilder(URI.create(TestPods.baseUrl(manager)
                        + "/apiops/auth/token")).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&client_id=admin"
                        + "&client_secret=" + ADMIN_PASSWORD)).build());
        assertThat(response.statusCode()).isEqualTo(200);
        String body = response.body();
        int start = body.indexOf("\"access_token\":\"") + 16;
        return body.substring(start, body.indexOf('"', start));
    }

    private static void send(String method, String path, String json, int expected) {
        HttpResponse<String> response = TestPods.send(HttpRequest.newBuilder(URI.create(TestPods.baseUrl(manager)
                        + path)).header("Authorization", "Bearer " + admin).header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(json)).build());
        assertThat(response.statusCode()).as(method + " " + path + ": " + response.body()).isEqualTo(expected);
    }

    @Test
    void thePortalAndTheManagerChartExactlyTheCallsMade() {
        BrowserScript.Result result = BrowserScript.script("usage.e2e.mjs", "charts", Map.of(
                "PORTAL_URL", TestPods.baseUrl(portal),
                "WORKER_URL", TestPods.baseUrl(worker),
                "MANAGER_URL", TestPods.baseUrl(manager),
                "ADMIN_PASSWORD", ADMIN_PASSWORD));
        assertThat(result.exitCode()).as(result.output()).isZero();
    }
}
