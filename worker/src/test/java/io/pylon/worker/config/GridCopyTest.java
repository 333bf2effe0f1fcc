package io.pylon.worker.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.pylon.cache.CacheModule;
import io.pylon.cache.client.GridBundle;
import io.pylon.cache.client.GridClusterName;
import io.pylon.cache.client.GridMaps;
import io.pylon.cache.client.GridSerialization;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.gateway.model.CanonicalJson;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static io.pylon.worker.config.ControlPlane.json;
import static io.pylon.worker.config.ControlPlane.proxy;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The copy of the bundle the Manager keeps in the Cache grid, with a real Cache pod, a real Manager and real Worker
 * pods: a Worker that cannot reach the Manager starts from the grid's copy and follows the next deployment through it;
 * with the Manager stopped a new Worker starts from it; a copy altered in the grid (bytes that do not match the hash,
 * or a new version without the environment's seal) is refused, reported, and never replaces what is served.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GridCopyTest {
    static Pod cache;
    static ControlPlane cp;
    static TestUpstream blue;
    static TestUpstream green;
    static String gridAddress;
    static Pod cutOff;
    static HazelcastInstance intruder;

    @BeforeAll
    static void start() {
        int gridPort = TestPods.freePort();
        gridAddress = "127.0.0.1:" + gridPort;
        cache = TestPods.start(new CacheModule(), "cache-bundles", Map.of(
                "pylon.grid.port", String.valueOf(gridPort), "pylon.grid.members", gridAddress));
        cp = new ControlPlane(gridClient());
        blue = TestUpstream.echo("blue");
        green = TestUpstream.echo("green");
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[]{blue, green}) {
            try {
                c.close();
            } catch (Exception e) {
                // best effort
            }
        }
        if (cutOff != null) {
            cutOff.stop();
        }
        if (intruder != null) {
            intruder.shutdown();
        }
        cp.close();
        cache.stop();
    }

    static Map<String, String> gridClient() {
        return Map.of("pylon.cache.addresses", gridAddress,
                "pylon.cache.reconnect.initial-backoff", "100ms",
                "pylon.cache.reconnect.max-backoff", "500ms");
    }

    @Test
    @Order(1)
    void aWorkerThatCannotReachTheManagerStartsFromTheGridAndFollowsDeployments() throws Exception {
        assertThat(cp.post("/apiops/proxies", proxy("grid-copy", "/grid", blue.url())).statusCode()).isEqualTo(201);
        long first = deploy();
        ControlPlane.await("the grid copy of version " + first, () -> gridVersion() == first);

        // a Manager URL nothing listens on, no disk copy: only the grid can configure it
        String unreachable = "http://127.0.0.1:" + TestUpstream.refusedPort();
        cutOff = ControlPlane.worker("gw-cut-off", unreachable, gridClient());
        ControlPlane.await("configured from the grid", () -> ready(cutOff));
        assertThat(TestPods.get(cutOff, "/grid/x").body()).isEqualTo("blue GET /grid/x");
        JsonNode config = config(cutOff);
        assertThat(config.path("source").asText()).isEqualTo("grid");
        assertThat(config.path("appliedVersion").asLong()).isEqualTo(first);
        assertThat(config.path("lastError").asText()).contains("cannot be reached");

        HttpResponse<String> changed = cp.send("PUT", "/apiops/proxies/grid-copy", cp.admin, "application/json",
                proxy("grid-copy", "/grid", green.url()), "If-Match", "\"1\"");
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
        long second = deploy();
        ControlPlane.await("the cut-off Worker following version " + second + " through the grid",
                () -> config(cutOff).path("appliedVersion").asLong() == second);
        assertThat(TestPods.get(cutOff, "/grid/x").body()).isEqualTo("green GET /grid/x");
        assertThat(config(cutOff).path("gridCopy").path("lastOutcome").asText()).isEqualTo("applied");

        // the polls have backed off to 10 s: a deployment still arrives through the grid before the next poll
        ControlPlane.await("the polls backed off", () -> config(cutOff).path("pollFailures").asLong() >= 7);
        long failures = config(cutOff).path("pollFailures").asLong();
        ControlPlane.await("a poll just failed", () -> config(cutOff).path("pollFailures").asLong() > failures);
        long before = config(cutOff).path("pollFailures").asLong();
        assertThat(cp.post("/apiops/proxies", proxy("grid-copy-more", "/more", blue.url())).statusCode())
                .isEqualTo(201);
        long third = deploy("grid-copy", "grid-copy-more");
        ControlPlane.await("version " + third + " through the grid",
                () -> config(cutOff).path("appliedVersion").asLong() == third);
        assertThat(config(cutOff).path("pollFailures").asLong()).as("applied between two polls of the Manager")
                .isEqualTo(before);
        assertThat(TestPods.get(cutOff, "/more/x").body()).isEqualTo("blue GET /more/x");
    }

    @Test
    @Order(2)
    void anEntryTheManagerDidNotWriteIsReplacedByTheManager() throws Exception {
        IMap<String, GridBundle> bundles = intruder().getMap(GridMaps.GATEWAY_BUNDLES);
        GridBundle genuine = bundles.get("test");
        byte[] foreign = "{\"proxies\":[],\"version\":999}".getBytes(StandardCharsets.UTF_8);
        bundles.set("test", new GridBundle(999, CanonicalJson.sha256(foreign), genuine.seal(), foreign));
        ControlPlane.await("the Manager restoring its copy", () -> {
            GridBundle now = bundles.get("test");
            return now.version() == genuine.version() && java.util.Arrays.equals(now.json(), genuine.json());
        });
        // the cut-off Worker read the foreign entry meanwhile (or not): it never served it
        assertThat(config(cutOff).path("appliedVersion").asLong()).isEqualTo(genuine.version());
        assertThat(TestPods.get(cutOff, "/grid/x").body()).isEqualTo("green GET /grid/x");
    }

    @Test
    @Order(3)
    void withTheManagerStoppedANewWorkerStartsFromTheGrid() throws Exception {
        String managerUrl = cp.url();
        cp.manager.stop();
        Pod fresh = ControlPlane.worker("gw-fresh", managerUrl, gridClient());
        try {
            ControlPlane.await("configured from the grid", () -> ready(fresh));
            assertThat(TestPods.get(fresh, "/grid/x").body()).isEqualTo("green GET /grid/x");
            assertThat(config(fresh).path("source").asText()).isEqualTo("grid");
        } finally {
            fresh.stop();
        }
    }

    @Test
    @Order(4)
    void aCopyAlteredInTheGridIsRefusedReportedAndNeverServed() throws Exception {
        IMap<String, GridBundle> bundles = intruder().getMap(GridMaps.GATEWAY_BUNDLES);
        GridBundle genuine = bundles.get("test");
        long served = config(cutOff).path("appliedVersion").asLong();
        assertThat(genuine.version()).isEqualTo(served);

        // someone who reached the grid (not the environment ID) writes a newer version sending traffic elsewhere,
        // with a correct SHA-256 of its bytes and the genuine copy's seal
        byte[] hijacked = new String(genuine.json(), StandardCharsets.UTF_8)
                .replace(green.url(), blue.url()).replace("\"version\":" + served, "\"version\":" + (served + 1))
                .getBytes(StandardCharsets.UTF_8);
        bundles.set("test", new GridBundle(served + 1, CanonicalJson.sha256(hijacked), genuine.seal(), hijacked));
        ControlPlane.await("the unsealed copy refused", () -> config(cutOff).path("rejectedVersion").asLong() == served + 1);
        JsonNode config = config(cutOff);
        assertThat(config.path("rejection").asText()).contains("not sealed with this environment's ID");
        assertThat(config.path("appliedVersion").asLong()).isEqualTo(served);
        assertThat(TestPods.get(cutOff, "/grid/x").body()).isEqualTo("green GET /grid/x");
        long refusals = config.path("rejections").asLong();
        Thread.sleep(3000); // several failed polls read the same copy: refused once, not each time
        assertThat(config(cutOff).path("rejections").asLong()).isEqualTo(refusals);
        assertThat(TestPods.get(cutOff, "/platform/management/metrics").body())
                .containsPattern("pylon_worker_config_rejections_total(\\{[^}]*\\})? [1-9]");

        // the genuine version and seal over altered bytes: a new Worker refuses it and stays unconfigured
        byte[] altered = genuine.json().clone();
        altered[altered.length / 2] ^= 1;
        bundles.set("test", new GridBundle(genuine.version(), genuine.sha256(), genuine.seal(), altered));
        Pod fresh = ControlPlane.worker("gw-altered", "http://127.0.0.1:" + TestUpstream.refusedPort(), gridClient());
        try {
            ControlPlane.await("the altered copy refused", () -> !config(fresh).path("rejection").isNull());
            assertThat(config(fresh).path("rejection").asText()).contains("do not match its hash");
            assertThat(ready(fresh)).isFalse();
            HttpResponse<String> answer = TestPods.get(fresh, "/grid/x");
            assertThat(answer.statusCode()).isEqualTo(503);
            assertThat(answer.body()).contains("not_configured");
        } finally {
            fresh.stop();
        }
        assertThat(TestPods.get(cutOff, "/grid/x").body()).isEqualTo("green GET /grid/x");
    }

    private static long deploy() {
        return deploy("grid-copy");
    }

    private static long deploy(String... proxies) {
        HttpResponse<String> deployed = cp.post("/apiops/environments/test/deployments",
                "{\"proxies\":[\"" + String.join("\",\"", proxies) + "\"],\"wait\":\"0s\"}");
        assertThat(deployed.statusCode()).as(deployed.body()).isEqualTo(201);
        return json(deployed.body()).path("version").asLong();
    }

    private static long gridVersion() {
        return json(cp.get("/apiops/environments/test/gateway-status").body()).path("gridCopy").path("version").asLong(-1);
    }

    private static JsonNode config(Pod pod) {
        return json(TestPods.get(pod, "/platform/diagnostics/config?internal=true", "Authorization",
                TestPods.ENVIRONMENT_ID).body()).path("config");
    }

    private static boolean ready(Pod pod) {
        return TestPods.get(pod, "/platform/management/health/ready").statusCode() == 200;
    }

    // a plain Hazelcast client that knows the cluster name: what the grid lets in, without the environment ID's seal
    private static HazelcastInstance intruder() {
        if (intruder == null) {
            ClientConfig config = new ClientConfig();
            config.setClusterName(GridClusterName.of("test", TestPods.ENVIRONMENT_ID).secret());
            config.getNetworkConfig().setAddresses(List.of(gridAddress));
            GridSerialization.register(config.getSerializationConfig());
            intruder = HazelcastClient.newHazelcastClient(config);
        }
        return intruder;
    }
}
