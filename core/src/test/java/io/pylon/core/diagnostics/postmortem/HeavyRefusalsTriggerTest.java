package io.pylon.core.diagnostics.postmortem;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/** Repeated 429s on heavy diagnostics make a capture, on a real pod with one heavy permit. */
class HeavyRefusalsTriggerTest {
    private static final String AUTH = TestPods.ENVIRONMENT_ID;
    private static Pod pod;

    @BeforeAll
    static void start() {
        pod = TestPods.start(new FakeModule("worker").servingDiagnostics(), "worker-busy", Map.of(
                "pylon.diagnostics.heavy-concurrency", "1",
                "pylon.diagnostics.postmortem.busy-refusals", "3",
                "pylon.diagnostics.postmortem.busy-window", "1m"));
    }

    @AfterAll
    static void stop() {
        if (pod != null) {
            pod.close();
        }
    }

    @Test
    void threeRefusalsWithinTheWindowWriteOneCapture() throws Exception {
        // The hotthreads call holds the one heavy permit for about 3 s, and thread dumps meanwhile are refused. The
        // dumps start only once the hotthreads call has had time to take the permit: on a slow machine, dumps sent
        // back to back held the permit nearly all the time and every hotthreads call was the one refused (CI saw 0
        // refusals in 5 attempts). Should a dump still get in first, the hotthreads call is made again.
        int refused = 0;
        boolean heldOnce = false;
        ExecutorService caller = Executors.newVirtualThreadPerTaskExecutor();
        for (int attempt = 0; attempt < 5 && refused < 3; attempt++) {
            CompletableFuture<HttpResponse<String>> busy = CompletableFuture.supplyAsync(() -> TestPods.get(pod,
                    "/platform/diagnostics/hotthreads?internal=true&interval=1s&samples=3", "Authorization", AUTH),
                    caller);
            try {
                busy.get(700, TimeUnit.MILLISECONDS);
            } catch (TimeoutException stillSampling) {
                // the expected case: the hotthreads call holds the permit
            }
            while (!busy.isDone() && refused < 3) {
                HttpResponse<String> response = TestPods.get(pod, "/platform/diagnostics/threaddump?internal=true",
                        "Authorization", AUTH);
                if (response.statusCode() == 429) {
                    refused++;
                }
            }
            heldOnce |= busy.get().statusCode() == 200;
        }
        caller.close();
        assertThat(refused).isEqualTo(3);
        assertThat(heldOnce).as("a hotthreads call held the permit").isTrue();
        JsonNode capture = null;
        for (int i = 0; i < 100 && capture == null; i++) {
            for (JsonNode c : list().path("captures")) {
                if (c.path("trigger").asText().equals("heavy-refusals")) {
                    capture = c;
                }
            }
            Thread.sleep(100);
        }
        assertThat(capture).as("a heavy-refusals capture").isNotNull();
        JsonNode content = Json.MAPPER.readTree(TestPods.get(pod, "/platform/diagnostics/postmortem/"
                + capture.path("id").asText(), "Authorization", AUTH).body()).path("postmortem");
        assertThat(content.path("reason").asText()).startsWith("3 heavy diagnostics calls refused with 429");
        // the capture was built outside the heavy-call limit, while callers were refused
        assertThat(content.path("threadDump").asText()).contains("Full thread dump");
        assertThat(list().path("triggers").path("heavy-refusals").path("fired").asInt()).isEqualTo(1);
    }

    private static JsonNode list() throws Exception {
        return Json.MAPPER.readTree(TestPods.get(pod, "/platform/diagnostics/postmortem?internal=true",
                "Authorization", AUTH).body()).path("postmortem");
    }
}
