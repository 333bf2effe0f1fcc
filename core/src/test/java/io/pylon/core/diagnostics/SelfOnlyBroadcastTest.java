package io.pylon.core.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.pylon.core.broadcast.BroadcastLimits;
import io.pylon.core.broadcast.DiagnosticsBroadcast;
import io.pylon.core.config.Settings;
import io.pylon.core.diagnostics.web.DiagnosticsEndpoint;
import io.pylon.core.discovery.DiscoveredPod;
import io.pylon.core.discovery.SelfDiscovery;
import io.pylon.core.http.Json;
import io.pylon.core.http.Routes;
import io.pylon.core.pod.PodIdentity;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A pod that discovers no other pod, on a real server: the broadcast shape for itself alone, pod= routing. */
class SelfOnlyBroadcastTest {
    private WebServer server;
    private DiagnosticsBroadcast broadcast;

    @BeforeEach
    void start() throws Exception {
        PodIdentity identity = new PodIdentity("solo-0", "127.0.0.1", null, null, "test", "worker", "1.0");
        DiagnosticsRegistry registry = new DiagnosticsRegistry();
        registry.register(new DiagnosticSection() {
            @Override
            public String name() {
                return "counter";
            }

            @Override
            public Object collect() {
                return Map.of("value", 7);
            }
        });
        LocalDiagnostics local = new LocalDiagnostics(identity, registry, new ConcurrencyLimit(1, "answers", 2));
        HeapDumper heapDumper = new HeapDumper(identity, new DumpDirectory(Files.createTempDirectory("pylon-solo")),
                java.time.Duration.ofSeconds(60), new io.pylon.core.storage.DataBudget(Long.MAX_VALUE, "none", false));
        broadcast = new DiagnosticsBroadcast(new SelfDiscovery(DiscoveredPod.callable("solo-0", "127.0.0.1", null)),
                BroadcastLimits.from(Settings.of(Map.of())), "platform");
        HttpRouting.Builder routing = HttpRouting.builder();
        Routes routes = new Routes(routing);
        new DiagnosticsEndpoint(new EnvironmentIdGuard(TestPods.ENVIRONMENT_ID), local, heapDumper, broadcast)
                .register(routes, "platform");
        routes.finish();
        server = WebServer.builder().host("127.0.0.1").port(0).routing(routing).build().start();
    }

    @AfterEach
    void stop() {
        server.stop();
        broadcast.close();
    }

    private HttpResponse<String> get(String path) {
        return TestPods.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/platform/diagnostics/" + path))
                .header("Authorization", TestPods.ENVIRONMENT_ID).build());
    }

    @Test
    void answersTheBroadcastShapeWithItsOwnElement() throws Exception {
        HttpResponse<String> response = get("counter");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = Json.MAPPER.readTree(response.body());
        assertThat(body.path("pods")).hasSize(1);
        assertThat(body.path("pods").get(0).path("podName").asText()).isEqualTo("solo-0");
        assertThat(body.path("pods").get(0).path("counter").path("value").asInt()).isEqualTo(7);
        assertThat(body.path("summary").path("total").asInt()).isEqualTo(1);
        assertThat(body.path("summary").path("succeeded").asInt()).isEqualTo(1);
        assertThat(body.path("summary").path("failed").asInt()).isZero();
        assertThat(body.path("responseTime").isNumber()).isTrue();
    }

    @Test
    void podParameterAnswersItsOwnObjectOr404() throws Exception {
        JsonNode own = Json.MAPPER.readTree(get("counter?pod=solo-0").body());
        assertThat(own.path("podName").asText()).isEqualTo("solo-0");
        assertThat(own.path("counter").path("value").asInt()).isEqualTo(7);
        HttpResponse<String> other = get("all?pod=solo-9");
        assertThat(other.statusCode()).isEqualTo(404);
        assertThat(other.body()).contains("solo-9").contains("solo-0");
        assertThat(get("heapdump?pod=solo-9").statusCode()).isEqualTo(404);
    }
}
