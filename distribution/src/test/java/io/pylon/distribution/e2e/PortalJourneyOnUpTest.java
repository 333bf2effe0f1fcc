package io.pylon.distribution.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.distribution.UpProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Portal's whole journey in headless Chromium (src/test/e2e/portal-journey.e2e.mjs) on the platform a real
 * {@code pylon up} starts, with its settings as shipped (developers wait for an admin's approval; Workers report usage
 * at their default interval): a developer signs up, an admin approves the account in the Manager UI, the developer
 * creates an application, subscribes it to the sample API {@code up} publishes, copies the key shown once, calls the
 * API from "Try it" on the docs page and gets the upstream's 200 through a Worker, revokes the key and gets 401 from
 * every Worker within 3 s, and the usage charts of the Portal and the Manager UI show exactly the calls made.
 * On this checkout's own block 127.0.40.41-47 (LocalPlatformTest has 127.0.44.x), so that a {@code ./pylon up} on
 * 127.0.0.1-7 beside it is left alone.
 */
class PortalJourneyOnUpTest {
    static final String FIRST_ADDRESS = "127.0.40.41";

    @Test
    void aDeveloperGoesFromSignUpToUsageOnPylonUp(@TempDir Path state) throws Exception {
        String missing = BrowserScript.missingTools();
        assertThat(missing).as("the browser test needs Chromium and Node.js").isNull();
        BrowserScript.installOnce();
        try (UpProcess up = UpProcess.start(state, FIRST_ADDRESS, 150, Map.of())) {
            JsonNode cluster = up.awaitCluster(state, 170);
            assertThat(up.output()).as(up.output()).contains("Portal ready");
            BrowserScript.Result result = BrowserScript.script("portal-journey.e2e.mjs", "journey", Map.of(
                    "PORTAL_URL", UpProcess.url(cluster, "portal"),
                    "MANAGER_URL", UpProcess.url(cluster, "manager"),
                    "WORKER_URLS", String.join(",", UpProcess.urls(cluster, "worker")),
                    "ADMIN_PASSWORD", cluster.path("admin").path("password").asText(),
                    "PROXY", UpProcess.KEYED_SAMPLE,
                    "PROXY_PREFIX", UpProcess.KEYED_SAMPLE_PREFIX));
            assertThat(result.exitCode()).as(result.output() + "\npylon up's output:\n" + up.output()).isZero();
            System.out.print(result.output()); // what the script measured: revocation and usage report times
        }
    }
}
