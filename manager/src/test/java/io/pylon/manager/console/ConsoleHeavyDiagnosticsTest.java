package io.pylon.manager.console;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.Map;

import static io.pylon.manager.console.ManagerUnderTest.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Heavy diagnostics through the Manager's console to a real pod that allows each caller 3 per minute: the pod counts
 * each console user apart (a viewer's fourth histogram is 429 with Retry-After, an admin's first still runs), and
 * every call that forces a collection or dumps threads is in the audit log with the user's name, refused ones too.
 */
class ConsoleHeavyDiagnosticsTest {
    private static final String BASE = "/apiops/environments/test/diagnostics/worker/";
    private static ConsoleOverDiagnosticsPod console;
    private static ManagerUnderTest manager;
    private static String admin;
    private static String viewer;

    @BeforeAll
    static void start() throws java.io.IOException {
        console = ConsoleOverDiagnosticsPod.start("worker-heavy",
                Map.of("pylon.diagnostics.heavy-rate.per-caller", "3"), "vera");
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
    void eachConsoleUserIsOneCallerAndEveryHeavyCallIsAudited() {
        assertThat(manager.get(BASE + "histogram?top=3", viewer).statusCode()).isEqualTo(200);
        assertThat(manager.get(BASE + "threaddump?internal=true", viewer).statusCode()).isEqualTo(200);
        assertThat(manager.get(BASE + "hotthreads?samples=1&interval=10ms", viewer).statusCode()).isEqualTo(200);
        HttpResponse<String> refused = manager.get(BASE + "histogram?top=3", viewer);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).isPresent();
        assertThat(json(refused.body()).path("error_description").asText()).contains("'vera'");
        // a histogram that collects nothing is neither limited nor audited
        assertThat(manager.get(BASE + "histogram?top=3&live=false", viewer).statusCode()).isEqualTo(200);

        HttpResponse<String> other = manager.get(BASE + "histogram?top=3", admin);
        assertThat(other.statusCode()).as("another user is another caller: " + other.body()).isEqualTo(200);

        JsonNode events = json(manager.get("/apiops/audit?limit=50", admin).body()).path("events");
        java.util.List<String> byVera = new java.util.ArrayList<>();
        for (JsonNode event : events) {
            if (event.path("actor").asText().equals("vera") && event.path("action").asText().startsWith("diagnostics.")) {
                byVera.add(event.path("action").asText() + " " + event.path("target").asText() + " "
                        + event.path("outcome").asText());
            }
        }
        assertThat(byVera).containsExactlyInAnyOrder(
                "diagnostics.histogram test/worker top=3 success",
                "diagnostics.threaddump test/worker success",
                "diagnostics.hotthreads test/worker interval=10ms samples=1 success",
                "diagnostics.histogram test/worker top=3 failure (429)");
        assertThat(events.findValuesAsText("actor")).contains("admin");
    }
}
