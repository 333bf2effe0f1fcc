package io.pylon.distribution.durability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code pylon run worker}'s {@code threads} diagnostics name the JDK's I/O pollers running: virtual threads (the
 * JDK's default on Linux, {@code -Djdk.pollerMode=2}) or platform threads ({@code -Djdk.pollerMode=1}, which
 * docs/worker.md says when to set).
 */
class PodIoPollersTest {
    private static final String ADDRESS = "127.0.14.5";
    private static final String ENVIRONMENT_ID = "0123456789abcdef01234567";

    private WorkerProcess worker;

    @AfterEach
    void stop() {
        if (worker != null) {
            worker.close();
        }
    }

    @Test
    void virtualPollersAreReported(@TempDir Path dir) throws Exception {
        assertThat(ioPollers(dir, List.of("-XX:ActiveProcessorCount=1", "-Djdk.pollerMode=2")))
                .isEqualTo("virtual threads");
    }

    @Test
    void platformPollersAreReported(@TempDir Path dir) throws Exception {
        assertThat(ioPollers(dir, List.of("-XX:ActiveProcessorCount=1", "-Djdk.pollerMode=1")))
                .isEqualTo("platform threads");
    }

    /**
     * The kind of I/O pollers a Worker started with {@code jvmOptions} reports. The JDK starts its pollers when a
     * virtual thread first waits on a socket, which a request that arrives whole may never make one do: a connection
     * that sends nothing keeps the pod's reading thread waiting, and the diagnostics are asked until they name them.
     */
    private String ioPollers(Path dir, List<String> jvmOptions) throws Exception {
        Path routes = dir.resolve("routes.yaml");
        Files.writeString(routes, "routes: []\n");
        worker = WorkerProcess.start(dir, ADDRESS, routes, Map.of("PYLON_ENVIRONMENT_ID", ENVIRONMENT_ID), jvmOptions);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String base = "http://" + ADDRESS + ":" + worker.port;
        assertThat(client.send(HttpRequest.newBuilder(URI.create(base + "/platform/management/health")).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(200);
        try (Socket silent = new Socket(ADDRESS, worker.port)) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (true) {
                HttpResponse<String> threads = client.send(HttpRequest.newBuilder(URI.create(base
                                + "/platform/diagnostics/threads")).header("Authorization", ENVIRONMENT_ID).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(threads.statusCode()).as(threads.body()).isEqualTo(200);
                JsonNode pollers = new ObjectMapper().readTree(threads.body()).findValue("ioPollers");
                if (pollers != null || System.nanoTime() > deadline) {
                    assertThat(pollers).as(threads.body()).isNotNull();
                    return pollers.asText();
                }
                Thread.sleep(100);
            }
        }
    }
}
