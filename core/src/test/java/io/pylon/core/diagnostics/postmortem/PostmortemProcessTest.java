package io.pylon.core.diagnostics.postmortem;

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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The black box on pods that are real OS processes: a deadlock made on purpose, a liveness check turning DOWN
 * followed by kill -9 and a restart on the same data directory, SIGTERM, and the fleet list of a broadcast.
 */
class PostmortemProcessTest {
    private static ChildPods pods;

    @BeforeAll
    static void start() throws Exception {
        List<String> commands = List.of("--commands");
        // worker-d runs as the image does: the JVM exits at the first OutOfMemoryError, leaving only a marker
        List<String> imageLike = List.of("-XX:+ExitOnOutOfMemoryError",
                "-XX:OnOutOfMemoryError=touch {dataDir}/postmortem/oom-%p", "--commands");
        pods = new ChildPods(List.of("worker-a", "worker-b", "worker-c", "worker-d"),
                Map.of("worker-a", commands, "worker-b", commands, "worker-c", commands, "worker-d", imageLike),
                Map.of("pylon.diagnostics.postmortem.check-interval", "200ms"));
    }

    @AfterAll
    static void stop() {
        if (pods != null) {
            pods.close();
        }
    }

    @Test
    void aDeadlockMadeOnPurposeIsCapturedWithinFiveSeconds() throws Exception {
        long t0 = System.nanoTime();
        pods.send("worker-a", "deadlock");
        // waits longer than 5 s so that a failure says how long it took and where the time went
        JsonNode listed = awaitCapture("worker-a", "deadlock", Duration.ofSeconds(30));
        long millis = (System.nanoTime() - t0) / 1_000_000;
        String id = listed.path("id").asText();
        JsonNode answer = ok("worker-a", "postmortem/" + id);
        JsonNode capture = answer.path("postmortem");
        assertThat(millis).as("capture listed after %d ms (building it took %d ms, detected at %s, written at %s)",
                millis, capture.path("tookMillis").asLong(), capture.path("time").asText(),
                capture.path("writtenAt").asText()).isLessThan(5_000);
        assertThat(listed.path("sizeBytes").asLong()).isPositive().isLessThan(4L * 1024 * 1024);

        assertThat(capture.path("id").asText()).isEqualTo(id);
        assertThat(capture.path("podName").asText()).isEqualTo("worker-a");
        assertThat(capture.path("trigger").asText()).isEqualTo("deadlock");
        assertThat(capture.path("reason").asText()).startsWith("2 threads deadlocked");
        assertThat(capture.path("alsoTriggered").toString()).contains("liveness-down");
        assertThat(capture.path("threadDump").asText()).contains("pylon-test-deadlock-a", "pylon-test-deadlock-b",
                "Found a Java-level deadlock");
        assertThat(capture.path("histogram").path("live").asBoolean()).isFalse();
        assertThat(capture.path("histogram").path("classes").size()).isBetween(1, CaptureWriter.HISTOGRAM_TOP);
        assertThat(capture.path("jvm").path("memory").isObject()).isTrue();
        assertThat(capture.path("threads").path("summary").path("deadlockedThreadCount").asInt()).isEqualTo(2);
        assertThat(capture.path("health").path("status").asText()).isEqualTo("DOWN");
        assertThat(capture.toString()).doesNotContain(TestPods.ENVIRONMENT_ID);

        // a second deadlock within the minimum interval is counted, not captured again
        pods.send("worker-a", "deadlock");
        JsonNode triggers = null;
        for (int i = 0; i < 50; i++) {
            triggers = ok("worker-a", "postmortem?internal=true").path("postmortem").path("triggers");
            if (triggers.path("deadlock").path("fired").asInt() >= 2) {
                break;
            }
            Thread.sleep(100);
        }
        assertThat(triggers.path("deadlock").path("fired").asInt()).isEqualTo(2);
        assertThat(triggers.path("deadlock").path("suppressed").asInt()).isEqualTo(1);
        assertThat(captures("worker-a").stream().filter(c -> c.path("trigger").asText().equals("deadlock"))).hasSize(1);

        // the fleet list, and the capture read through another pod
        JsonNode fleet = ok("worker-b", "postmortem");
        assertThat(fleet.path("summary").path("succeeded").asInt()).isGreaterThanOrEqualTo(3);
        List<String> recent = new ArrayList<>();
        fleet.path("postmortem").path("recent").forEach(c -> recent.add(c.path("podName").asText() + "/" + c.path("id").asText()));
        assertThat(recent).contains("worker-a/" + id);
        JsonNode through = ok("worker-b", "postmortem/" + id + "?pod=worker-a");
        assertThat(through.path("podName").asText()).isEqualTo("worker-a");
        assertThat(through.path("postmortem").path("id").asText()).isEqualTo(id);
    }

    @Test
    void aCaptureMadeBeforeALivenessFailureAndAKillIsListedAfterTheRestart() throws Exception {
        pods.send("worker-b", "sick");
        JsonNode listed = awaitCapture("worker-b", "liveness-down", Duration.ofSeconds(5));
        String id = listed.path("id").asText();
        // what kill -9 in the middle of a write leaves behind: a temporary file, never listed
        Path folder = Path.of(pods.dataDir("worker-b"), "postmortem");
        Path half = folder.resolve(".20260101T000000000Z-sigterm-abcd.json.gz.tmp");
        Files.write(half, new byte[]{0x1f, (byte) 0x8b, 8});

        pods.kill("worker-b");
        pods.restart("worker-b");

        List<JsonNode> after = captures("worker-b");
        assertThat(after).extracting(c -> c.path("id").asText()).contains(id);
        assertThat(after).noneMatch(c -> c.path("id").asText().startsWith("20260101"));
        assertThat(Files.exists(half)).isFalse();
        JsonNode capture = ok("worker-b", "postmortem/" + id).path("postmortem");
        assertThat(capture.path("trigger").asText()).isEqualTo("liveness-down");
        // normally "liveness DOWN: test-liveness"; on a machine loaded enough for a check to time out, the timed-out
        // check is named instead, which is a liveness failure all the same
        assertThat(capture.path("reason").asText()).startsWith("liveness DOWN: ");
        assertThat(capture.path("threadDump").asText()).contains("Full thread dump");
    }

    @Test
    void anOutOfMemoryErrorAndSigtermAreCapturedByTheJvmThatHadThem() throws Exception {
        pods.send("worker-c", "oom-thread");
        JsonNode oom = awaitCapture("worker-c", "out-of-memory", Duration.ofSeconds(30));
        JsonNode oomCapture = ok("worker-c", "postmortem/" + oom.path("id").asText()).path("postmortem");
        assertThat(oomCapture.path("reason").asText()).contains("OutOfMemoryError");
        assertThat(oomCapture.path("threadDump").asText()).contains("Full thread dump");

        int exit = pods.terminate("worker-c");
        assertThat(exit).isEqualTo(143);
        pods.restart("worker-c");
        JsonNode listed = captures("worker-c").stream().filter(c -> c.path("trigger").asText().equals("sigterm"))
                .findFirst().orElseThrow();
        JsonNode capture = ok("worker-c", "postmortem/" + listed.path("id").asText()).path("postmortem");
        assertThat(capture.path("reason").asText()).contains("SIGTERM");
        assertThat(capture.path("health").path("status").asText()).isNotEmpty();
    }

    @Test
    void anOutOfMemoryErrorThatEndsTheJvmIsNotedAtTheNextStart() throws Exception {
        pods.send("worker-d", "oom-thread");
        assertThat(pods.awaitExit("worker-d")).isEqualTo(3);
        pods.restart("worker-d");
        JsonNode listed = captures("worker-d").stream().filter(c -> c.path("trigger").asText().equals("out-of-memory"))
                .findFirst().orElseThrow();
        JsonNode capture = ok("worker-d", "postmortem/" + listed.path("id").asText()).path("postmortem");
        assertThat(capture.path("reason").asText()).contains("previous process (pid ").contains("OutOfMemoryError");
        assertThat(capture.has("threadDump")).isFalse();
        try (var files = Files.list(Path.of(pods.dataDir("worker-d"), "postmortem"))) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("oom-"));
        }
    }

    private static JsonNode awaitCapture(String pod, String trigger, Duration within) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<JsonNode> found = captures(pod).stream()
                    .filter(c -> c.path("trigger").asText().equals(trigger)).findFirst();
            if (found.isPresent()) {
                return found.get();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no " + trigger + " capture on " + pod + " within " + within);
    }

    private static List<JsonNode> captures(String pod) throws Exception {
        List<JsonNode> captures = new ArrayList<>();
        ok(pod, "postmortem?internal=true").path("postmortem").path("captures").forEach(captures::add);
        return captures;
    }

    private static JsonNode ok(String pod, String nameAndQuery) throws Exception {
        HttpResponse<String> response = TestPods.send(HttpRequest.newBuilder(
                        URI.create(pods.baseUrl(pod) + "/platform/diagnostics/" + nameAndQuery))
                .header("Authorization", TestPods.ENVIRONMENT_ID).timeout(Duration.ofSeconds(30)).GET().build());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Json.MAPPER.readTree(response.body());
    }
}
