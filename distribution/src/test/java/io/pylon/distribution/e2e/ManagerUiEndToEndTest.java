package io.pylon.distribution.e2e;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.pylon.core.testing.Deadlock;
import io.pylon.core.testing.TestPods;

import java.util.List;
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
        captureADeadlock();
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

    /**
     * Two threads deadlocked on purpose in this JVM, where every pod runs: each pod's black box writes a capture of
     * it within seconds; the deadlock is then ended so that the pods' liveness is UP again for the phases.
     */
    private static void captureADeadlock() {
        try {
            Deadlock deadlock = Deadlock.create("e2e-deadlock-a", "e2e-deadlock-b");
            List<io.pylon.core.server.Pod> pods = new java.util.ArrayList<>(platform.workers.values());
            pods.addAll(platform.caches.values());
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
            for (io.pylon.core.server.Pod pod : pods) {
                while (!TestPods.get(pod, "/platform/diagnostics/postmortem?internal=true", "Authorization",
                        TestPods.ENVIRONMENT_ID).body().contains("\"trigger\":\"deadlock\"")) {
                    assertThat(System.nanoTime()).as("a deadlock capture on " + pod.identity().podName()).isLessThan(deadline);
                    Thread.sleep(100);
                }
            }
            deadlock.end();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void assertPhase(String phase) {
        BrowserScript.Result result = BrowserScript.phase(phase, environment);
        assertThat(result.exitCode()).as("browser phase %s:%n%s", phase, result.output()).isZero();
        assertThat(result.output()).contains("PHASE " + phase + " OK");
    }
}
