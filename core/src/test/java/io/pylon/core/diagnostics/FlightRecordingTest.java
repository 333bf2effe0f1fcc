package io.pylon.core.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.core.testing.ChildPods;
import io.pylon.core.testing.TestPods;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Flight recordings on two pods that are real OS processes: started by one broadcast, summarised, downloaded, parsed. */
class FlightRecordingTest {
    private static ChildPods pods;

    @BeforeAll
    static void start() throws Exception {
        pods = new ChildPods(List.of("worker-a", "worker-b"), Map.of("worker-a", List.of("--spin")));
    }

    @AfterAll
    static void stop() {
        if (pods != null) {
            pods.close();
        }
    }

    @Test
    void aFiveSecondRecordingOnTwoPodsIsDownloadedAndParsed(@TempDir Path dir) throws Exception {
        JsonNode started = ok("POST", "worker-a", "jfr?duration=5s&settings=profile&maxSizeMb=50");
        assertThat(started.path("summary").path("succeeded").asInt()).isEqualTo(2);
        Map<String, String> ids = new HashMap<>();
        for (JsonNode pod : started.path("pods")) {
            assertThat(pod.path("jfr").path("state").asText()).isEqualTo("RUNNING");
            ids.put(pod.path("podName").asText(), pod.path("jfr").path("id").asText());
        }

        HttpResponse<String> second = call("POST", "worker-b", "jfr?duration=5s&internal=true");
        assertThat(second.statusCode()).isEqualTo(409);
        assertThat(second.body()).contains(ids.get("worker-b"), "at most one");

        for (String pod : ids.keySet()) {
            awaitFinished(pod, ids.get(pod));
        }

        JsonNode summary = ok("GET", "worker-b", "jfr?pod=worker-a&view=summary&id=" + ids.get("worker-a"));
        JsonNode hot = summary.path("jfr").path("summary").path("hotMethods");
        assertThat(summary.path("jfr").path("summary").path("executionSamples").asLong()).isPositive();
        assertThat(hot.get(0).path("method").asText()).isEqualTo("io.pylon.core.testing.ChildPod$Spinner.spin");
        assertThat(summary.path("jfr").path("summary").has("gcPauses")).isTrue();
        assertThat(summary.path("jfr").path("summary").has("allocationByClass")).isTrue();
        assertThat(summary.path("jfr").path("summary").has("lockContention")).isTrue();

        // worker-a's own file, and worker-b's passed on through worker-a, gzip-compressed
        Path plain = download("worker-a", "jfr?download=" + ids.get("worker-a"), dir.resolve("a.jfr"));
        Path gzipped = download("worker-a", "jfr?pod=worker-b&compress=gzip&download=" + ids.get("worker-b"), dir.resolve("b.jfr.gz"));
        Path unzipped = dir.resolve("b.jfr");
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gzipped))) {
            Files.copy(in, unzipped);
        }
        for (Path file : List.of(plain, unzipped)) {
            Set<String> types = new HashSet<>();
            long events = 0;
            try (RecordingFile recording = new RecordingFile(file)) {
                while (recording.hasMoreEvents()) {
                    RecordedEvent event = recording.readEvent();
                    types.add(event.getEventType().getName());
                    events++;
                }
            }
            assertThat(events).as(file.toString()).isGreaterThan(100);
            assertThat(types).contains("jdk.CPULoad");
            if (file.equals(plain)) {
                // only worker-a spins: an idle pod may run no Java code at all in 5 s, so it has no execution samples
                assertThat(types).contains("jdk.ExecutionSample");
            }
        }

        // downloaded recordings are removed from the pods
        for (String pod : ids.keySet()) {
            assertThat(ok("GET", pod, "jfr?internal=true").path("jfr").path("recordings").size()).isZero();
        }
        assertThat(call("GET", "worker-a", "jfr?download=" + ids.get("worker-a")).statusCode()).isEqualTo(404);
    }

    @Test
    void withoutSettingsARecordingUsesThePylonProfile(@TempDir Path dir) throws Exception {
        JsonNode started = ok("POST", "worker-b", "jfr?internal=true&duration=2s&maxSizeMb=20");
        assertThat(started.path("jfr").path("settings").asText()).isEqualTo("pylon");
        String id = started.path("jfr").path("id").asText();
        awaitFinished("worker-b", id);
        Map<String, String> enabled = enabledSettings(download("worker-b", "jfr?download=" + id, dir.resolve("p.jfr")));

        // what the summary view reads stays on; the events timed on every socket or file call, or park, are off
        assertThat(enabled).containsEntry("jdk.ExecutionSample", "true").containsEntry("jdk.ObjectAllocationSample", "true")
                .containsEntry("jdk.GarbageCollection", "true").containsEntry("jdk.JavaMonitorEnter", "true");
        for (String event : RecordingSettings.PYLON_DISABLED) {
            assertThat(enabled).containsEntry(event, "false");
        }
    }

    /** Event name to its "enabled" setting, from the jdk.ActiveSetting events the recording holds. */
    private static Map<String, String> enabledSettings(Path file) throws Exception {
        Map<Long, String> names = new HashMap<>();
        Map<String, String> enabled = new HashMap<>();
        try (RecordingFile recording = new RecordingFile(file)) {
            recording.readEventTypes().forEach(type -> names.put(type.getId(), type.getName()));
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                if (event.getEventType().getName().equals("jdk.ActiveSetting") && "enabled".equals(event.getString("name"))) {
                    enabled.put(names.get(event.getLong("id")), event.getString("value"));
                }
            }
        }
        return enabled;
    }

    /** JFR marks a recording stopped before its file is written; Pylon must not call it finished until the file is whole. */
    @Test
    void aRecordingIsListedFinishedOnlyOnceItsWholeFileIsWritten(@TempDir Path dir) throws Exception {
        String id = ok("POST", "worker-b", "jfr?internal=true&duration=1s&maxSizeMb=20").path("jfr").path("id").asText();
        long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
        JsonNode finished = null;
        while (finished == null && System.nanoTime() < deadline) {
            for (JsonNode recording : ok("GET", "worker-b", "jfr?internal=true").path("jfr").path("recordings")) {
                if (recording.path("id").asText().equals(id) && !recording.path("state").asText().equals("RUNNING")) {
                    finished = recording;
                }
            }
        }
        assertThat(finished).as("recording " + id + " ended").isNotNull();
        assertThat(finished.path("state").asText()).isEqualTo("FINISHED");
        Path file = download("worker-b", "jfr?download=" + id, dir.resolve("whole.jfr"));
        assertThat(Files.size(file)).isEqualTo(finished.path("sizeBytes").asLong()).isPositive();
        long events = 0;
        try (RecordingFile recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                recording.readEvent();
                events++;
            }
        }
        assertThat(events).isPositive();
    }

    @Test
    void deleteStopsAndRemovesARecording() {
        JsonNode started = ok("POST", "worker-b", "jfr?internal=true&duration=10m");
        String id = started.path("jfr").path("id").asText();
        assertThat(call("GET", "worker-b", "jfr?internal=true&download=" + id).statusCode()).isEqualTo(409);
        JsonNode deleted = ok("DELETE", "worker-b", "jfr?internal=true&id=" + id);
        assertThat(deleted.path("jfr").path("state").asText()).isEqualTo("DELETED");
        assertThat(call("DELETE", "worker-b", "jfr?internal=true&id=" + id).statusCode()).isEqualTo(404);
    }

    @Test
    void badRecordingParametersAreNamed() {
        assertBad("POST", "jfr?duration=2h", "duration");
        assertBad("POST", "jfr?settings=everything", "settings");
        HttpResponse<String> named = call("POST", "worker-a", "jfr?settings=everything");
        assertThat(named.body()).contains("pylon, default, profile");
        assertBad("POST", "jfr?maxSizeMb=0", "maxSizeMb");
        assertBad("DELETE", "jfr", "id");
        assertBad("GET", "jfr?download=..%2Fetc", "download");
        assertBad("GET", "jfr?view=summary", "id");
        assertBad("GET", "jfr?download=0123abcd&compress=zip", "compress");
    }

    private static void assertBad(String method, String nameAndQuery, String parameter) {
        HttpResponse<String> response = call(method, "worker-a", nameAndQuery);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(DiagnosticsClient.json(response).path("details").path("parameter").asText()).isEqualTo(parameter);
    }

    private static void awaitFinished(String pod, String id) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
        while (System.nanoTime() < deadline) {
            for (JsonNode recording : ok("GET", pod, "jfr?internal=true").path("jfr").path("recordings")) {
                if (recording.path("id").asText().equals(id) && recording.path("state").asText().equals("FINISHED")) {
                    assertThat(recording.path("sizeBytes").asLong()).isPositive();
                    return;
                }
            }
            Thread.sleep(250);
        }
        throw new AssertionError("recording " + id + " on " + pod + " did not finish");
    }

    private static Path download(String pod, String nameAndQuery, Path target) throws Exception {
        HttpResponse<Path> response = TestPods.client().send(request("GET", pod, nameAndQuery),
                HttpResponse.BodyHandlers.ofFile(target));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Disposition").orElseThrow()).contains("attachment; filename=");
        return target;
    }

    private static JsonNode ok(String method, String pod, String nameAndQuery) {
        HttpResponse<String> response = call(method, pod, nameAndQuery);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        try {
            return Json.MAPPER.readTree(response.body());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static HttpResponse<String> call(String method, String pod, String nameAndQuery) {
        return TestPods.send(request(method, pod, nameAndQuery));
    }

    private static HttpRequest request(String method, String pod, String nameAndQuery) {
        return HttpRequest.newBuilder(URI.create(pods.baseUrl(pod) + "/platform/diagnostics/" + nameAndQuery))
                .timeout(Duration.ofSeconds(60)).header("Authorization", TestPods.ENVIRONMENT_ID)
                .method(method, HttpRequest.BodyPublishers.noBody()).build();
    }
}
