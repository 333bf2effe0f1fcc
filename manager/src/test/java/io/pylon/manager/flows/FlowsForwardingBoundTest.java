package io.pylon.manager.flows;

import com.sun.net.httpserver.HttpServer;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.EndlessAnswer;
import io.pylon.manager.ManagerClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Manager in front of an Integration service (a plain HTTP server here) that answers one call with a body
 * without end: the Manager holds at most its bound of it, answers 502 naming the bound, and closes the connection;
 * an ordinary answer on the next call is relayed as it came.
 */
class FlowsForwardingBoundTest {
    private static final CountDownLatch FLOOD_CUT = new CountDownLatch(1);
    private static HttpServer integration;
    private static Pod pod;
    private static ManagerClient manager;

    @BeforeAll
    static void start() throws IOException {
        integration = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        integration.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        integration.createContext("/", exchange -> {
            if (exchange.getRequestURI().getPath().endsWith("/flows/endless/runs")) {
                EndlessAnswer.send(exchange, new byte[0], FLOOD_CUT::countDown);
                return;
            }
            byte[] body = "{\"flows\": []}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        integration.start();
        pod = ManagerClient.start("manager-flows-bound", Map.of("pylon.manager.integration-url",
                "http://127.0.0.1:" + integration.getAddress().getPort()));
        manager = new ManagerClient(pod);
    }

    @AfterAll
    static void stop() {
        if (pod != null) {
            pod.stop();
        }
        integration.stop(0);
    }

    @Test
    void anAnswerWithoutEndIsCutAtTheBoundWithA502() throws Exception {
        String token = manager.adminToken();
        long start = System.nanoTime();
        HttpResponse<String> cut = manager.get("/apiops/flows/endless/runs", token);
        assertThat(cut.statusCode()).isEqualTo(502);
        assertThat(cut.body()).contains("\"integration_unavailable\"").contains("answered with more than 64 MiB");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
        assertThat(FLOOD_CUT.await(10, TimeUnit.SECONDS)).as("the Integration side saw its connection closed").isTrue();

        HttpResponse<String> ordinary = manager.get("/apiops/flows", token);
        assertThat(ordinary.statusCode()).isEqualTo(200);
        assertThat(ordinary.body()).isEqualTo("{\"flows\": []}");
    }
}
