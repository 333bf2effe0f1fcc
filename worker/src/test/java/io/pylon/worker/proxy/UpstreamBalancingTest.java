package io.pylon.worker.proxy;

import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.ScriptedUpstream;
import io.pylon.worker.testing.WireConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Upstream weights and HTTP health checks, with two real upstreams behind one Worker. */
class UpstreamBalancingTest {
    static ScriptedUpstream a;
    static ScriptedUpstream b;
    static Gateway gateway;
    static String host;
    static int port;

    @BeforeAll
    static void start() throws Exception {
        a = ScriptedUpstream.start();
        b = ScriptedUpstream.start();
        gateway = Gateway.start("balancing-test", """
                routes:
                  - {name: weighted, pathPrefix: /weighted, upstreams: [{url: %1$s, weight: 3}, %2$s]}
                  - {name: checked, pathPrefix: /checked, upstreams: [%1$s, %2$s],
                     healthCheck: {path: /health, interval: 1s, timeout: 1s, healthyThreshold: 1, unhealthyThreshold: 2}}
                """.formatted(a.url(), b.url()), Map.of());
        URI uri = URI.create(gateway.url("/"));
        host = uri.getHost();
        port = uri.getPort();
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        a.close();
        b.close();
    }

    @BeforeEach
    void forget() {
        a.healthStatus(200);
        b.healthStatus(200);
    }

    private static long count(ScriptedUpstream upstream, String prefix) {
        return upstream.seen().stream().filter(s -> s.requestLine().startsWith("GET " + prefix)).count();
    }

    private static void send(String path, int times) throws Exception {
        try (WireConnection c = WireConnection.open(host, port)) {
            for (int i = 0; i < times; i++) {
                assertThat(c.send(WireConnection.get(path, "api.test")).read().status()).isEqualTo(200);
            }
        }
    }

    @Test
    void weightsShareTheRequests() throws Exception {
        send("/weighted/x", 40);
        assertThat(count(a, "/weighted")).isEqualTo(30);
        assertThat(count(b, "/weighted")).isEqualTo(10);
    }

    @Test
    void anUpstreamFailingItsHealthCheckIsSkippedUntilItPassesAgain() throws Exception {
        a.healthStatus(503);
        Gateway.await("upstream a marked down by its health check", 30_000, () -> {
            long before = count(a, "/checked");
            try {
                send("/checked/probe", 4);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            return count(a, "/checked") == before;
        });
        long before = count(a, "/checked");
        send("/checked/y", 10);
        assertThat(count(a, "/checked")).as("requests to the upstream that fails its check").isEqualTo(before);

        a.healthStatus(200);
        Gateway.await("upstream a taken back", 30_000, () -> {
            long seen = count(a, "/checked");
            try {
                send("/checked/back", 4);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            return count(a, "/checked") > seen;
        });
    }
}
