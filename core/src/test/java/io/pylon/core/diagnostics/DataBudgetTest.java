package io.pylon.core.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.testing.ChildPod;
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
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The data directory's budget and the privacy of what is written there, on pods that are real OS processes:
 * {@code worker-evict} keeps at most 3 recordings in 8 MiB and removes the oldest finished ones to make room,
 * {@code worker-strict} refuses instead, {@code worker-tiny} has a budget smaller than any heap dump. Recordings are
 * 0600 in 0700 folders, their chunks are in the data directory (not /tmp), and {@code jfr print} of a recording
 * shows neither the environment ID (given as an argument and as an environment variable) nor a value {@code env}
 * masks.
 */
class DataBudgetTest {
    private static final String SECRET_VALUE = "hunter2-in-the-environment";
    private static ChildPods pods;

    @BeforeAll
    static void start() throws Exception {
        List<String> limited = List.of("pylon.data.budget=64Mi", "pylon.data.recordings.max-count=3",
                "pylon.data.recordings.max-bytes=8Mi");
        Map<String, String> secrets = Map.of("PYLON_ENVIRONMENT_ID", TestPods.ENVIRONMENT_ID,
                "DB_PASSWORD", SECRET_VALUE);
        pods = new ChildPods(List.of("worker-evict", "worker-strict", "worker-tiny"), Map.of(
                "worker-evict", limited,
                "worker-strict", concat(limited, "pylon.data.recordings.evict-oldest=false"),
                "worker-tiny", List.of("pylon.data.budget=16Mi", "--fill-mb=40")),
                Map.of("worker-evict", secrets), ChildPod.class.getName(), List.of());
    }

    @AfterAll
    static void stop() {
        if (pods != null) {
            pods.close();
        }
    }

    @Test
    void aFloodOfRecordingsStaysInsideTheBudgetTheOldestFinishedGoingFirst() throws Exception {
        Path recordings = Path.of(pods.dataDir("worker-evict"), "recordings");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            HttpResponse<String> started = call("POST", "worker-evict", "jfr?internal=true&duration=1s&maxSizeMb=2");
            assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
            String id = DiagnosticsClient.json(started).path("jfr").path("id").asText();
            ids.add(id);
            awaitFinished("worker-evict", id);
            assertThat(recordingFiles(recordings)).as("recording files after %d", i + 1).hasSizeLessThanOrEqualTo(3);
            assertThat(bytes(recordings)).isLessThanOrEqualTo(8L << 20);
        }
        List<String> kept = listed("worker-evict").stream().map(r -> r.path("id").asText()).toList();
        assertThat(kept).containsExactlyInAnyOrderElementsOf(ids.subList(3, 6));

        HttpResponse<String> tooLarge = call("POST", "worker-evict", "jfr?internal=true&duration=1s&maxSizeMb=9");
        assertThat(tooLarge.statusCode()).as(tooLarge.body()).isEqualTo(400);
        assertThat(DiagnosticsClient.json(tooLarge).path("details").path("parameter").asText()).isEqualTo("maxSizeMb");
    }

    @Test
    void withoutEvictionTheFourthRecordingIs507NamingTheCap() throws Exception {
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> started = call("POST", "worker-strict", "jfr?internal=true&duration=1s&maxSizeMb=2");
            assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
            awaitFinished("worker-strict", DiagnosticsClient.json(started).path("jfr").path("id").asText());
        }
        HttpResponse<String> refused = call("POST", "worker-strict", "jfr?internal=true&duration=1s&maxSizeMb=2");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(507);
        JsonNode error = DiagnosticsClient.json(refused);
        assertThat(error.path("error").asText()).isEqualTo("insufficient_storage");
        assertThat(error.path("details").path("budget").asText()).contains("pylon.data.recordings.max-count");
        assertThat(error.path("details").path("kind").asText()).isEqualTo("flight recordings");
        assertThat(listed("worker-strict")).hasSize(3);
    }

    @Test
    void aHeapDumpLargerThanTheBudgetIs507NamingTheBudget() {
        HttpResponse<String> refused = call("GET", "worker-tiny", "heapdump?live=false");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(507);
        JsonNode error = DiagnosticsClient.json(refused);
        assertThat(error.path("error").asText()).isEqualTo("insufficient_storage");
        assertThat(error.path("details").path("budget").asText()).isEqualTo("pylon.data.budget");
        assertThat(error.path("details").path("limitBytes").asLong()).isEqualTo(16L << 20);
        assertThat(error.path("error_description").asText()).contains("pylon.data.budget");
    }

    @Test
    void recordingsArePrivateKeepTheirChunksInTheDataDirectoryAndCarryNoSecret() throws Exception {
        Path data = Path.of(pods.dataDir("worker-evict"));
        HttpResponse<String> started = call("POST", "worker-evict", "jfr?internal=true&duration=2s&maxSizeMb=2&settings=default");
        assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
        String id = DiagnosticsClient.json(started).path("jfr").path("id").asText();
        Path repository = data.resolve("recordings").resolve("repository");
        try (Stream<Path> chunks = Files.walk(repository)) {
            assertThat(chunks.filter(p -> p.toString().endsWith(".jfr"))).as("chunks in " + repository).isNotEmpty();
        }
        awaitFinished("worker-evict", id);
        Path file = data.resolve("recordings").resolve(FlightRecordings.PREFIX + id + ".jfr");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        for (String folder : List.of("recordings", "recordings/repository", "dumps", "postmortem")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data.resolve(folder))))
                    .as(folder).isEqualTo("rwx------");
        }

        String printed = jfrPrint(file);
        assertThat(printed).as("jfr print output").contains("jdk.OSInformation", "jdk.GCConfiguration");
        assertThat(printed).doesNotContain(TestPods.ENVIRONMENT_ID).doesNotContain(SECRET_VALUE)
                .doesNotContain("jdk.InitialEnvironmentVariable").doesNotContain("jdk.InitialSystemProperty");
    }

    private static String jfrPrint(Path file) throws Exception {
        Path java = Path.of(ProcessHandle.current().info().command().orElseThrow());
        Path jfr = java.resolveSibling("jfr");
        Path out = Files.createTempFile("pylon-jfr-print", ".txt");
        try {
            Process process = new ProcessBuilder(jfr.toString(), "print", file.toString())
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).isZero();
            return Files.readString(out);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static void awaitFinished(String pod, String id) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            for (JsonNode recording : listed(pod)) {
                if (recording.path("id").asText().equals(id) && !recording.path("state").asText().equals("RUNNING")) {
                    assertThat(recording.path("state").asText()).isEqualTo("FINISHED");
                    return;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("recording " + id + " did not finish on " + pod);
    }

    private static List<Path> recordingFiles(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith(FlightRecordings.PREFIX)).toList();
        }
    }

    private static long bytes(Path dir) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }

    private static List<JsonNode> listed(String pod) {
        HttpResponse<String> list = call("GET", pod, "jfr?internal=true");
        assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
        List<JsonNode> all = new ArrayList<>();
        DiagnosticsClient.json(list).path("jfr").path("recordings").forEach(all::add);
        return all;
    }

    private static List<String> concat(List<String> list, String more) {
        List<String> all = new ArrayList<>(list);
        all.add(more);
        return all;
    }

    private static HttpResponse<String> call(String method, String pod, String nameAndQuery) {
        return TestPods.send(HttpRequest.newBuilder(URI.create(pods.baseUrl(pod) + "/platform/diagnostics/" + nameAndQuery))
                .timeout(Duration.ofSeconds(60)).header("Authorization", TestPods.ENVIRONMENT_ID)
                .method(method, HttpRequest.BodyPublishers.noBody()).build());
    }
}
