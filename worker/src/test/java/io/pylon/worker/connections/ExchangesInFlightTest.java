package io.pylon.worker.connections;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.ScriptedUpstream;
import io.pylon.worker.testing.WireConnection;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code connections.exchanges} over the diagnostics endpoint: a request its upstream holds is listed, with its route,
 * upstream, path without the query and the X-Request-Id its client gets, for as long as it is in flight; one waiting
 * for a connection of a full pool is listed as waiting for one.
 */
class ExchangesInFlightTest {
    @Test
    void aHeldRequestIsListedWithItsRouteUpstreamAndRequestIdUntilItEnds() throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.start();
             Gateway gateway = holding("exchanges-test", upstream, Map.of())) {
            assertThat(exchanges(gateway).path("count").asInt()).isZero();
            WireConnection client = open(gateway);
            client.send("GET /hold/a?api_key=s3cr3t HTTP/1.1\r\nHost: api.test\r\n\r\n");
            // listed from its wait for a connection on: read once the upstream has the request
            Gateway.await("the request reaches the upstream", 10_000, () -> !upstream.seen().isEmpty());

            JsonNode held = awaitCount(gateway, 1).path("oldest").get(0);
            assertThat(held.path("route").asText()).isEqualTo("held");
            assertThat(held.path("upstream").asText()).startsWith("http://127.0.0.1:");
            assertThat(held.path("method").asText()).isEqualTo("GET");
            assertThat(held.path("path").asText()).as("without the query").isEqualTo("/hold/a");
            assertThat(held.path("requestId").asText()).hasSize(36);
            assertThat(held.path("waitingOnUpstream").asBoolean()).isTrue();
            Thread.sleep(300);
            assertThat(exchanges(gateway).path("oldest").get(0).path("ms").asLong()).isGreaterThanOrEqualTo(300);
            assertThat(exchanges(gateway).toString()).doesNotContain("s3cr3t");

            client.close(); // the gateway lets the upstream go, and the exchange is no longer in flight
            awaitCount(gateway, 0);
            assertThat(upstream.awaitReleased("a", 10_000)).as("ms the upstream was held").isNotNegative();
        }
    }

    /** A full pool: the second request waits for its connection, and is listed as waiting for one until it has it. */
    @Test
    void aRequestWaitingForAPooledConnectionIsListedAsWaitingForOne() throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.start();
             Gateway gateway = holding("exchanges-pool-test", upstream, Map.of("pylon.worker.upstream.max-per-route",
                     "1", "pylon.worker.upstream.lease-timeout", "30s"))) {
            WireConnection first = open(gateway);
            first.send("GET /hold/a HTTP/1.1\r\nHost: api.test\r\n\r\n");
            awaitCount(gateway, 1);
            WireConnection second = open(gateway);
            second.send("GET /hold/b HTTP/1.1\r\nHost: api.test\r\n\r\n");

            JsonNode both = awaitCount(gateway, 2).path("oldest");
            assertThat(both.get(0).path("path").asText()).isEqualTo("/hold/a");
            assertThat(both.get(0).path("waitingForConnection").asBoolean()).isFalse();
            JsonNode waiting = both.get(1);
            assertThat(waiting.path("path").asText()).isEqualTo("/hold/b");
            assertThat(waiting.path("waitingForConnection").asBoolean()).isTrue();
            assertThat(waiting.path("waitingOnUpstream").asBoolean()).as("not on the upstream yet").isFalse();
            assertThat(waiting.path("requestId").asText()).hasSize(36);
            assertThat(upstream.holds("b")).isFalse();

            first.close(); // its connection is closed and the pool makes room: the second gets one and is sent
            Gateway.await("the second request reaches the upstream", 10_000, () -> upstream.holds("b"));
            JsonNode sent = awaitCount(gateway, 1).path("oldest").get(0);
            assertThat(sent.path("path").asText()).isEqualTo("/hold/b");
            assertThat(sent.path("waitingForConnection").asBoolean()).isFalse();
            second.close();
            awaitCount(gateway, 0);
        }
    }

    /** A gateway whose one route, {@code held}, sends {@code /hold/...} to {@code upstream} (which holds it). */
    private static Gateway holding(String name, ScriptedUpstream upstream, Map<String, String> settings) {
        return Gateway.start(name, """
                routes:
                  - {name: held, pathPrefix: /hold, responseTimeout: 60s, upstreams: [%s]}
                """.formatted(upstream.url()), settings);
    }

    private static WireConnection open(Gateway gateway) throws Exception {
        URI uri = URI.create(gateway.url("/"));
        return WireConnection.open(uri.getHost(), uri.getPort());
    }

    private static JsonNode exchanges(Gateway gateway) throws Exception {
        String body = TestPods.get(gateway.pod, "/platform/diagnostics/connections?internal=true", "Authorization",
                TestPods.ENVIRONMENT_ID).body();
        return Json.MAPPER.readTree(body).path("connections").path("exchanges");
    }

    private static JsonNode awaitCount(Gateway gateway, int count) {
        AtomicReference<JsonNode> last = new AtomicReference<>();
        Gateway.await("exchanges in flight: " + count, 10_000, () -> {
            try {
                last.set(exchanges(gateway));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return last.get().path("count").asInt() == count;
        });
        return last.get();
    }
}
