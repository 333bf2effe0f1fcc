package io.pylon.worker.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.LogCapture;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.logging.Level;

import static io.pylon.worker.config.ControlPlane.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Manager deploys a bundle that a real Worker refuses (a proxy names a CA file the Worker does not have, which
 * only the Worker can know). The Worker reports the refusal, keeps serving what it had, and says it once; it asks for
 * the refused bundle again only after a back-off (1 s, doubling), so neither pod spins: before, it fetched the same
 * bundle back to back, about 650 refusals and log lines a second, each poll a write on the Manager's database. A
 * deployment that mends the bundle still arrives at once.
 */
class RefusedBundleTest {
    static ControlPlane cp;
    static TestUpstream blue;
    static Pod worker;

    @BeforeAll
    static void start() {
        cp = new ControlPlane();
        blue = TestUpstream.echo("blue");
        worker = ControlPlane.worker("gw-refuses", cp.url(), Map.of("pylon.worker.config-poll-wait", "5s"));
    }

    @AfterAll
    static void stop() {
        if (worker != null) {
            worker.stop();
        }
        blue.close();
        cp.close();
    }

    @Test
    void aRefusedBundleIsSaidOnceFetchedAgainAfterABackOffAndAMendedOneArrivesAtOnce() throws Exception {
        ControlPlane.await("the Worker is ready", () -> TestPods.get(worker, "/platform/management/health/ready")
                .statusCode() == 200);
        assertThat(cp.post("/apiops/proxies", ControlPlane.proxy("orders", "/orders", blue.url())).statusCode())
                .isEqualTo(201);
        deploy("[\"orders\"]", true);

        try (LogCapture log = LogCapture.open(Level.INFO)) {
            assertThat(cp.post("/apiops/proxies", "{\"name\":\"secure\",\"pathPrefix\":\"/secure\","
                    + "\"upstreams\":[\"https://127.0.0.1:9\"],\"upstreamTls\":{\"caFile\":\"/nonexistent/ca.pem\"}}")
                    .statusCode()).isEqualTo(201);
            deploy("[\"orders\", \"secure\"]", false);
            long before = config().path("rejections").asLong();
            Thread.sleep(5_000);
            JsonNode after = config();
            // fetched again 1 s and 3 s after the first refusal (then 7 s, 15 s ... up to every 60 s)
            assertThat(after.path("rejections").asLong() - before).as("refusals of the same bundle in 5 s")
                    .isBetween(1L, 3L);
            assertThat(after.path("appliedVersion").asLong()).isEqualTo(1);
            assertThat(after.path("rejection").asText()).contains("/nonexistent/ca.pem");
            assertThat(TestPods.get(worker, "/orders/1").body()).isEqualTo("blue GET /orders/1");
            assertThat(log.lines().stream().filter(line -> line.contains("version 2 refused"))).hasSize(1);
        }

        // a bundle without the refused proxy is taken within the deployment's wait, not after the back-off
        long start = System.nanoTime();
        deploy("[], \"undeploy\": [\"secure\"]", true);
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms until the mended bundle was applied")
                .isLessThan(3_000);
        assertThat(config().path("appliedVersion").asLong()).isEqualTo(3);
    }

    private static void deploy(String proxies, boolean succeeds) {
        HttpResponse<String> deployed = cp.post("/apiops/environments/test/deployments",
                "{\"proxies\":" + proxies + ",\"wait\":\"20s\"}");
        assertThat(deployed.statusCode()).as(deployed.body()).isEqualTo(201);
        assertThat(json(deployed.body()).path("deploymentResult").path("success").asBoolean()).as(deployed.body())
                .isEqualTo(succeeds);
    }

    static JsonNode config() {
        return json(TestPods.get(worker, "/platform/diagnostics/config?internal=true", "Authorization",
                TestPods.ENVIRONMENT_ID).body()).path("config");
    }
}
