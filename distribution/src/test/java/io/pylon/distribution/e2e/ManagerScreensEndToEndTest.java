package io.pylon.distribution.e2e;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a new operator meets in the Manager UI, in headless Chromium (src/test/e2e/manager-screens.e2e.mjs): the
 * sign-in form's answer to a wrong password, the pod panels, the audit log screen. Against a Manager, a Worker and a
 * Cache pod on this checkout's own block 127.0.44.x; screenshots in target/e2e-screenshots.
 */
class ManagerScreensEndToEndTest {
    private static LoopbackPlatform platform;
    private static Map<String, String> environment;

    @BeforeAll
    static void start() {
        String missing = BrowserScript.missingTools();
        assertThat(missing).as("the browser test needs Chromium and Node.js").isNull();
        BrowserScript.installOnce();
        platform = new LoopbackPlatform(1, 1, false, "127.0.44.", Map.of());
        environment = Map.of(
                "PYLON_URL", platform.managerUrl(),
                "PYLON_ENVIRONMENT", LoopbackPlatform.ENVIRONMENT,
                "ADMIN_USER", "admin",
                "ADMIN_PASSWORD", LoopbackPlatform.ADMIN_PASSWORD);
    }

    @AfterAll
    static void stop() {
        if (platform != null) {
            platform.close();
        }
    }

    @Test
    void aWrongPasswordShowsTheFormsErrorWithoutABrowserLoginPrompt() {
        assertPhase("signin");
    }

    @Test
    void podPanelsReadAsAPersonReadsThem() {
        assertPhase("panels");
    }

    @Test
    void theAuditLogScreenFiltersAndPages() {
        // more than one page of events: 60 sign-ins, and a user created among them
        for (int i = 0; i < 60; i++) {
            platform.token("admin", LoopbackPlatform.ADMIN_PASSWORD);
        }
        assertPhase("audit");
    }

    private static void assertPhase(String phase) {
        BrowserScript.Result result = BrowserScript.script("manager-screens.e2e.mjs", phase, environment);
        assertThat(result.exitCode()).as("browser phase %s:%n%s", phase, result.output()).isZero();
        assertThat(result.output()).contains("PHASE " + phase + " OK");
    }
}
