package io.pylon.cache.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.cache.CacheModule;
import io.pylon.core.diagnostics.DiagnosticsContract;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Diagnostics of a real Cache pod (a one-member grid): the shared sections plus {@code datagrid}; no {@code connections}. */
class CacheDiagnosticsTest {
    private static Pod pod;

    @BeforeAll
    static void start() throws IOException {
        int gridPort;
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            gridPort = socket.getLocalPort();
        }
        pod = TestPods.start(new CacheModule(), "cache-0", Map.of(
                "pylon.grid.port", String.valueOf(gridPort),
                "pylon.grid.members", "127.0.0.1:" + gridPort));
    }

    @AfterAll
    static void stop() {
        pod.stop();
    }

    @Test
    void answersEverySharedSection() throws Exception {
        DiagnosticsContract.assertSharedSections(pod, "cache");
    }

    @Test
    void offersDatagridAndItsAliasButNoConnections() {
        assertThat(DiagnosticsContract.internal(pod, "datagrid").has("datagrid")).isTrue();
        JsonNode alias = DiagnosticsContract.internal(pod, "hazelcast");
        assertThat(alias.has("hazelcast")).isTrue();
        assertThat(DiagnosticsContract.internal(pod, "all").has("datagrid")).isTrue();
        DiagnosticsContract.assertNotOffered(pod, "connections", List.of("datagrid", "hazelcast"));
    }

    @Test
    void hazelcastLoggersAreListedAndTheirLevelChanges() throws IOException {
        var list = TestPods.get(pod, "/platform/diagnostics/loggers?internal=true&prefix=com.hazelcast",
                "Authorization", TestPods.ENVIRONMENT_ID);
        assertThat(list.statusCode()).isEqualTo(200);
        JsonNode listed = io.pylon.core.http.Json.MAPPER.readTree(list.body()).path("loggers");
        assertThat(listed.path("count").asInt()).isPositive();
        String logger = listed.path("loggers").get(0).path("name").asText();
        assertThat(logger).startsWith("com.hazelcast");
        var changed = TestPods.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(TestPods.baseUrl(pod)
                        + "/platform/diagnostics/loggers?internal=true&logger=" + logger + "&level=FINE&ttl=1m"))
                .header("Authorization", TestPods.ENVIRONMENT_ID).PUT(java.net.http.HttpRequest.BodyPublishers.noBody()).build());
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
        assertThat(java.util.logging.Logger.getLogger(logger).getLevel()).isEqualTo(java.util.logging.Level.FINE);
        var reverted = TestPods.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(TestPods.baseUrl(pod)
                        + "/platform/diagnostics/loggers?internal=true&logger=" + logger))
                .header("Authorization", TestPods.ENVIRONMENT_ID).DELETE().build());
        assertThat(reverted.statusCode()).isEqualTo(200);
        assertThat(java.util.logging.Logger.getLogger(logger).getLevel()).isNotEqualTo(java.util.logging.Level.FINE);
    }
}
