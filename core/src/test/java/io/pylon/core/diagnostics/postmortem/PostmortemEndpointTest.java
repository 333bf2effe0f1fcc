package io.pylon.core.diagnostics.postmortem;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.RawWire;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code postmortem} on a real pod: listing, one capture by id, and every bad id or call answered 4xx with JSON. */
class PostmortemEndpointTest {
    private static final String STORED = "20261123T081502123Z-heap-after-gc-3fa9";
    private static Pod pod;
    private static Path dataDir;

    @BeforeAll
    static void start() throws Exception {
        dataDir = Files.createTempDirectory("pylon-postmortem");
        Path folder = Files.createDirectories(dataDir.resolve("postmortem"));
        Files.write(folder.resolve(STORED + ".json.gz"), gzip("{\"id\":\"" + STORED + "\",\"trigger\":\"heap-after-gc\"}"));
        // names that are not capture ids are never listed or served
        Files.write(folder.resolve("notes.json.gz"), gzip("{}"));
        Files.write(folder.resolve("20261123T081502123Z-bogus-3fa9.json.gz"), gzip("{}"));
        Files.write(folder.resolve(".20261123T081502124Z-sigterm-0000.json.gz.tmp"), new byte[]{1, 2});
        pod = TestPods.start(new FakeModule("worker").servingDiagnostics(), "worker-pm",
                Map.of("pylon.data.dir", dataDir.toString()));
    }

    @AfterAll
    static void stop() {
        if (pod != null) {
            pod.close();
        }
        TestPods.deleteTree(dataDir);
    }

    @Test
    void listsOnlyWellFormedCapturesAndServesOneByPathOrQuery() throws Exception {
        JsonNode list = json(call("GET", "postmortem?internal=true"), 200).path("postmortem");
        assertThat(list.path("count").asInt()).isEqualTo(1);
        assertThat(list.path("captures").get(0).path("id").asText()).isEqualTo(STORED);
        assertThat(list.path("captures").get(0).path("trigger").asText()).isEqualTo("heap-after-gc");
        assertThat(list.path("captures").get(0).path("time").asText()).isEqualTo("2026-11-23T08:15:02.123Z");
        assertThat(list.path("limits").path("maxCount").asInt()).isEqualTo(20);
        assertThat(list.path("triggers").has("sigterm")).isTrue();
        assertThat(Files.exists(dataDir.resolve("postmortem/.20261123T081502124Z-sigterm-0000.json.gz.tmp"))).isFalse();

        assertThat(json(call("GET", "postmortem/" + STORED), 200).path("postmortem").path("trigger").asText())
                .isEqualTo("heap-after-gc");
        assertThat(json(call("GET", "postmortem?id=" + STORED), 200).path("postmortem").path("id").asText())
                .isEqualTo(STORED);
        assertThat(json(call("GET", "postmortem/" + STORED + "?pod=worker-pm"), 200).path("podName").asText())
                .isEqualTo("worker-pm");
    }

    @Test
    void badIdsAre400AndMissingOnes404WithJson() throws Exception {
        for (String bad : new String[]{"x", "..", "..%2F..%2Fetc%2Fpasswd", "%2e%2e", "20261123T081502123Z-bogus-3fa9",
                "20261123T081502123Z-deadlock-3FA9", "20261123T081502123Z-deadlock-3fa9.json.gz",
                "20261399T081502123Z-deadlock-3fa9", "notes"}) {
            for (String path : new String[]{"postmortem/" + bad, "postmortem?id=" + bad, "postmortem?internal=true&id=" + bad}) {
                HttpResponse<String> response = call("GET", path);
                if (response.statusCode() == 404) {
                    // a path the router resolved elsewhere ('..'): still JSON and no capture
                    assertThat(json(response, 404).path("error").asText()).isEqualTo("not_found");
                    continue;
                }
                JsonNode error = json(response, 400);
                assertThat(error.path("error").asText()).as(path).isEqualTo("invalid_request");
                assertThat(error.path("details").path("parameter").asText()).isEqualTo("id");
            }
        }
        JsonNode missing = json(call("GET", "postmortem/20261123T081502123Z-deadlock-3fa9"), 404);
        assertThat(missing.path("error").asText()).isEqualTo("not_found");
        assertThat(missing.path("error_description").asText()).contains("20261123T081502123Z-deadlock-3fa9");
        assertThat(json(call("GET", "postmortem/" + STORED + "?id=" + STORED), 400).path("error_description").asText())
                .contains("not both");
        assertThat(json(call("GET", "jvm/" + STORED), 404).path("error").asText()).isEqualTo("not_found");
        assertThat(call("POST", "postmortem?internal=true").statusCode()).isEqualTo(405);
    }

    @Test
    void withoutTheEnvironmentIdNothingIsListedOrServed() throws Exception {
        for (String path : new String[]{"postmortem", "postmortem/" + STORED, "postmortem/x"}) {
            HttpResponse<String> response = TestPods.get(pod, "/platform/diagnostics/" + path);
            assertThat(response.statusCode()).isEqualTo(401);
            assertThat(response.body()).doesNotContain(STORED.substring(0, 10)).contains("unauthorized");
        }
    }

    @Test
    void traversalOnTheRawWireNeverReachesAFile() throws Exception {
        for (String target : new String[]{"/platform/diagnostics/postmortem/..%2F..%2F..%2Fetc%2Fpasswd",
                "/platform/diagnostics/postmortem/%2e%2e%2f%2e%2e%2fpostmortem%2f" + STORED,
                "/platform/diagnostics/postmortem/../../postmortem/" + STORED + ".json.gz"}) {
            RawWire.Response response = RawWire.send("127.0.0.1", pod.port(), "GET " + target + " HTTP/1.1\r\nHost: x\r\n"
                    + "Authorization: " + TestPods.ENVIRONMENT_ID + "\r\nConnection: close\r\n\r\n").only();
            assertThat(response.status()).as(target).isBetween(400, 404);
            assertThat(response.body()).startsWith("{").doesNotContain("root:").doesNotContain("heap-after-gc\"}");
        }
    }

    private static HttpResponse<String> call(String method, String nameAndQuery) {
        return TestPods.send(HttpRequest.newBuilder(URI.create(TestPods.baseUrl(pod) + "/platform/diagnostics/" + nameAndQuery))
                .header("Authorization", TestPods.ENVIRONMENT_ID).timeout(Duration.ofSeconds(30))
                .method(method, HttpRequest.BodyPublishers.noBody()).build());
    }

    private static JsonNode json(HttpResponse<String> response, int status) throws Exception {
        assertThat(response.statusCode()).as(response.uri() + " " + response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        return Json.MAPPER.readTree(response.body());
    }

    private static byte[] gzip(String text) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }
}
