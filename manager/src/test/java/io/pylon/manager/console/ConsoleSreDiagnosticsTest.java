package io.pylon.manager.console;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.Map;

import static io.pylon.manager.console.ManagerUnderTest.json;
import static org.assertj.core.api.Assertions.assertThat;

/** hotthreads, histogram and loggers through the Manager's console, to a real diagnostics pod: roles and audit. */
class ConsoleSreDiagnosticsTest {
    private static final String BASE = "/apiops/environments/test/diagnostics/worker/";
    private static final String LOGGER = "io.pylon.manager.console.ConsoleSreDiagnosticsTest.probe";
    private static ConsoleOverDiagnosticsPod console;
    private static ManagerUnderTest manager;
    private static String admin;
    private static String viewer;

    @BeforeAll
    static void start() throws java.io.IOException {
        console = ConsoleOverDiagnosticsPod.start("worker-console", Map.of(), "vic");
        manager = console.manager;
        admin = console.admin;
        viewer = console.viewer;
    }

    @AfterAll
    static void stop() {
        if (console != null) {
            console.close();
        }
    }

    @Test
    void viewersReadHotThreadsWithTheirParameters() {
        HttpResponse<String> response = manager.get(BASE + "hotthreads?interval=50ms&samples=2&top=3", viewer);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode pod = json(response.body()).path("pods").get(0);
        assertThat(pod.path("hotThreads").path("samples").asInt()).isEqualTo(2);
        assertThat(pod.path("hotThreads").path("threads").size()).isBetween(1, 3);
        assertThat(json(response.body()).has("hotThreads")).isTrue();
    }

    @Test
    void viewersReadTheHistogram() {
        HttpResponse<String> response = manager.get(BASE + "histogram?top=7&live=false", viewer);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(json(response.body()).path("pods").get(0).path("histogram").path("classes").size()).isEqualTo(7);
        assertThat(json(response.body()).path("histogram").path("factor").asDouble()).isEqualTo(3.0);
    }

    @Test
    void thePodsBoundsReachTheBrowser() {
        HttpResponse<String> response = manager.get(BASE + "hotthreads?samples=999", viewer);
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response.body()).path("error_description").asText()).contains("'samples'", "from 1 to 50");
        HttpResponse<String> junk = manager.get(BASE + "histogram?top=%3Cb%3E", viewer);
        assertThat(junk.statusCode()).isEqualTo(400);
        assertThat(junk.body()).doesNotContain("<b>");
    }

    @Test
    void onlyAdminsChangeLevelsAndEveryChangeIsAudited() {
        String put = BASE + "loggers?logger=" + LOGGER + "&level=DEBUG&ttl=5m";
        HttpResponse<String> refused = manager.send("PUT", put, viewer, "");
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(java.util.logging.Logger.getLogger(LOGGER).getLevel()).isNull();

        HttpResponse<String> changed = manager.send("PUT", put, admin, "");
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
        assertThat(json(changed.body()).path("pods").get(0).path("loggers").path("level").asText()).isEqualTo("FINE");
        assertThat(java.util.logging.Logger.getLogger(LOGGER).getLevel()).isEqualTo(java.util.logging.Level.FINE);

        assertThat(manager.send("DELETE", BASE + "loggers?logger=" + LOGGER, viewer, "").statusCode()).isEqualTo(403);
        HttpResponse<String> reverted = manager.send("DELETE", BASE + "loggers?logger=" + LOGGER, admin, "");
        assertThat(reverted.statusCode()).isEqualTo(200);
        assertThat(java.util.logging.Logger.getLogger(LOGGER).getLevel()).isNull();

        JsonNode events = json(manager.get("/apiops/audit", admin).body()).path("events");
        assertThat(events.findValuesAsText("action")).contains("diagnostics.loggers.PUT", "diagnostics.loggers.DELETE");
        for (JsonNode event : events) {
            if (event.path("action").asText().equals("diagnostics.loggers.PUT")) {
                assertThat(event.path("actor").asText()).isEqualTo("admin");
                assertThat(event.path("target").asText()).isEqualTo("test/worker level=DEBUG logger=" + LOGGER + " ttl=5m");
                assertThat(event.path("outcome").asText()).isEqualTo("success");
            }
        }
        // viewers may list levels
        assertThat(manager.get(BASE + "loggers?prefix=io.pylon", viewer).statusCode()).isEqualTo(200);
    }

    @Test
    void viewersListCapturesAndReadingOneIsAudited() throws Exception {
        java.nio.file.Path folder = console.workerData.resolve("postmortem");
        String id = "20261123T081502123Z-sigterm-00aa";
        try (java.io.OutputStream out = new java.util.zip.GZIPOutputStream(
                java.nio.file.Files.newOutputStream(folder.resolve(id + ".json.gz")))) {
            out.write(("{\"id\":\"" + id + "\",\"trigger\":\"sigterm\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        HttpResponse<String> list = manager.get(BASE + "postmortem", viewer);
        assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
        assertThat(json(list.body()).path("postmortem").path("recent").get(0).path("id").asText()).isEqualTo(id);
        assertThat(json(list.body()).path("postmortem").path("recent").get(0).path("podName").asText()).isEqualTo("worker-console");

        HttpResponse<String> one = manager.get(BASE + "postmortem?pod=worker-console&id=" + id, viewer);
        assertThat(one.statusCode()).as(one.body()).isEqualTo(200);
        assertThat(json(one.body()).path("postmortem").path("trigger").asText()).isEqualTo("sigterm");
        assertThat(manager.get(BASE + "postmortem?pod=worker-console&id=..%2Fx", viewer).statusCode()).isEqualTo(400);
        assertThat(manager.get(BASE + "postmortem?pod=worker-console&id=20261123T081502123Z-sigterm-00ab", viewer)
                .statusCode()).isEqualTo(404);

        JsonNode events = json(manager.get("/apiops/audit", admin).body()).path("events");
        assertThat(events.findValuesAsText("target")).contains("test/worker/worker-console id=" + id);
        assertThat(events.findValuesAsText("action")).contains("diagnostics.postmortem");
    }

    @Test
    void recordingsAreForAdminsAndTheirDownloadPassesThrough() throws Exception {
        assertThat(manager.get(BASE + "jfr", viewer).statusCode()).isEqualTo(403);
        assertThat(manager.send("POST", BASE + "jfr?duration=1s", viewer, "").statusCode()).isEqualTo(403);
        HttpResponse<String> started = manager.send("POST", BASE + "jfr?duration=1s&settings=default&maxSizeMb=20", admin, "");
        assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
        String id = json(started.body()).path("pods").get(0).path("jfr").path("id").asText();
        String state = "";
        for (int i = 0; i < 100 && !state.equals("FINISHED"); i++) {
            Thread.sleep(200);
            state = json(manager.get(BASE + "jfr?pod=worker-console", admin).body()).path("jfr").path("recordings").get(0)
                    .path("state").asText();
        }
        assertThat(state).isEqualTo("FINISHED");
        HttpResponse<java.io.InputStream> download = manager.stream(BASE + "jfr?pod=worker-console&download=" + id, admin);
        assertThat(download.statusCode()).isEqualTo(200);
        assertThat(download.headers().firstValue("Content-Disposition").orElseThrow()).contains("worker-console-" + id + ".jfr");
        byte[] bytes;
        try (java.io.InputStream in = download.body()) {
            bytes = in.readAllBytes();
        }
        assertThat(new String(bytes, 0, 3, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("FLR");
        assertThat(download.headers().firstValue("Content-Length")).hasValue(String.valueOf(bytes.length));
        JsonNode events = json(manager.get("/apiops/audit", admin).body()).path("events");
        assertThat(events.findValuesAsText("action")).contains("diagnostics.jfr.POST", "diagnostics.jfr");
    }

    @Test
    void methodsANameDoesNotTakeAreRefusedByTheManager() {
        HttpResponse<String> response = manager.send("PUT", BASE + "histogram", admin, "");
        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(json(response.body()).path("error").asText()).isEqualTo("method_not_allowed");
    }
}
