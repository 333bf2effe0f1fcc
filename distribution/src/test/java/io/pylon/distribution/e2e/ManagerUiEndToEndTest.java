package io.pylon.distribution.e2e;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Manager UI in headless Chromium against a Manager, two Worker and two Cache pods on loopback. Screenshots of
 * every screen land in target/e2e-screenshots. The phases run in order: the last one stops a Worker pod.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ManagerUiEndToEndTest {
    private static LoopbackPlatform platform;
    private static Map<String, String> environment;

    @BeforeAll
    static void start() {
        String missing = BrowserScript.missingTools();
        assertThat(missing).as("the browser test needs Chromium and Node.js").isNull();
        BrowserScript.installOnce();
        platform = new LoopbackPlatform(2, 2);
        environment = Map.of(
                "PYLON_URL", platform.managerUrl(),
                "PYLON_ENVIRONMENT", LoopbackPlatform.ENVIRONMENT,
                "ADMIN_USER", "admin",
                "ADMIN_PASSWORD", LoopbackPlatform.ADMIN_PASSWORD,
                "VIEWER_USER", "viewer",
                "VIEWER_PASSWORD", LoopbackPlatform.VIEWER_PASSWORD,
                "KILLED_POD", "worker-1");
    }

    @AfterAll
    static void stop() {
        if (platform != null) {
            platform.close();
        }
    }

    @Test
    @Order(1)
    void adminSeesFourPodsThreadDumpHeapDumpTokensAndSignsOut() {
        assertPhase("admin");
    }

    @Test
    @Order(2)
    void viewerSeesNoHeapDumpOrEnvAndTheApiRefusesThem() {
        assertPhase("viewer");
    }

    @Test
    @Order(3)
    void aStoppedWorkerPodShowsItsErrorAndTheRestStillRender() {
        platform.workers.get("worker-1").stop();
        assertPhase("killed");
    }

    private static void assertPhase(String phase) {
        BrowserScript.Result result = BrowserScript.phase(phase, environment);
        assertThat(result.exitCode()).as("browser phase %s:%n%s", phase, result.output()).isZero();
        assertThat(result.output()).contains("PHASE " + phase + " OK");
    }
}
