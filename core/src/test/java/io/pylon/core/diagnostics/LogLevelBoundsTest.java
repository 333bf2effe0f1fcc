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
 * Temporary log levels on a pod that is a real OS process holding at most 5: a sixth logger is 429 with Retry-After,
 * changing one it holds already is not a new one, {@code DELETE ?all=true} reverts every one, and a burst of changes
 * writes one log line, not one per logger.
 */
class LogLevelBoundsTest {
    private static ChildPods pods;

    @BeforeAll
    static void start() throws Exception {
        pods = new ChildPods(List.of("worker-levels"), Map.of("worker-levels",
                List.of("pylon.diagnostics.loggers.max-overrides=5")));
    }

    @AfterAll
    static void stop() {
        if (pods != null) {
            pods.close();
        }
    }

    @Test
    void theTableIsBoundedRevertedAtOnceAndLoggedPerBatch() throws Exception {
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> set = call("PUT", "loggers?internal=true&logger=bound.test.l" + i + "&level=FINE&ttl=24h");
            assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        }
        HttpResponse<String> sixth = call("PUT", "loggers?internal=true&logger=bound.test.l5&level=FINE&ttl=24h");
        assertThat(sixth.statusCode()).as(sixth.body()).isEqualTo(429);
        assertThat(sixth.headers().firstValue("Retry-After")).isPresent();
        assertThat(DiagnosticsClient.json(sixth).path("error_description").asText())
                .contains("pylon.diagnostics.loggers.max-overrides");
        assertThat(call("PUT", "loggers?internal=true&logger=bound.test.l0&level=FINEST&ttl=1m").statusCode())
                .as("a logger already changed is changed again").isEqualTo(200);

        JsonNode listed = DiagnosticsClient.json(call("GET", "loggers?internal=true&prefix=bound.test")).path("loggers");
        assertThat(listed.path("temporaryLevels").asInt()).isEqualTo(5);
        assertThat(listed.path("maxTemporaryLevels").asInt()).isEqualTo(5);

        // a second later the six changes are one line
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline && changeLines().isEmpty()) {
            Thread.sleep(200);
        }
        assertThat(changeLines()).hasSize(1);
        assertThat(changeLines().getFirst()).contains("6 temporary log level change(s)", "bound.test.l4=FINE");

        HttpResponse<String> both = call("DELETE", "loggers?internal=true&all=true&logger=bound.test.l0");
        assertThat(both.statusCode()).isEqualTo(400);
        HttpResponse<String> all = call("DELETE", "loggers?internal=true&all=true");
        assertThat(all.statusCode()).as(all.body()).isEqualTo(200);
        JsonNode reverted = DiagnosticsClient.json(all).path("loggers");
        assertThat(reverted.path("reverted").asInt()).isEqualTo(5);
        assertThat(reverted.path("loggers").toString()).contains("bound.test.l0", "bound.test.l4");
        assertThat(call("PUT", "loggers?internal=true&logger=bound.test.l5&level=FINE&ttl=1m").statusCode()).isEqualTo(200);
        assertThat(DiagnosticsClient.json(call("DELETE", "loggers?internal=true&all=true")).path("loggers")
                .path("reverted").asInt()).isEqualTo(1);
    }

    private static List<String> changeLines() {
        return pods.output("worker-levels").stream().filter(l -> l.contains("bound.test.l")).toList();
    }

    private static HttpResponse<String> call(String method, String nameAndQuery) {
        return TestPods.send(HttpRequest.newBuilder(URI.create(pods.baseUrl("worker-levels") + "/platform/diagnostics/"
                        + nameAndQuery)).timeout(Duration.ofSeconds(60)).header("Authorization", TestPods.ENVIRONMENT_ID)
                .method(method, HttpRequest.BodyPublishers.noBody()).build());
    }
}
