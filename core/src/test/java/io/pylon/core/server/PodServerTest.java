package io.pylon.core.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.config.InvalidSettingException;
import io.pylon.core.config.Settings;
import io.pylon.core.health.CheckResult;
import io.pylon.core.health.HealthCheck;
import io.pylon.core.http.Json;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PodServerTest {
    private Pod pod;

    @AfterEach
    void stop() {
        if (pod != null) {
            pod.stop();
        }
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return Json.MAPPER.readTree(response.body());
    }

    @Test
    void healthIsUpWithTheCoreChecks() throws Exception {
        pod = TestPods.start(new FakeModule("worker"));
        HttpResponse<String> response = TestPods.get(pod, "/platform/management/health");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(response.body()).startsWith("{").doesNotContain("\n");
        JsonNode body = json(response);
        assertThat(body.path("status").asText()).isEqualTo("UP");
        assertThat(body.path("module").asText()).isEqualTo("worker");
        assertThat(body.path("checks").path("memory").path("status").asText()).isEqualTo("UP");
        assertThat(body.path("checks").path("memory").path("heapUsed").asLong()).isPositive();
        assertThat(body.path("checks").path("threads").path("deadlocks").asInt()).isZero();
    }

    @Test
    void aFailingCheckTurnsHealthDownWith503() throws Exception {
        pod = TestPods.start(new FakeModule("worker").withCheck(check("backend", () -> {
            throw new IllegalStateException("jdbc:postgresql://user:secret@db/x refused");
        })), "p", Map.of());
        HttpResponse<String> response = TestPods.get(pod, "/platform/management/health");
        assertThat(response.statusCode()).isEqualTo(503);
        JsonNode body = json(response);
        assertThat(body.path("status").asText()).isEqualTo("DOWN");
        assertThat(body.path("checks").path("backend").path("status").asText()).isEqualTo("DOWN");
        assertThat(response.body()).doesNotContain("secret").doesNotContain("at io.pylon");
    }

    @Test
    void aStuckCheckTimesOutAsDownInsteadOfHangingTheEndpoint() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        pod = TestPods.start(new FakeModule("worker").withCheck(check("stuck", () -> {
            never.await();
            return CheckResult.up(Map.of());
        })), "p", Map.of("pylon.health.check-timeout", "300ms"));
        long t0 = System.nanoTime();
        HttpResponse<String> response = TestPods.get(pod, "/platform/management/health");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(json(response).path("checks").path("stuck").path("error").asText()).contains("timed out");
        assertThat(ms).isLessThan(3000);
        // the still-running check is not started again and answers DOWN at once
        long t1 = System.nanoTime();
        assertThat(TestPods.get(pod, "/platform/management/health").statusCode()).isEqualTo(503);
        assertThat((System.nanoTime() - t1) / 1_000_000).isLessThan(1000);
        never.countDown();
    }

    @Test
    void textPlainGetsOkOrDown() {
        AtomicBoolean healthy = new AtomicBoolean(true);
        pod = TestPods.start(new FakeModule("cache").withCheck(check("toggle",
                () -> CheckResult.of(healthy.get(), Map.of()))), "p", Map.of());
        HttpResponse<String> up = TestPods.get(pod, "/platform/management/health", "Accept", "text/plain");
        assertThat(up.statusCode()).isEqualTo(200);
        assertThat(up.body()).isEqualTo("OK");
        assertThat(up.headers().firstValue("content-type").orElse("")).startsWith("text/plain");
        healthy.set(false);
        HttpResponse<String> down = TestPods.get(pod, "/platform/management/health", "Accept", "text/plain");
        assertThat(down.statusCode()).isEqualTo(503);
        assertThat(down.body()).isEqualTo("DOWN");
        // a browser's Accept prefers neither; JSON stays the default
        assertThat(TestPods.get(pod, "/platform/management/health", "Accept", "*/*").body()).startsWith("{");
    }

    @Test
    void livenessIgnoresDependenciesAndReadinessFollowsThemAndShutdown() throws Exception {
        pod = TestPods.start(new FakeModule("worker").withCheck(new HealthCheck() {
            public String name() {
                return "database";
            }

            public Set<Probe> probes() {
                return Set.of(Probe.READINESS);
            }

            public CheckResult check() {
                return CheckResult.down(Map.of("reason", "unreachable"));
            }
        }), "p", Map.of());
        HttpResponse<String> live = TestPods.get(pod, "/platform/management/health/live");
        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(json(live).path("checks").has("database")).isFalse();
        assertThat(json(live).path("checks").has("threads")).isTrue();
        HttpResponse<String> ready = TestPods.get(pod, "/platform/management/health/ready");
        assertThat(ready.statusCode()).isEqualTo(503);
        assertThat(json(ready).path("checks").path("database").path("status").asText()).isEqualTo("DOWN");
    }

    @Test
    void readinessTurnsDownWhileThePodShutsDownAndInFlightRequestsFinish() throws Exception {
        CountDownLatch inHandler = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        pod = TestPods.start(new FakeModule("worker").onStart(ctx -> ctx.routes().get("/slow", (req, res) -> {
            inHandler.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            res.send("done");
        })), "p", Map.of("pylon.shutdown.delay", "1500ms", "pylon.shutdown.grace", "5s"));
        var slow = TestPods.client().sendAsync(HttpRequest.newBuilder(URI.create(TestPods.baseUrl(pod) + "/slow")).build(),
                HttpResponse.BodyHandlers.ofString());
        inHandler.await();
        Thread stopper = Thread.ofVirtual().start(pod::stop);
        Thread.sleep(300);
        HttpResponse<String> ready = TestPods.get(pod, "/platform/management/health/ready");
        assertThat(ready.statusCode()).isEqualTo(503);
        assertThat(json(ready).path("checks").path("lifecycle").path("state").asText()).isEqualTo("STOPPING");
        release.countDown();
        assertThat(slow.get().body()).isEqualTo("done");
        stopper.join();
        pod = null;
    }

    @Test
    void versionNamesTheModuleBuildAndRuntime() throws Exception {
        pod = TestPods.start(new FakeModule("portal"));
        HttpResponse<String> response = TestPods.get(pod, "/platform/management/version");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = json(response);
        assertThat(body.path("module").asText()).isEqualTo("portal");
        assertThat(body.path("name").asText()).isEqualTo("Pylon Portal");
        assertThat(body.path("version").asText()).matches("\\d+\\.\\d+\\.\\d+.*");
        assertThat(body.path("commit").asText()).isNotBlank();
        assertThat(body.path("buildTime").asText()).isNotBlank();
        assertThat(body.path("java").path("version").asText()).startsWith(String.valueOf(Runtime.version().feature()));
    }

    @Test
    void theProductSegmentIsOneSetting() {
        pod = TestPods.start(new FakeModule("worker"), "p", Map.of("pylon.path.segment", "acme"));
        assertThat(TestPods.get(pod, "/acme/management/health").statusCode()).isEqualTo(200);
        assertThat(TestPods.get(pod, "/platform/management/health").statusCode()).isEqualTo(404);
    }

    @Test
    void unknownPathIsJson404AndWrongMethodIs405WithAllow() throws Exception {
        pod = TestPods.start(new FakeModule("worker"));
        HttpResponse<String> missing = TestPods.get(pod, "/nothing/here");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(json(missing).path("error").asText()).isEqualTo("not_found");
        HttpResponse<String> post = TestPods.send(HttpRequest.newBuilder(URI.create(TestPods.baseUrl(pod) + "/platform/management/health"))
                .POST(HttpRequest.BodyPublishers.ofString("x")).build());
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("allow")).hasValue("GET, HEAD");
        assertThat(json(post).path("error").asText()).isEqualTo("method_not_allowed");
    }

    @Test
    void aHeadAnswerHasNoBodySoTheNextAnswerOnTheConnectionIsInStep() throws Exception {
        pod = TestPods.start(new FakeModule("worker").onStart(ctx -> ctx.routes().get("/streamed", (req, res) -> {
            try (OutputStream out = res.outputStream()) {
                out.write("streamed without a length".getBytes(StandardCharsets.US_ASCII));
            }
        })), "p", Map.of());
        assertHeadThenGetInStep("/platform/management/version", "\"version\"");
        assertHeadThenGetInStep("/streamed", "streamed without a length");
    }

    private void assertHeadThenGetInStep(String path, String getBody) throws Exception {
        String request = "HEAD " + path + " HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
        String wire;
        try (Socket socket = new Socket(pod.identity().podIp(), pod.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            wire = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
        int headEnd = wire.indexOf("\r\n\r\n");
        assertThat(wire).startsWith("HTTP/1.1 200");
        // the HEAD answer ends with its header block: the very next bytes are the GET's status line
        assertThat(wire.substring(headEnd + 4)).as(wire).startsWith("HTTP/1.1 200");
        assertThat(wire.substring(headEnd + 4)).contains(getBody);
    }

    @Test
    void anExceptionInAHandlerIs500WithoutAStackTrace() throws Exception {
        pod = TestPods.start(new FakeModule("worker").onStart(ctx -> ctx.routes().get("/boom", (req, res) -> {
            throw new IllegalStateException("internal detail password=hunter2");
        })), "p", Map.of());
        HttpResponse<String> response = TestPods.get(pod, "/boom");
        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(json(response).path("error").asText()).isEqualTo("server_error");
        assertThat(response.body()).doesNotContain("hunter2").doesNotContain("IllegalStateException").doesNotContain("at io.");
    }

    @Test
    void oversizedRequestLineIs414AndOversizedHeadersAre431() throws Exception {
        pod = TestPods.start(new FakeModule("worker"));
        String longLine = "GET /platform/management/health?x=" + "a".repeat(PodServer.MAX_REQUEST_LINE + 10) + " HTTP/1.1\r\nHost: x\r\n\r\n";
        assertThat(rawStatus(longLine)).startsWith("HTTP/1.1 414");
        String bigHeader = "GET /platform/management/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: " + "b".repeat(PodServer.MAX_HEADERS + 10) + "\r\n\r\n";
        assertThat(rawStatus(bigHeader)).startsWith("HTTP/1.1 431");
        // and the server still answers
        assertThat(TestPods.get(pod, "/platform/management/health").statusCode()).isEqualTo(200);
    }

    private String rawStatus(String request) throws Exception {
        try (Socket socket = new Socket(pod.identity().podIp(), pod.port())) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder statusLine = new StringBuilder();
            int c;
            while ((c = in.read()) != -1 && c != '\n') {
                statusLine.append((char) c);
            }
            return statusLine.toString();
        }
    }

    @Test
    void anInvalidSettingStopsStartUpNamingTheSettingAndTheExpectedValue() {
        assertThatThrownBy(() -> TestPods.start(new FakeModule("worker"), "p", Map.of("pylon.server.port", "eighty")))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("pylon.server.port")
                .hasMessageContaining("PYLON_SERVER_PORT")
                .hasMessageContaining("'eighty'")
                .hasMessageContaining("a TCP port from 0 to 65535");
    }

    @Test
    void anInvalidSecretSettingDoesNotShowItsValue() {
        assertThatThrownBy(() -> PodServer.start(new FakeModule("worker"), Settings.of(Map.of("pylon.environment.id", "  "))))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("pylon.environment.id")
                .hasMessageContaining("(hidden)");
    }

    @Test
    void aPortInUseIsReportedPlainly() {
        pod = TestPods.start(new FakeModule("worker"));
        assertThatThrownBy(() -> TestPods.start(new FakeModule("worker"), "q", Map.of("pylon.server.port", String.valueOf(pod.port()))))
                .hasMessageContaining("Cannot listen on 127.0.0.1:" + pod.port());
    }

    interface CheckBody {
        CheckResult run() throws Exception;
    }

    static HealthCheck check(String name, CheckBody body) {
        return new HealthCheck() {
            public String name() {
                return name;
            }

            public Set<Probe> probes() {
                return Set.of(Probe.READINESS);
            }

            public CheckResult check() throws Exception {
                return body.run();
            }
        };
    }
}
