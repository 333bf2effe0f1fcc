package io.pylon.worker.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;

import static io.pylon.worker.config.ControlPlane.json;
import static io.pylon.worker.config.ControlPlane.proxy;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Manager and two real Worker pods in manager mode: a proxy defined once is deployed with one call, answered
 * when both pods applied it, served by both, shown in sync; rollback; a Worker restarted while the Manager is down
 * serves its disk copy; a Worker with neither answers 503 and stays unready.
 */
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
class WorkersFollowManagerTest {
    static ControlPlane cp;
    static TestUpstream blue;
    static TestUpstream green;
    static Pod one;
    static Pod two;
    static Path oneData;

    @BeforeAll
    static void start() throws Exception {
        oneData = Files.createTempDirectory("pylon-gw-one");
        cp = new ControlPlane();
        blue = TestUpstream.echo("blue");
        green = TestUpstream.echo("green");
        one = ControlPlane.worker("gw-one", cp.url(), Map.of("pylon.data.dir", oneData.toString()));
        two = ControlPlane.worker("gw-two", cp.url(), Map.of());
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
        for (Pod pod : new Pod[]{one, two}) {
            if (pod != null) {
                pod.stop();
            }
        }
        cp.close();
    }

    @Test
    @org.junit.jupiter.api.Order(1)
    void deployReachesEveryPodAndRollbackRestores() throws Exception {
        // before any deployment the environment serves version 0 (no proxies): the pods are ready and answer 404
        ControlPlane.await("both pods ready", () -> ready(one) && ready(two));
        assertThat(TestPods.get(one, "/orders/1").statusCode()).isEqualTo(404);

        HttpResponse<String> created = cp.post("/apiops/proxies", proxy("orders", "/orders", blue.url()));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(created.headers().firstValue("ETag")).hasValue("\"1\"");

        HttpResponse<String> deployed = cp.post("/apiops/environments/test/deployments",
                "{\"proxies\":[\"orders\"],\"comment\":\"first\",\"wait\":\"20s\"}");
        assertThat(deployed.statusCode()).as(deployed.body()).isEqualTo(201);
        JsonNode result = json(deployed.body());
        assertThat(result.path("version").asLong()).isEqualTo(1);
        assertThat(result.path("hash").asText()).hasSize(64);
        assertThat(result.path("deploymentResult").path("success").asBoolean()).as(deployed.body()).isTrue();
        JsonNode details = result.path("deploymentResult").path("detailList");
        assertThat(details).hasSize(2);
        for (JsonNode detail : details) {
            assertThat(detail.path("envName").asText()).isEqualTo("test");
            assertThat(detail.path("success").asBoolean()).isTrue();
            assertThat(detail.path("appliedVersion").asLong()).isEqualTo(1);
            assertThat(detail.path("podIp").asText()).isEqualTo("127.0.0.1");
            assertThat(detail.path("responseTime").isNumber()).isTrue();
            assertThat(detail.path("error").isNull()).isTrue();
        }
        assertThat(TestPods.get(one, "/orders/1").body()).isEqualTo("blue GET /orders/1");
        assertThat(TestPods.get(two, "/orders/1").body()).isEqualTo("blue GET /orders/1");

        // a change: a new revision, deployed; both pods move to version 2
        HttpResponse<String> changed = cp.send("PUT", "/apiops/proxies/orders", cp.admin, "application/json",
                proxy("orders", "/orders", green.url()), "If-Match", "\"1\"");
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
        HttpResponse<String> second = cp.post("/apiops/environments/test/deployments",
                "{\"proxies\":[\"orders\"],\"wait\":\"20s\"}");
        assertThat(json(second.body()).path("deploymentResult").path("success").asBoolean()).as(second.body()).isTrue();
        assertThat(TestPods.get(one, "/orders/1").body()).isEqualTo("green GET /orders/1");

        JsonNode status = json(cp.get("/apiops/environments/test/gateway-status").body());
        assertThat(status.path("version").asLong()).isEqualTo(2);
        assertThat(status.path("pods")).hasSize(2);
        for (JsonNode pod : status.path("pods")) {
            assertThat(pod.path("inSync").asBoolean()).as(status.toString()).isTrue();
            assertThat(pod.path("state").asText()).isEqualTo("in-sync");
            assertThat(pod.path("source").asText()).isEqualTo("manager");
        }

        // the pod's own view: the config diagnostics section
        String diagnostics = TestPods.get(one, "/platform/diagnostics/config?internal=true", "Authorization", TestPods.ENVIRONMENT_ID).body();
        JsonNode config = json(diagnostics).path("config");
        assertThat(config.path("appliedVersion").asLong()).as(diagnostics).isEqualTo(2);
        assertThat(config.path("source").asText()).isEqualTo("manager");
        assertThat(config.path("routeCount").asInt()).isEqualTo(1);

        // rollback to version 1: a new number, blue again
        HttpResponse<String> rollback = cp.post("/apiops/environments/test/deployments/1/rollback", "{\"wait\":\"20s\"}");
        assertThat(rollback.statusCode()).as(rollback.body()).isEqualTo(201);
        assertThat(json(rollback.body()).path("version").asLong()).isEqualTo(3);
        assertThat(json(rollback.body()).path("deploymentResult").path("success").asBoolean()).isTrue();
        assertThat(TestPods.get(two, "/orders/1").body()).isEqualTo("blue GET /orders/1");
        JsonNode history = json(cp.get("/apiops/environments/test/deployments").body()).path("deployments");
        assertThat(history).hasSize(3);
        assertThat(history.get(0).path("kind").asText()).isEqualTo("rollback");
        assertThat(history.get(0).path("fromVersion").asLong()).isEqualTo(1);

        // the pods' disk copies are the bundle in force, readable by the pod's user only
        Path copy = oneData.resolve("gateway").resolve("bundle.json");
        assertThat(json(Files.readString(copy)).path("version").asLong()).isEqualTo(3);
        assertThat(Files.getPosixFilePermissions(copy)).isEqualTo(PosixFilePermissions.fromString("rw-------"));

        // export the environment as YAML and import it elsewhere
        HttpResponse<String> exported = cp.get("/apiops/environments/test/config");
        assertThat(exported.headers().firstValue("Content-Type").orElse("")).startsWith("application/yaml");
        assertThat(exported.body()).contains("name: orders", "version: 3");

        // undeploy: the proxy goes away on every pod
        HttpResponse<String> undeployed = cp.post("/apiops/environments/test/deployments",
                "{\"undeploy\":[\"orders\"],\"wait\":\"20s\"}");
        assertThat(json(undeployed.body()).path("deploymentResult").path("success").asBoolean()).isTrue();
        assertThat(TestPods.get(one, "/orders/1").statusCode()).isEqualTo(404);
        HttpResponse<String> reimported = cp.send("PUT", "/apiops/environments/test/config?wait=20s", cp.admin,
                "application/yaml", exported.body());
        assertThat(reimported.statusCode()).as(reimported.body()).isEqualTo(200);
        assertThat(json(reimported.body()).path("deploymentResult").path("success").asBoolean()).isTrue();
        assertThat(TestPods.get(one, "/orders/1").body()).isEqualTo("blue GET /orders/1");
    }

    @Test
    @org.junit.jupiter.api.Order(4)
    void aWorkerRestartedDuringAManagerOutageServesItsDiskCopy() throws Exception {
        HttpResponse<String> created = cp.post("/apiops/proxies", proxy("disk-check", "/disk", blue.url()));
        assertThat(created.statusCode()).isIn(201, 409);
        String data = Files.createTempDirectory("pylon-gw-disk").toString();
        Pod first = ControlPlane.worker("gw-disk", cp.url(), Map.of("pylon.data.dir", data));
        try {
            HttpResponse<String> deployed = cp.post("/apiops/environments/test/deployments",
                    "{\"proxies\":[\"disk-check\"],\"wait\":\"20s\"}");
            assertThat(json(deployed.body()).path("deploymentResult").path("success").asBoolean())
                    .as(deployed.body()).isTrue();
        } finally {
            first.stop();
        }
        // it said it was leaving: the Manager no longer counts it
        assertThat(cp.get("/apiops/environments/test/gateway-status").body()).doesNotContain("gw-disk");
        // a Manager URL nothing listens on: the Manager is down
        String down = "http://127.0.0.1:" + TestUpstream.refusedPort();
        Pod restarted = ControlPlane.worker("gw-disk", down, Map.of("pylon.data.dir", data));
        try {
            ControlPlane.await("disk copy applied", () -> ready(restarted));
            assertThat(TestPods.get(restarted, "/disk/x").body()).isEqualTo("blue GET /disk/x");
            JsonNode config = json(TestPods.get(restarted, "/platform/diagnostics/config?internal=true", "Authorization", TestPods.ENVIRONMENT_ID).body()).path("config");
            assertThat(config.path("source").asText()).isEqualTo("disk");
            assertThat(config.path("lastError").asText()).contains("cannot be reached");
        } finally {
            restarted.stop();
        }
        // neither Manager nor disk copy: not ready, and no configured path answers 404
        Pod empty = ControlPlane.worker("gw-empty", down, Map.of());
        try {
            Thread.sleep(500);
            assertThat(ready(empty)).isFalse();
            HttpResponse<String> answer = TestPods.get(empty, "/disk/x");
            assertThat(answer.statusCode()).isEqualTo(503);
            assertThat(answer.body()).contains("not_configured");
        } finally {
            empty.stop();
        }
    }

    @Test
    @org.junit.jupiter.api.Order(2)
    void twoOperatorsEditingAtOnceOneGets412() {
        cp.post("/apiops/proxies", proxy("contested", "/contested", blue.url()));
        HttpResponse<String> first = cp.send("PUT", "/apiops/proxies/contested", cp.admin, "application/json",
                proxy("contested", "/contested/a", blue.url()), "If-Match", "\"1\"");
        HttpResponse<String> second = cp.send("PUT", "/apiops/proxies/contested", cp.admin, "application/json",
                proxy("contested", "/contested/b", blue.url()), "If-Match", "\"1\"");
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(second.statusCode()).isEqualTo(412);
        assertThat(second.body()).contains("revision 2");
        JsonNode revisions = json(cp.get("/apiops/proxies/contested/revisions").body()).path("revisions");
        assertThat(revisions).hasSize(2);
        JsonNode diff = json(cp.get("/apiops/proxies/contested/diff?from=1&to=2").body());
        assertThat(diff.path("patch").toString()).contains("\"op\":\"replace\"", "/pathPrefix", "/contested/a");
    }

    @Test
    @org.junit.jupiter.api.Order(3)
    void deploysUnderLoadFailNoRequest() throws Exception {
        assertThat(cp.post("/apiops/proxies", proxy("loaded", "/loaded", blue.url())).statusCode()).isEqualTo(201);
        assertThat(json(cp.post("/apiops/environments/test/deployments", "{\"proxies\":[\"loaded\"],\"wait\":\"20s\"}")
                .body()).path("deploymentResult").path("success").asBoolean()).isTrue();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger ok = new java.util.concurrent.atomic.AtomicInteger();
        java.util.Queue<String> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
        Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.List<Thread> clients = new java.util.ArrayList<>();
        for (int c = 0; c < 4; c++) {
            Pod target = c % 2 == 0 ? one : two;
            clients.add(Thread.ofVirtual().start(() -> {
                while (!stop.get()) {
                    HttpResponse<String> answer = TestPods.get(target, "/loaded/x");
                    if (answer.statusCode() == 200) {
                        ok.incrementAndGet();
                        seen.add(answer.body().split(" ")[0]);
                    } else {
                        failures.add(answer.statusCode() + " " + answer.body());
                    }
                }
            }));
        }
        int revision = 1;
        for (int i = 0; i < 10; i++) {
            TestUpstream target = i % 2 == 0 ? green : blue;
            HttpResponse<String> changed = cp.send("PUT", "/apiops/proxies/loaded", cp.admin, "application/json",
                    proxy("loaded", "/loaded", target.url()), "If-Match", "\"" + revision++ + "\"");
            assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
            HttpResponse<String> deployed = cp.post("/apiops/environments/test/deployments",
                    "{\"proxies\":[\"loaded\"],\"wait\":\"20s\"}");
            assertThat(json(deployed.body()).path("deploymentResult").path("success").asBoolean())
                    .as(deployed.body()).isTrue();
        }
        stop.set(true);
        for (Thread client : clients) {
            client.join(30_000);
        }
        assertThat(failures).as("requests that failed during 10 deploys").isEmpty();
        assertThat(ok.get()).isGreaterThan(10);
        assertThat(seen).contains("blue", "green");
        cp.post("/apiops/environments/test/deployments", "{\"undeploy\":[\"loaded\"],\"wait\":\"20s\"}");
    }

    static boolean ready(Pod pod) {
        return TestPods.get(pod, "/platform/management/health/ready").statusCode() == 200;
    }

    static Set<String> names(JsonNode list) {
        Set<String> names = new java.util.TreeSet<>();
        list.forEach(n -> names.add(n.path("name").asText()));
        return names;
    }
}
