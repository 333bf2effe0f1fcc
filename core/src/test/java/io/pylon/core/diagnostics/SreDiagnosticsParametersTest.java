package io.pylon.core.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad parameters, methods and callers of hotthreads, histogram and loggers, refused with a clear 4xx by a real pod. */
class SreDiagnosticsParametersTest {
    private static Pod pod;

    @BeforeAll
    static void start() {
        pod = TestPods.start(new FakeModule("worker").servingDiagnostics(), "worker-params",
                Map.of("pylon.diagnostics.heavy-concurrency", "1"));
    }

    @AfterAll
    static void stop() {
        pod.stop();
    }

    @Test
    void outOfBoundsParametersAreNamedWithTheirBounds() {
        assertBad("GET", "hotthreads?interval=1h", "interval", "from 10ms to 5s");
        assertBad("GET", "hotthreads?interval=fast", "interval", "duration");
        assertBad("GET", "hotthreads?samples=0", "samples", "from 1 to 50");
        assertBad("GET", "hotthreads?interval=5s&samples=5", "samples", "at most 10s");
        assertBad("GET", "hotthreads?top=501", "top", "from 1 to 500");
        assertBad("GET", "histogram?top=0", "top", "from 1 to 1000");
        assertBad("GET", "histogram?live=maybe", "live", "true or false");
        assertBad("PUT", "loggers?level=FINE", "logger", "required");
        assertBad("PUT", "loggers?logger=io.pylon&level=LOUD", "level", "DEBUG");
        assertBad("PUT", "loggers?logger=io.pylon&level=FINE&ttl=48h", "ttl", "from 1s to 24h");
        assertBad("PUT", "loggers?logger=io.pylon&level=FINE&ttl=0s", "ttl", "from 1s to 24h");
        assertBad("PUT", "loggers?logger=a%0Ab&level=FINE", "logger", "letters");
        assertBad("DELETE", "loggers", "logger", "required");
        assertBad("GET", "loggers?prefix=%3Cscript%3E", "prefix", "start of a logger");
    }

    @Test
    void aBroadcastWithABadParameterIsRefusedOnceNotPerPod() {
        HttpResponse<String> response = call("GET", "hotthreads?samples=99");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).doesNotContain("\"pods\"");
    }

    @Test
    void methodsANameDoesNotTakeAre405WithAllow() {
        HttpResponse<String> post = call("POST", "loggers?internal=true&logger=x&level=FINE");
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).contains("GET, DELETE, PUT");
        assertThat(call("PUT", "jvm").statusCode()).isEqualTo(405);
        assertThat(call("DELETE", "heapdump").statusCode()).isEqualTo(405);
        assertThat(call("PUT", "all?internal=true").statusCode()).isEqualTo(405);
    }

    @Test
    void aChangeNeedsTheEnvironmentId() {
        HttpResponse<String> response = TestPods.send(HttpRequest.newBuilder(URI.create(TestPods.baseUrl(pod)
                        + "/platform/diagnostics/loggers?logger=io.pylon&level=FINEST"))
                .method("PUT", HttpRequest.BodyPublishers.noBody()).build());
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(java.util.logging.Logger.getLogger("io.pylon").getLevel()).isNull();
    }

    @Test
    void theNamesAreListedInThe404() {
        HttpResponse<String> response = call("GET", "nope");
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).contains("hotthreads", "histogram", "loggers");
    }

    @Test
    void hotThreadsAndHistogramCountInTheHeavyLimit() throws Exception {
        CompletableFuture<HttpResponse<String>> slow = CompletableFuture.supplyAsync(
                () -> call("GET", "hotthreads?internal=true&interval=1s&samples=3"));
        long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        HttpResponse<String> busy;
        do {
            Thread.sleep(100);
            busy = call("GET", "histogram?internal=true&top=1&live=false");
        } while (busy.statusCode() == 200 && System.nanoTime() < deadline);
        assertThat(busy.statusCode()).isEqualTo(429);
        assertThat(busy.headers().firstValue("Retry-After")).isPresent();
        assertThat(slow.get().statusCode()).isEqualTo(200);
    }

    private static void assertBad(String method, String nameAndQuery, String parameter, String bounds) {
        for (String routing : new String[] {"&internal=true", ""}) {
            String target = nameAndQuery + (nameAndQuery.contains("?") ? routing : routing.replace('&', '?'));
            HttpResponse<String> response = call(method, target);
            assertThat(response.statusCode()).as(method + " " + target + ": " + response.body()).isEqualTo(400);
            JsonNode body = DiagnosticsClient.json(response);
            assertThat(body.path("error").asText()).isEqualTo("invalid_request");
            assertThat(body.path("details").path("parameter").asText()).isEqualTo(parameter);
            assertThat(body.path("error_description").asText()).contains("'" + parameter + "'").contains(bounds);
        }
    }

    private static HttpResponse<String> call(String method, String nameAndQuery) {
        return TestPods.send(HttpRequest.newBuilder(URI.create(TestPods.baseUrl(pod) + "/platform/diagnostics/" + nameAndQuery))
                .timeout(Duration.ofSeconds(30)).header("Authorization", TestPods.ENVIRONMENT_ID)
                .method(method, HttpRequest.BodyPublishers.noBody()).build());
    }
}
