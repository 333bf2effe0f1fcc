package io.pylon.core.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.core.testing.ChildPods;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * hotthreads, histogram and loggers on three pods that are real OS processes (separate heaps, separate
 * java.util.logging): worker-a spins a thread and fills 100 MB with one class.
 */
class SreDiagnosticsTest {
    private static final String FILLER = "io.pylon.core.testing.ChildPod$FillerBlock";
    private static ChildPods pods;

    @BeforeAll
    static void start() throws Exception {
        pods = new ChildPods(List.of("worker-a", "worker-b", "worker-c"),
                Map.of("worker-a", List.of("--fill-mb=100", "--spin")));
    }

    @AfterAll
    static void stop() {
        if (pods != null) {
            pods.close();
        }
    }

    @Test
    void aSpinningThreadShowsFirstWithItsStack() throws Exception {
        JsonNode answer = ok("GET", "worker-a", "hotthreads?internal=true&interval=200ms&samples=3&top=5");
        JsonNode hot = answer.path("hotThreads");
        assertThat(hot.path("cpuTimeSupported").asBoolean()).isTrue();
        JsonNode first = hot.path("threads").get(0);
        assertThat(first.path("name").asText()).isEqualTo("pylon-test-spinner");
        assertThat(first.path("state").asText()).isEqualTo("RUNNABLE");
        assertThat(first.path("cpuMillis").asDouble()).isGreaterThan(50);
        assertThat(first.path("stack").get(0).asText()).startsWith("io.pylon.core.testing.ChildPod$Spinner.spin");
        assertThat(first.path("stuck").asBoolean()).isTrue();
        assertThat(hot.path("threads").size()).isLessThanOrEqualTo(5);
        assertThat(hot.path("virtualThreads").path("note").asText()).contains("carrier");
    }

    @Test
    void aBroadcastGroupsStuckStacksAcrossPods() throws Exception {
        JsonNode answer = ok("GET", "worker-b", "hotthreads?interval=100ms&samples=3");
        assertThat(answer.path("summary").path("succeeded").asInt()).isEqualTo(3);
        List<String> summaries = new ArrayList<>();
        answer.path("hotThreads").path("stuckGroups").forEach(g -> summaries.add(g.path("summary").asText()));
        assertThat(summaries).contains("1 thread on 1 of 3 pods at ChildPod$Spinner.spin");
        // the main thread of each child waits in join: the same stack on all three pods is one group
        assertThat(summaries).anyMatch(s -> s.startsWith("3 threads on 3 of 3 pods at "));
    }

    @Test
    void aClassFilling100MbTopsTheHistogramAndIsFlaggedAgainstTheFleet() throws Exception {
        JsonNode local = ok("GET", "worker-a", "histogram?internal=true&top=5");
        JsonNode top = local.path("histogram").path("classes").get(0);
        assertThat(top.path("className").asText()).isEqualTo(FILLER);
        assertThat(top.path("bytes").asLong()).isGreaterThan(95L * 1024 * 1024);
        assertThat(local.path("histogram").path("live").asBoolean()).isTrue();

        JsonNode all = ok("GET", "worker-a", "histogram?internal=true&top=5&live=false");
        assertThat(all.path("histogram").path("live").asBoolean()).isFalse();
        assertThat(all.path("histogram").path("classes").get(0).path("className").asText()).isEqualTo(FILLER);

        JsonNode fleet = ok("GET", "worker-c", "histogram?top=20");
        assertThat(fleet.path("summary").path("succeeded").asInt()).isEqualTo(3);
        JsonNode flagged = fleet.path("histogram").path("flagged");
        List<JsonNode> fillers = new ArrayList<>();
        flagged.forEach(f -> {
            if (f.path("className").asText().equals(FILLER)) {
                fillers.add(f);
            }
        });
        assertThat(fillers).as(flagged.toString()).hasSize(1);
        assertThat(fillers.getFirst().path("podName").asText()).isEqualTo("worker-a");
        assertThat(fillers.getFirst().path("medianBytes").asLong()).isZero();
        assertThat(fillers.getFirst().path("bytes").asLong()).isGreaterThan(95L * 1024 * 1024);
        JsonNode row = fleet.path("histogram").path("classes").get(0);
        assertThat(row.path("className").asText()).isEqualTo(FILLER);
        assertThat(row.path("pods").size()).isEqualTo(1);
    }

    @Test
    void aLevelWithATtlIsBackOnEveryPodAfterIt() throws Exception {
        String logger = "io.pylon.core.server.PodServer";
        JsonNode set = ok("PUT", "worker-a", "loggers?logger=" + logger + "&level=DEBUG&ttl=2s");
        assertThat(set.path("summary").path("succeeded").asInt()).isEqualTo(3);
        for (JsonNode pod : set.path("pods")) {
            assertThat(pod.path("loggers").path("level").asText()).as(pod.path("podName").asText()).isEqualTo("FINE");
            assertThat(pod.path("loggers").path("revertsAt").asText()).isNotEmpty();
        }
        for (String name : pods.names()) {
            assertThat(levelOf(name, logger)).isEqualTo("FINE");
        }
        Thread.sleep(3000);
        for (String name : pods.names()) {
            assertThat(levelOf(name, logger)).as(name).isEqualTo("null");
        }
    }

    @Test
    void deleteRevertsAtOnceOnThePodsThatChanged() throws Exception {
        String logger = "io.pylon.core.diagnostics.LocalDiagnostics";
        JsonNode one = ok("PUT", "worker-c", "loggers?pod=worker-b&logger=" + logger + "&level=FINEST&ttl=10m");
        assertThat(one.path("podName").asText()).isEqualTo("worker-b");
        assertThat(levelOf("worker-b", logger)).isEqualTo("FINEST");
        assertThat(levelOf("worker-a", logger)).isEqualTo("null");

        JsonNode deleted = ok("DELETE", "worker-a", "loggers?logger=" + logger);
        for (JsonNode pod : deleted.path("pods")) {
            boolean changed = pod.path("podName").asText().equals("worker-b");
            assertThat(pod.path("loggers").path("reverted").asBoolean()).isEqualTo(changed);
        }
        assertThat(levelOf("worker-b", logger)).isEqualTo("null");
    }

    private static String levelOf(String pod, String logger) throws Exception {
        JsonNode answer = ok("GET", pod, "loggers?internal=true&prefix=" + logger);
        for (JsonNode entry : answer.path("loggers").path("loggers")) {
            if (entry.path("name").asText().equals(logger)) {
                return entry.path("level").isNull() ? "null" : entry.path("level").asText();
            }
        }
        return "null";
    }

    static JsonNode ok(String method, String pod, String nameAndQuery) throws Exception {
        HttpResponse<String> response = call(method, pod, nameAndQuery);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Json.MAPPER.readTree(response.body());
    }

    static HttpResponse<String> call(String method, String pod, String nameAndQuery) {
        return TestPods.send(HttpRequest.newBuilder(URI.create(pods.baseUrl(pod) + "/platform/diagnostics/" + nameAndQuery))
                .timeout(Duration.ofSeconds(60)).header("Authorization", TestPods.ENVIRONMENT_ID)
                .method(method, HttpRequest.BodyPublishers.noBody()).build());
    }
}
