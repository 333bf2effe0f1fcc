package io.pylon.distribution.e2e;

import com.sun.net.httpserver.HttpServer;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.manager.ManagerModule;
import io.pylon.worker.WorkerModule;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The API proxies, Deploy, Deployments and Gateway status screens, and Server Management's gateway configuration, in
 * headless Chromium
 * (src/test/e2e/gateway-screens.e2e.mjs), against a real Manager and two real Worker pods following it. Pod
 * {@code gw-two} has its platform paths under {@code /ops}: a proxy there is one the Manager accepts and that pod
 * refuses, the rejection the screens must show. Screenshots in target/e2e-screenshots.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GatewayScreensEndToEndTest {
    static final String ADMIN_PASSWORD = "gw-ui-Admin-Passw0rd";
    static final String VIEWER_PASSWORD = "gw-ui-Viewer-Passw0rd";
    static Pod manager;
    static Pod one;
    static Pod two;
    static HttpServer upstream;
    static Map<String, String> environment;

    @BeforeAll
    static void start() throws Exception {
        String missing = BrowserScript.missingTools();
        assertThat(missing).as("the browser test needs Chromium and Node.js").isNull();
        BrowserScript.installOnce();
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        upstream.createContext("/", exchange -> {
            byte[] body = ("upstream " + exchange.getRequestURI().getPath()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        upstream.start();
        Map<String, String> settings = new HashMap<>();
        settings.put("pylon.manager.admin.password", ADMIN_PASSWORD);
        settings.put("pylon.manager.password.argon2-memory", "1024");
        settings.put("pylon.manager.password.argon2-iterations", "1");
        // gw-one is the environment's Worker service: Server Management lists it with its own config section
        int onePort = TestPods.freePort();
        settings.put("pylon.manager.bootstrap.environment-urls", "worker=http://127.0.0.1:" + onePort
                + ",cache=http://127.0.0.1:2");
        manager = TestPods.start(new ManagerModule(), "manager-0", settings);
        one = worker("gw-one", Map.of("pylon.server.port", String.valueOf(onePort)));
        two = worker("gw-two", Map.of("pylon.path.segment", "ops"));
        ManagerAccounts.create(manager, ManagerAccounts.token(manager, "admin", ADMIN_PASSWORD), "viewer", "viewer",
                VIEWER_PASSWORD);
        environment = Map.of(
                "PYLON_URL", TestPods.baseUrl(manager),
                "PYLON_ENVIRONMENT", "test",
                "UPSTREAM_URL", "http://127.0.0.1:" + upstream.getAddress().getPort(),
                "ADMIN_PASSWORD", ADMIN_PASSWORD,
                "VIEWER_PASSWORD", VIEWER_PASSWORD);
    }

    static Pod worker(String name, Map<String, String> extra) {
        Map<String, String> settings = new HashMap<>(extra);
        settings.put("pylon.worker.config-source", "manager");
        settings.put("pylon.worker.manager-url", TestPods.baseUrl(manager));
        settings.put("pylon.worker.config-poll-wait", "5s");
        settings.put("pylon.worker.config-manager-timeout", "2s");
        return TestPods.start(new WorkerModule(), name, settings);
    }

    @AfterAll
    static void stop() {
        for (Pod pod : new Pod[]{one, two, manager}) {
            if (pod != null) {
                pod.stop();
            }
        }
        if (upstream != null) {
            upstream.stop(0);
        }
    }

    @Test
    @Order(1)
    void anOperatorCreatesDeploysSeesARejectionAndRollsBack() {
        assertPhase("operator");
        // what the screens showed is what the pods serve: version 1's /orders on both after the rollback
        assertThat(TestPods.get(one, "/orders/1").body()).isEqualTo("upstream /orders/1");
        assertThat(TestPods.get(two, "/orders/1").body()).isEqualTo("upstream /orders/1");
    }

    @Test
    @Order(2)
    void aViewerSeesTheScreensReadOnly() {
        assertPhase("viewer");
    }

    private static void assertPhase(String phase) {
        BrowserScript.Result result = BrowserScript.script("gateway-screens.e2e.mjs", phase, environment);
        assertThat(result.exitCode()).as("browser phase %s:%n%s", phase, result.output()).isZero();
        assertThat(result.output()).contains("PHASE " + phase + " OK");
    }
}
