package io.pylon.distribution.e2e;

import com.sun.net.httpserver.HttpServer;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.integration.IntegrationModule;
import io.pylon.manager.ManagerModule;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Flows screen in headless Chromium (src/test/e2e/flow-screens.e2e.mjs), against a real Manager and a real
 * Integration pod that runs the flow's steps against a local JSON API: {@code /rates} answers rates, {@code /broken}
 * a 500, the failure the screen must explain. An operator writes, fixes, runs and reads a flow; a viewer reads only.
 * Screenshots in target/e2e-screenshots.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FlowScreensEndToEndTest {
    static final String ADMIN_PASSWORD = "flow-ui-Admin-Passw0rd";
    static final String OPERATOR_PASSWORD = "flow-ui-Operator-Passw0rd";
    static final String VIEWER_PASSWORD = "flow-ui-Viewer-Passw0rd";
    static Pod manager;
    static Pod integration;
    static HttpServer stub;
    static Map<String, String> environment;

    @BeforeAll
    static void start() throws Exception {
        String missing = BrowserScript.missingTools();
        assertThat(missing).as("the browser test needs Chromium and Node.js").isNull();
        BrowserScript.installOnce();
        stub = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        stub.createContext("/rates", exchange -> answer(exchange, 200, "{\"rates\":[{\"code\":\"EUR\",\"value\":1.08}]}"));
        stub.createContext("/broken", exchange -> answer(exchange, 500, "{\"error\":\"down for maintenance\"}"));
        stub.start();
        int managerPort = TestPods.freePort();
        integration = TestPods.start(new IntegrationModule(), "integration-0", Map.of(
                "pylon.integration.manager-url", "http://127.0.0.1:" + managerPort,
                "pylon.integration.allowed-hosts", "127.0.0.1"));
        manager = TestPods.start(new ManagerModule(), "manager-0", Map.of(
                "pylon.server.port", String.valueOf(managerPort),
                "pylon.manager.admin.password", ADMIN_PASSWORD,
                "pylon.manager.password.argon2-memory", "1024",
                "pylon.manager.password.argon2-iterations", "1",
                "pylon.manager.bootstrap.environment-urls", "worker=http://127.0.0.1:1,cache=http://127.0.0.1:2",
                "pylon.manager.integration-url", TestPods.baseUrl(integration)));
        String admin = ManagerAccounts.token(manager, "admin", ADMIN_PASSWORD);
        ManagerAccounts.create(manager, admin, "operator", "operator", OPERATOR_PASSWORD);
        ManagerAccounts.create(manager, admin, "viewer", "viewer", VIEWER_PASSWORD);
        environment = Map.of(
                "PYLON_URL", TestPods.baseUrl(manager),
                "STUB_URL", "http://127.0.0.1:" + stub.getAddress().getPort(),
                "OPERATOR_PASSWORD", OPERATOR_PASSWORD,
                "VIEWER_PASSWORD", VIEWER_PASSWORD);
    }

    private static void answer(com.sun.net.httpserver.HttpExchange exchange, int status, String json) throws java.io.IOException {
        exchange.getRequestBody().readAllBytes();
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    @AfterAll
    static void stop() {
        for (Pod pod : new Pod[]{manager, integration}) {
            if (pod != null) {
                pod.stop();
            }
        }
        if (stub != null) {
            stub.stop(0);
        }
    }

    @Test
    @Order(1)
    void anOperatorWritesRunsAndReadsAFailedFlow() {
        assertPhase("operator");
        // what the screen showed is what the Manager recorded: the changes and the run, by the operator
        HttpResponse<String> audit = TestPods.send(HttpRequest.newBuilder(URI.create(TestPods.baseUrl(manager)
                + "/apiops/audit?limit=50")).header("Authorization", "Bearer " + ManagerAccounts.token(manager, "admin", ADMIN_PASSWORD)).build());
        assertThat(audit.body()).contains("flow.created", "flow.run", "flow.disabled", "flow.enabled").contains("operator");
    }

    @Test
    @Order(2)
    void aViewerReadsButCannotChange() {
        assertPhase("viewer");
    }

    private static void assertPhase(String phase) {
        BrowserScript.Result result = BrowserScript.script("flow-screens.e2e.mjs", phase, environment);
        assertThat(result.exitCode()).as("browser phase %s:%n%s", phase, result.output()).isZero();
        assertThat(result.output()).contains("PHASE " + phase + " OK");
    }
}
