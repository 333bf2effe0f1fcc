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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The disk limits of flight recordings and heap dumps, and the retention of recordings nobody downloads, on pods
 * that are real OS processes: {@code worker-full} has its data directory on an 8 MiB tmpfs (a disk that is really
 * nearly full, mounted in a user namespace of its own), {@code worker-short} keeps a finished recording for 1 s.
 */
class RecordingStorageTest {
    private static Path shortDataDir;
    private static ChildPods pods;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(ChildPods.canMountTmpfs(), "this machine does not allow a tmpfs in an unprivileged user namespace "
                + "(unshare --user --map-root-user --mount), which the 507 paths need for a really full disk");
        shortDataDir = Files.createTempDirectory("pylon-worker-short");
        pods = ChildPods.withTmpfsDataDirs(List.of("worker-full", "worker-short"),
                Map.of("worker-short", List.of("pylon.data.dir=" + shortDataDir, "pylon.diagnostics.jfr.retention=1s")),
                Map.of("worker-full", 8));
    }

    @AfterAll
    static void stop() {
        if (pods != null) {
            pods.close();
        }
        TestPods.deleteTree(shortDataDir);
    }

    @Test
    void aRecordingLargerThanTheFreeSpaceIs507AndASmallOneStarts() {
        HttpResponse<String> refused = call("POST", "worker-full", "jfr?internal=true&duration=10s&maxSizeMb=100");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(507);
        JsonNode error = DiagnosticsClient.json(refused);
        assertThat(error.path("error").asText()).isEqualTo("insufficient_storage");
        assertThat(error.path("error_description").asText()).contains("MiB free", "less than the maximum size");
        assertThat(recordings("worker-full")).isEmpty();

        // the same pod takes a recording that fits: the refusal was the disk, not the pod
        HttpResponse<String> started = call("POST", "worker-full", "jfr?internal=true&duration=10s&maxSizeMb=1");
        assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
        String id = DiagnosticsClient.json(started).path("jfr").path("id").asText();
        assertThat(call("DELETE", "worker-full", "jfr?internal=true&id=" + id).statusCode()).isEqualTo(200);
    }

    @Test
    void aBroadcastStartNamesThePodWithoutSpace() {
        HttpResponse<String> response = call("POST", "worker-short", "jfr?duration=10s&maxSizeMb=100");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode body = DiagnosticsClient.json(response);
        for (JsonNode pod : body.path("pods")) {
            if (pod.path("podName").asText().equals("worker-full")) {
                assertThat(pod.path("error").path("status").asInt()).as(pod.toString()).isEqualTo(507);
            } else {
                assertThat(pod.path("jfr").path("state").asText()).as(pod.toString()).isEqualTo("RUNNING");
                call("DELETE", "worker-short", "jfr?internal=true&id=" + pod.path("jfr").path("id").asText());
            }
        }
        assertThat(body.path("pods").size()).isEqualTo(2);
    }

    @Test
    void aHeapDumpLargerThanTheFreeSpaceIs507WithTheFigures() {
        HttpResponse<String> refused = call("GET", "worker-full", "heapdump?live=false");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(507);
        JsonNode error = DiagnosticsClient.json(refused);
        assertThat(error.path("error").asText()).isEqualTo("insufficient_storage");
        long free = error.path("details").path("freeBytes").asLong();
        long required = error.path("details").path("requiredBytes").asLong();
        assertThat(free).isBetween(1L, 8L * 1024 * 1024);
        assertThat(required).isGreaterThan(free);
    }

    @Test
    void aFinishedRecordingNobodyDownloadsIsRemovedAfterItsRetention() throws Exception {
        HttpResponse<String> started = call("POST", "worker-short", "jfr?internal=true&duration=1s&maxSizeMb=10");
        assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
        String id = DiagnosticsClient.json(started).path("jfr").path("id").asText();
        Path file = shortDataDir.resolve("recordings").resolve(FlightRecordings.PREFIX + id + ".jfr");

        boolean seenFinished = false;
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline && !recordings("worker-short").isEmpty()) {
            seenFinished |= Files.exists(file);
            Thread.sleep(100);
        }
        assertThat(seenFinished).as("the finished recording was written to " + file).isTrue();
        assertThat(recordings("worker-short")).isEmpty();
        assertThat(file).doesNotExist();
        assertThat(call("GET", "worker-short", "jfr?internal=true&download=" + id).statusCode()).isEqualTo(404);
    }

    private static List<JsonNode> recordings(String pod) {
        HttpResponse<String> list = call("GET", pod, "jfr?internal=true");
        assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
        List<JsonNode> all = new java.util.ArrayList<>();
        DiagnosticsClient.json(list).path("jfr").path("recordings").forEach(all::add);
        return all;
    }

    private static HttpResponse<String> call(String method, String pod, String nameAndQuery) {
        return TestPods.send(HttpRequest.newBuilder(URI.create(pods.baseUrl(pod) + "/platform/diagnostics/" + nameAndQuery))
                .timeout(Duration.ofSeconds(60)).header("Authorization", TestPods.ENVIRONMENT_ID)
                .method(method, HttpRequest.BodyPublishers.noBody()).build());
    }
}
