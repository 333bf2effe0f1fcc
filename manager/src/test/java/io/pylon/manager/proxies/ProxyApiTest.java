package io.pylon.manager.proxies;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.manager.ManagerClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import static io.pylon.manager.ManagerClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The proxy and deployment API over HTTP against a real Manager: roles, hostile names and paths, every refusal a 4xx
 * naming the field, OpenAPI import, a bundle of 1,000 proxies, and the long-poll's answers.
 */
class ProxyApiTest {
    private static Pod pod;
    private static ManagerClient manager;
    private static String admin;
    private static String viewer;
    private static String operator;

    @BeforeAll
    static void start() {
        pod = ManagerClient.start("manager-proxies", Map.of("pylon.manager.bootstrap.environment-urls",
                "worker=http://127.0.0.1:1,cache=http://127.0.0.1:2"));
        manager = new ManagerClient(pod);
        admin = manager.adminToken();
        manager.createUser(admin, "viewer", "Viewer-pass-1234", "viewer");
        manager.createUser(admin, "operator", "Operator-pass-1234", "operator");
        viewer = manager.token("viewer", "Viewer-pass-1234");
        operator = manager.token("operator", "Operator-pass-1234");
    }

    @AfterAll
    static void stop() {
        pod.stop();
    }

    static String proxy(String name, String prefix) {
        return "{\"name\":\"" + name + "\",\"pathPrefix\":\"" + prefix + "\",\"upstreams\":[\"http://127.0.0.1:9\"]}";
    }

    @Test
    void viewersReadOperatorsWrite() {
        assertThat(manager.postJson("/apiops/proxies", operator, proxy("by-operator", "/op")).statusCode()).isEqualTo(201);
        HttpResponse<String> refused = manager.postJson("/apiops/proxies", viewer, proxy("by-viewer", "/v"));
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(manager.get("/apiops/proxies/by-operator", viewer).statusCode()).isEqualTo(200);
        HttpResponse<String> deploy = manager.postJson("/apiops/environments/test/deployments", viewer,
                "{\"proxies\":[\"by-operator\"]}");
        assertThat(deploy.statusCode()).isEqualTo(403);
        assertThat(deploy.body()).contains("insufficient_scope");
        HttpResponse<String> byOperator = manager.postJson("/apiops/environments/test/deployments", operator,
                "{\"proxies\":[\"by-operator\"],\"wait\":\"0s\"}");
        assertThat(byOperator.statusCode()).as(byOperator.body()).isEqualTo(201);
        JsonNode result = json(byOperator).path("deploymentResult");
        // no Worker pod applies it (none polls, or only the long-poll probe of another test, which applies nothing)
        assertThat(result.path("success").asBoolean()).isFalse();
        assertThat(manager.delete("/apiops/proxies/by-operator", operator).statusCode()).isEqualTo(409);
        manager.postJson("/apiops/environments/test/deployments", operator, "{\"undeploy\":[\"by-operator\"],\"wait\":\"0s\"}");
        assertThat(manager.delete("/apiops/proxies/by-operator", operator).statusCode()).isEqualTo(204);
    }

    @Test
    void hostileNamesPathsAndBodiesAre4xxNamingTheField() {
        String tenK = "x".repeat(10_240);
        Map<String, String> bodies = Map.of(
                proxy("..", "/a"), "'name'",
                proxy("a%2e", "/a"), "'name'",
                proxy("ctl\\u0001x", "/a"), "'name'",
                proxy(tenK, "/a"), "'name'",
                proxy("dots", "/a/../b"), "'pathPrefix'",
                proxy("enc", "/a/%2e%2e/b"), "'pathPrefix'",
                proxy("ctl", "/a\\u0007"), "'pathPrefix'",
                proxy("long", "/" + tenK), "'pathPrefix'",
                proxy("mine", "/platform/management"), "reserved",
                "{\"name\":\"u\",\"pathPrefix\":\"/u\",\"upstreams\":[\"file:///etc/passwd\"]}", "'upstreams[0]'");
        bodies.forEach((body, field) -> {
            HttpResponse<String> answer = manager.postJson("/apiops/proxies", admin, body);
            assertThat(answer.statusCode()).as(body.length() > 200 ? body.substring(0, 200) : body).isEqualTo(400);
            assertThat(answer.body()).contains(field).doesNotContain(tenK);
            assertThat(answer.body().length()).isLessThan(2000);
        });
        HttpResponse<String> rateLimit = manager.postJson("/apiops/proxies", admin,
                "{\"name\":\"rl\",\"pathPrefix\":\"/rl\",\"upstreams\":[\"http://127.0.0.1:1\"],\"rateLimit\":{\"requests\":-1}}");
        assertThat(rateLimit.body()).as("the field alone, for a form to show the error there")
                .contains("\"details\":{\"field\":\"rateLimit.requests\"}");
        assertThat(manager.get("/apiops/proxies/..", admin).statusCode()).isIn(400, 404);
        assertThat(manager.get("/apiops/proxies/%2e%2e", admin).statusCode()).isIn(400, 404);
        assertThat(manager.get("/apiops/proxies/" + tenK, admin).statusCode()).isIn(400, 414, 431);
        assertThat(manager.postJson("/apiops/proxies", admin, "{\"name\":").statusCode()).isEqualTo(400);
        assertThat(manager.postJson("/apiops/proxies", admin, "[]").body()).contains("must be an object");
        assertThat(manager.postJson("/apiops/environments/test/deployments", admin, "{\"proxies\":[\"nope\"]}").body())
                .contains("proxies[0]", "nope");
        assertThat(manager.postJson("/apiops/environments/test/deployments", admin, "{\"wait\":\"forever\"}").body())
                .contains("'wait'");
        assertThat(manager.postJson("/apiops/environments/test/deployments", admin, "{}").statusCode()).isEqualTo(400);
        assertThat(manager.postJson("/apiops/environments/nope/deployments", admin, "{}").statusCode()).isEqualTo(404);
        assertThat(manager.postJson("/apiops/environments/test/deployments/abc/rollback", admin, "{}").statusCode())
                .isEqualTo(400);
        assertThat(manager.get("/apiops/proxies/none/diff?from=x", admin).statusCode()).isIn(400, 404);
    }

    @Test
    void importsAnOpenApiDocument() {
        String document = """
                openapi: 3.0.3
                info: {title: Pet Store, version: "1"}
                servers: [{url: "http://127.0.0.1:4010/pets"}]
                paths:
                  /pets: {get: {responses: {"200": {description: ok}}}, post: {responses: {"201": {description: ok}}}}
                """;
        HttpResponse<String> imported = manager.postJson("/apiops/proxies/import", admin,
                body(Map.of("document", document)));
        assertThat(imported.statusCode()).as(imported.body()).isEqualTo(201);
        JsonNode proxy = json(imported);
        assertThat(proxy.path("name").asText()).isEqualTo("pet-store");
        assertThat(proxy.path("definition").path("pathPrefix").asText()).isEqualTo("/pets");
        assertThat(proxy.path("definition").path("methods").toString()).isEqualTo("[\"GET\",\"POST\"]");
        assertThat(proxy.path("hasOpenApi").asBoolean()).isTrue();
        assertThat(json(manager.get("/apiops/proxies/pet-store/revisions/1", admin)).path("openapi").asText())
                .contains("Pet Store");
        assertThat(manager.postJson("/apiops/proxies/import", admin, body(Map.of("document", "not: [openapi"))).statusCode())
                .isEqualTo(400);
        HttpResponse<String> byUrl = manager.postJson("/apiops/proxies/import", admin,
                body(Map.of("url", "http://169.254.169.254/latest/meta-data")));
        assertThat(byUrl.statusCode()).isEqualTo(403);
        assertThat(byUrl.body()).contains("import-url-hosts");
    }

    @Test
    void aThousandProxiesDeployAsOneBundle() throws Exception {
        StringBuilder yaml = new StringBuilder("proxies:\n");
        for (int i = 0; i < 1000; i++) {
            yaml.append("  - {name: bulk-").append(i).append(", pathPrefix: /bulk/").append(i)
                    .append(", upstreams: ['http://127.0.0.1:9']}\n");
        }
        HttpResponse<String> imported = TestPods.send(manager.builder("/apiops/environments/test/config?wait=0s")
                .header("Authorization", "Bearer " + admin).header("Content-Type", "application/yaml")
                .PUT(HttpRequest.BodyPublishers.ofString(yaml.toString())).build());
        assertThat(imported.statusCode()).as(imported.body()).isEqualTo(200);
        assertThat(json(imported).path("changedProxies")).hasSize(1000);

        // the long-poll: the bundle at once for an unknown hash, 304 when it is current, 401 without the ID
        HttpResponse<String> bundle = poll(null, "0s", TestPods.ENVIRONMENT_ID);
        assertThat(bundle.statusCode()).isEqualTo(200);
        assertThat(ManagerClient.json(bundle).path("proxies")).hasSize(1000);
        String etag = bundle.headers().firstValue("ETag").orElseThrow();
        assertThat(poll(etag, "0s", TestPods.ENVIRONMENT_ID).statusCode()).isEqualTo(304);
        assertThat(poll(null, "0s", "ffffffffffffffffffffffff").statusCode()).isEqualTo(401);
        assertThat(poll(etag, "61s", TestPods.ENVIRONMENT_ID).statusCode()).isEqualTo(400);
        String exported = manager.get("/apiops/environments/test/config", admin).body();
        assertThat(exported).contains("name: bulk-999");
        // back to nothing deployed, for the other tests
        TestPods.send(manager.builder("/apiops/environments/test/config?wait=0s")
                .header("Authorization", "Bearer " + admin).header("Content-Type", "application/yaml")
                .PUT(HttpRequest.BodyPublishers.ofString("proxies: []")).build());
        // the history counts each version's proxies (the snapshot itself is one version's)
        JsonNode history = json(manager.get("/apiops/environments/test/deployments?limit=2",
                admin)).path("deployments");
        assertThat(history.get(0).path("proxyCount").asInt()).isZero();
        assertThat(history.get(1).path("proxyCount").asInt()).isEqualTo(1000);
        assertThat(history.get(1).has("proxies")).isFalse();
    }

    @Test
    void aWorkerPodIsListedAtTheAddressItReports() {
        assertThat(report("addressed", "10.1.2.3").statusCode()).isEqualTo(200);
        assertThat(report("garbled", "worker.example").statusCode()).isEqualTo(200);
        assertThat(report("silent", null).statusCode()).isEqualTo(200);
        JsonNode pods = json(manager.get("/apiops/environments/test/gateway-status", viewer)).path("pods");
        Map<String, String> addresses = new java.util.HashMap<>();
        pods.forEach(pod -> addresses.put(pod.path("podName").asText(), pod.path("podIp").asText()));
        assertThat(addresses).containsEntry("addressed", "10.1.2.3")
                .containsEntry("garbled", "127.0.0.1") // not an IP literal: the connection's peer
                .containsEntry("silent", "127.0.0.1");
        for (String pod : new String[]{"addressed", "garbled", "silent"}) {
            TestPods.send(HttpRequest.newBuilder(URI.create(TestPods.baseUrl(ProxyApiTest.pod)
                    + "/apiops/gateway/bundle?wait=0s")).header("X-Pylon-Environment-Id", TestPods.ENVIRONMENT_ID)
                    .header("X-Pylon-Pod", pod).header("X-Pylon-Leaving", "true").GET().build());
        }
    }

    private static HttpResponse<String> report(String podName, String podIp) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(TestPods.baseUrl(pod)
                + "/apiops/gateway/bundle?wait=0s"))
                .header("X-Pylon-Environment-Id", TestPods.ENVIRONMENT_ID).header("X-Pylon-Pod", podName);
        if (podIp != null) {
            request.header("X-Pylon-Pod-Ip", podIp);
        }
        return TestPods.send(request.GET().build());
    }

    private static HttpResponse<String> poll(String etag, String wait, String environmentId) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(TestPods.baseUrl(pod)
                + "/apiops/gateway/bundle?wait=" + wait))
                .header("X-Pylon-Environment-Id", environmentId).header("X-Pylon-Pod", "probe");
        if (etag != null) {
            request.header("If-None-Match", etag);
        }
        return TestPods.send(request.GET().build());
    }

    private static String body(Map<String, String> map) {
        try {
            return io.pylon.core.http.Json.MAPPER.writeValueAsString(map);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
