package io.pylon.core.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.testing.ChildPods;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rate of heavy diagnostics calls on a pod that is a real OS process, allowing 3 per caller and 5 for the pod per
 * minute: the fourth histogram of one caller is 429 with Retry-After naming the per-caller limit, other callers go on
 * until the pod's own limit, a histogram that collects nothing is never counted, and a broadcast is refused before
 * any pod is asked.
 */
class HeavyRateTest {
    private static ChildPods pods;

    @BeforeAll
    static void start() throws Exception {
        pods = new ChildPods(List.of("worker-rate"), Map.of("worker-rate", List.of(
                "pylon.diagnostics.heavy-rate.per-caller=3", "pylon.diagnostics.heavy-rate.per-pod=5")));
    }

    @AfterAll
    static void stop() {
        if (pods != null) {
            pods.close();
        }
    }

    @Test
    void histogramsAreCountedPerCallerThenPerPod() {
        for (int i = 0; i < 3; i++) {
            assertThat(call("histogram?internal=true&top=5").statusCode()).isEqualTo(200);
        }
        HttpResponse<String> fourth = call("histogram?internal=true&top=5");
        assertThat(fourth.statusCode()).as(fourth.body()).isEqualTo(429);
        assertThat(Integer.parseInt(fourth.headers().firstValue("Retry-After").orElseThrow())).isBetween(1, 60);
        JsonNode error = DiagnosticsClient.json(fourth);
        assertThat(error.path("error").asText()).isEqualTo("too_many_requests");
        assertThat(error.path("error_description").asText()).contains("pylon.diagnostics.heavy-rate.per-caller", "127.0.0.1");

        // counting live objects forces a full collection; live=false does not, and is not counted
        assertThat(call("histogram?internal=true&top=5&live=false").statusCode()).isEqualTo(200);

        assertThat(call("threaddump?internal=true&caller=alice").statusCode()).isEqualTo(200);
        assertThat(call("hotthreads?internal=true&samples=1&interval=10ms&caller=alice").statusCode()).isEqualTo(200);
        HttpResponse<String> podFull = call("histogram?internal=true&caller=bob");
        assertThat(podFull.statusCode()).as(podFull.body()).isEqualTo(429);
        assertThat(DiagnosticsClient.json(podFull).path("error_description").asText())
                .contains("pylon.diagnostics.heavy-rate.per-pod");

        // a broadcast is refused at once, with the same answer, rather than as a 429 inside every pod's element
        HttpResponse<String> broadcast = call("histogram?caller=carol");
        assertThat(broadcast.statusCode()).as(broadcast.body()).isEqualTo(429);
        assertThat(broadcast.headers().firstValue("Retry-After")).isPresent();

        // light names are never limited; a malformed caller is 400 naming it
        assertThat(call("jvm?internal=true").statusCode()).isEqualTo(200);
        HttpResponse<String> bad = call("histogram?internal=true&caller=a%20b");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(DiagnosticsClient.json(bad).path("details").path("parameter").asText()).isEqualTo("caller");
    }

    private static HttpResponse<String> call(String nameAndQuery) {
        return TestPods.send(HttpRequest.newBuilder(URI.create(pods.baseUrl("worker-rate") + "/platform/diagnostics/"
                        + nameAndQuery)).timeout(Duration.ofSeconds(60)).header("Authorization", TestPods.ENVIRONMENT_ID)
                .GET().build());
    }
}
