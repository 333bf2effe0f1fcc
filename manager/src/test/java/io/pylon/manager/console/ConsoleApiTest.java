package io.pylon.manager.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import static io.pylon.manager.console.ManagerUnderTest.json;
import static org.assertj.core.api.Assertions.assertThat;

class ConsoleApiTest {
    private static DiagnosticsUpstream upstream;
    private static ManagerUnderTest manager;
    private static String admin;
    private static String viewer;

    @BeforeAll
    static void start() {
        upstream = new DiagnosticsUpstream();
        manager = new ManagerUnderTest(Map.of("pylon.manager.bootstrap.environment-urls",
                "worker=" + upstream.url() + ",cache=" + upstream.url() + "/,integration=http://127.0.0.1:1"));
        admin = manager.token("admin", ManagerUnderTest.ADMIN_PASSWORD);
        assertThat(manager.send("POST", "/apiops/users", admin,
                "{\"username\":\"vera\",\"password\":\"viewer-Passw0rd!\",\"role\":\"viewer\"}").statusCode()).isEqualTo(201);
        viewer = manager.token("vera", "viewer-Passw0rd!");
        assertThat(manager.send("POST", "/apiops/environments", admin, "{\"name\":\"wrong-id\",\"type\":\"test\","
                + "\"environmentId\":\"ffffffffffffffffffffffff\",\"urls\":{\"worker\":\"" + upstream.url()
                + "\",\"cache\":\"" + upstream.url() + "\"}}").statusCode()).isEqualTo(201);
        assertThat(manager.send("POST", "/apiops/environments", admin, "{\"name\":\"gone\",\"type\":\"test\","
                + "\"urls\":{\"worker\":\"http://127.0.0.1:1\",\"cache\":\"http://127.0.0.1:1\"}}").statusCode()).isEqualTo(201);
    }

    @AfterAll
    static void stop() {
        upstream.releaseHeapDump.countDown();
        if (manager != null) {
            manager.close();
        }
        if (upstream != null) {
            upstream.close();
        }
    }

    @Test
    void modulesNeedAToken() {
        HttpResponse<String> response = TestPods.get(manager.pod, "/apiops/environments/test/modules");
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(json(response.body()).path("error").asText()).isEqualTo("unauthorized");
    }

    @Test
    void modulesShowHealthVersionAndUnreachableOnes() {
        HttpResponse<String> response = manager.get("/apiops/environments/test/modules", viewer);
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode modules = json(response.body()).path("modules");
        assertThat(modules).hasSize(5);
        JsonNode worker = modules.get(1);
        assertThat(worker.path("module").asText()).isEqualTo("worker");
        assertThat(worker.path("status").asText()).isEqualTo("UP");
        assertThat(worker.path("version").asText()).isNotBlank();
        assertThat(worker.path("responseTime").asLong()).isGreaterThanOrEqualTo(0);
        assertThat(modules.get(2).path("url").asText()).isEqualTo(upstream.url());
        assertThat(modules.get(3).path("status").asText()).isEqualTo("UNREACHABLE");
        assertThat(modules.get(3).path("error").asText()).contains("Integration", "http://127.0.0.1:1");
        assertThat(modules.get(4).path("status").asText()).isEqualTo("NOT_CONFIGURED");
        assertThat(response.body()).doesNotContain(TestPods.ENVIRONMENT_ID);
    }

    @Test
    void unknownEnvironmentIs404() {
        HttpResponse<String> response = manager.get("/apiops/environments/nope/modules", viewer);
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(json(response.body()).path("error").asText()).isEqualTo("environment_not_found");
    }

    @Test
    void diagnosticsAreForwardedWithTheEnvironmentIdAndTheQuery() {
        HttpResponse<String> response = manager.get("/apiops/environments/test/diagnostics/worker/jvm?pod=upstream-0&internal=false", viewer);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(upstream.lastQuery).contains("pod=upstream-0").contains("internal=false");
        JsonNode pods = json(response.body()).path("pods");
        assertThat(pods.get(0).path("jvm").path("memory").path("heap").path("used").asLong()).isPositive();
        assertThat(pods.get(1).path("error").path("message").asText()).isEqualTo("Connection refused");
    }

    @Test
    void badNamesAreRefusedBeforeAnyCall() {
        assertThat(error(manager.get("/apiops/environments/test/diagnostics/portal/jvm", viewer), 404)).isEqualTo("unknown_module");
        assertThat(error(manager.get("/apiops/environments/test/diagnostics/worker/datagrid", viewer), 404)).isEqualTo("unknown_diagnostics");
        assertThat(error(manager.get("/apiops/environments/test/diagnostics/cache/connections", viewer), 404)).isEqualTo("unknown_diagnostics");
        assertThat(error(manager.get("/apiops/environments/test/diagnostics/cache/config", viewer), 404)).isEqualTo("unknown_diagnostics");
        assertThat(error(manager.get("/apiops/environments/test/diagnostics/worker/jvm?pod=..%2Fx", viewer), 400)).isEqualTo("invalid_request");
        assertThat(error(manager.get("/apiops/environments/test/diagnostics/worker/jvm?internal=yes", viewer), 400)).isEqualTo("invalid_request");
        assertThat(TestPods.get(manager.pod, "/apiops/environments/test/diagnostics/portal/jvm").statusCode()).isEqualTo(401);
    }

    @Test
    void heapDumpsAndEnvAreForAdminsOnly() {
        assertThat(error(manager.get("/apiops/environments/test/diagnostics/worker/heapdump", viewer), 403)).isEqualTo("insufficient_scope");
        assertThat(error(manager.get("/apiops/environments/test/diagnostics/cache/env", viewer), 403)).isEqualTo("insufficient_scope");
        HttpResponse<String> env = manager.get("/apiops/environments/test/diagnostics/cache/env", admin);
        assertThat(env.statusCode()).isEqualTo(200);
        assertThat(json(env.body()).path("pods").get(0).path("env").path("variables").path("PATH").asText()).isEqualTo("/usr/bin");
    }

    @Test
    void compareHasNoEnvironmentValuesForViewersAndIsNotAudited() {
        JsonNode forViewer = json(manager.get("/apiops/environments/test/diagnostics/worker/compare", viewer).body());
        JsonNode groups = forViewer.path("drift").path("env").get(0).path("groups");
        assertThat(groups).hasSize(2);
        groups.forEach(g -> assertThat(g.has("value")).as(g.toString()).isFalse());
        assertThat(groups.get(0).path("hash").asText()).isEqualTo("0123456789ab");
        JsonNode forAdmin = json(manager.get("/apiops/environments/test/diagnostics/worker/compare", admin).body());
        assertThat(forAdmin.path("drift").path("env").get(0).path("groups").get(0).path("value").asText()).isEqualTo("INFO");
        JsonNode events = json(manager.get("/apiops/audit", admin).body()).path("events");
        for (JsonNode event : events) {
            assertThat(event.path("action").asText()).isNotEqualTo("diagnostics.compare");
        }
    }

    @Test
    void sectionsArePassedOnAndABadListIsRefusedBeforeAnyCall() {
        HttpResponse<String> ok = manager.get("/apiops/environments/test/diagnostics/worker/compare?sections=jvm,threads,health", viewer);
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(java.net.URLDecoder.decode(upstream.lastQuery, java.nio.charset.StandardCharsets.UTF_8))
                .contains("sections=jvm,threads,health");
        upstream.lastQuery = null;
        for (String bad : List.of("jvm;threads", "jvm,", ",jvm", "JVM", "jvm%20threads", "jvm,threads%0a")) {
            assertThat(error(manager.get("/apiops/environments/test/diagnostics/worker/all?sections=" + bad, viewer), 400))
                    .as(bad).isEqualTo("invalid_request");
        }
        assertThat(upstream.lastQuery).as("nothing forwarded").isNull();
    }

    @Test
    void allHasNoEnvSectionForViewers() {
        JsonNode forViewer = json(manager.get("/apiops/environments/test/diagnostics/worker/all", viewer).body());
        assertThat(forViewer.path("pods").get(0).has("jvm")).isTrue();
        assertThat(forViewer.path("pods").get(0).has("env")).isFalse();
        JsonNode forAdmin = json(manager.get("/apiops/environments/test/diagnostics/worker/all", admin).body());
        assertThat(forAdmin.path("pods").get(0).has("env")).isTrue();
    }

    @Test
    void heapDumpIsStreamedThroughAndAudited() throws Exception {
        HttpResponse<InputStream> response = manager.stream("/apiops/environments/test/diagnostics/worker/heapdump?pod=upstream-0", admin);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/octet-stream");
        assertThat(response.headers().firstValue("Content-Disposition").orElseThrow())
                .startsWith("attachment; filename=\"test-upstream-0-").endsWith(".hprof\"");
        try (InputStream in = response.body()) {
            // the upstream holds back all but its first megabyte until we have read it: a buffering proxy would hang
            byte[] first = in.readNBytes(1024 * 1024);
            assertThat(new String(first, 0, 18, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("JAVA PROFILE 1.0.2");
            upstream.releaseHeapDump.countDown();
            long rest = in.transferTo(java.io.OutputStream.nullOutputStream());
            assertThat(first.length + rest).isEqualTo(DiagnosticsUpstream.HEAP_DUMP_SIZE);
        }
        JsonNode events = json(manager.get("/apiops/audit", admin).body()).path("events");
        assertThat(events.findValuesAsText("action")).contains("diagnostics.heapdump");
        JsonNode event = null;
        for (JsonNode e : events) {
            if (e.path("action").asText().equals("diagnostics.heapdump")) {
                event = e;
            }
        }
        assertThat(event.path("actor").asText()).isEqualTo("admin");
        assertThat(event.path("target").asText()).isEqualTo("test/worker/upstream-0");
        assertThat(event.path("outcome").asText()).isEqualTo("success");
    }

    @Test
    void aRejectedEnvironmentIdIsABadGatewayNotASignOut() {
        HttpResponse<String> response = manager.get("/apiops/environments/wrong-id/diagnostics/worker/jvm", viewer);
        assertThat(error(response, 502)).isEqualTo("environment_id_rejected");
        assertThat(response.body()).doesNotContain("ffffffffffffffffffffffff");
    }

    @Test
    void anUnreachableModuleIsABadGateway() {
        HttpResponse<String> response = manager.get("/apiops/environments/gone/diagnostics/cache/threads", viewer);
        assertThat(error(response, 502)).isEqualTo("module_unreachable");
        assertThat(json(response.body()).path("error_description").asText()).contains("cache", "gone", "unreachable");
    }

    private static String error(HttpResponse<String> response, int status) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        return json(response.body()).path("error").asText();
    }
}
