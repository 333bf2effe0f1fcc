package io.pylon.worker.ratelimit;

import io.pylon.cache.CacheModule;
import io.pylon.core.http.PodPaths;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Two Worker pods share one real Cache pod's counters; with the Cache gone each route's fallback applies. */
class RateLimitTest {
    static TestUpstream upstream;
    static Pod cache;
    static Gateway worker0;
    static Gateway worker1;

    @BeforeAll
    static void start() {
        upstream = TestUpstream.echo("up");
        int gridPort = freePort();
        cache = TestPods.start(new CacheModule(), "cache-0", Map.of(
                "pylon.grid.port", String.valueOf(gridPort),
                "pylon.grid.members", "127.0.0.1:" + gridPort));
        String routes = """
                routes:
                  - name: overall
                    pathPrefix: /overall
                    upstreams: [%s]
                    rateLimit: {requests: 5, per: minute, key: overall}
                  - name: per-ip
                    pathPrefix: /per-ip
                    upstreams: [%s]
                    rateLimit: {requests: 2, per: minute}
                  - name: strict
                    pathPrefix: /strict
                    upstreams: [%s]
                    rateLimit: {requests: 1000, per: second, onCacheUnavailable: deny}
                  - name: lenient
                    pathPrefix: /lenient
                    upstreams: [%s]
                    rateLimit: {requests: 1000, per: second, onCacheUnavailable: allow}
                """.formatted(upstream.url(), upstream.url(), upstream.url(), upstream.url());
        Map<String, String> grid = Map.of(
                "pylon.cache.addresses", "127.0.0.1:" + gridPort,
                "pylon.cache.reconnect.initial-backoff", "100ms",
                "pylon.cache.reconnect.max-backoff", "500ms");
        worker0 = Gateway.start("worker-0", routes, grid);
        worker1 = Gateway.start("worker-1", routes, grid);
        for (Gateway worker : List.of(worker0, worker1)) {
            Gateway.await(worker.pod.identity().podName() + " to join the grid", 60_000,
                    () -> "CONNECTED".equals(cacheState(worker).get("state")));
        }
    }

    @AfterAll
    static void stop() {
        worker0.close();
        worker1.close();
        cache.stop();
        upstream.close();
    }

    @Test
    void limitHoldsAcrossTwoWorkerPods() throws InterruptedException {
        awayFromAMinuteBoundary();
        List<Integer> statuses = new ArrayList<>();
        List<String> retryAfter = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            HttpResponse<String> response = TestPods.get((i % 2 == 0 ? worker0 : worker1).pod, "/overall/x");
            statuses.add(response.statusCode());
            response.headers().firstValue("Retry-After").ifPresent(retryAfter::add);
            if (response.statusCode() == 429) {
                assertThat(response.body()).startsWith("{").contains("\"error\":\"too_many_requests\"");
            }
        }
        assertThat(statuses).containsExactly(200, 200, 200, 200, 200, 429, 429, 429);
        assertThat(retryAfter).hasSize(3).allSatisfy(v -> assertThat(Integer.parseInt(v)).isBetween(1, 60));

        // per client IP: every request of this test comes from 127.0.0.1, so the third one is refused
        assertThat(TestPods.get(worker0.pod, "/per-ip/a").statusCode()).isEqualTo(200);
        assertThat(TestPods.get(worker1.pod, "/per-ip/a").statusCode()).isEqualTo(200);
        assertThat(TestPods.get(worker0.pod, "/per-ip/a").statusCode()).isEqualTo(429);
    }

    @Test
    void withTheCacheDownEachRouteFollowsItsFallbackAndHealthSaysDegraded() {
        assertThat(TestPods.get(worker0.pod, "/strict/x").statusCode()).isEqualTo(200);
        Gateway isolated = Gateway.start("worker-isolated", """
                routes:
                  - {name: strict, pathPrefix: /strict, upstreams: [%s], rateLimit: {requests: 5, per: second, onCacheUnavailable: deny}}
                  - {name: lenient, pathPrefix: /lenient, upstreams: [%s], rateLimit: {requests: 5, per: second}}
                """.formatted(upstream.url(), upstream.url()),
                Map.of("pylon.cache.addresses", "127.0.0.1:" + freePort()));
        try {
            HttpResponse<String> denied = TestPods.get(isolated.pod, "/strict/x");
            assertThat(denied.statusCode()).isEqualTo(503);
            assertThat(denied.body()).startsWith("{").contains("\"error\":\"service_unavailable\"");
            assertThat(denied.headers().firstValue("Retry-After")).isPresent();
            for (int i = 0; i < 10; i++) {
                assertThat(TestPods.get(isolated.pod, "/lenient/x").statusCode()).isEqualTo(200);
            }
            HttpResponse<String> health = TestPods.get(isolated.pod, PodPaths.defaults().health());
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("\"cache\":{\"status\":\"UP\"").contains("\"degraded\":true");
        } finally {
            isolated.close();
        }
        HttpResponse<String> healthy = TestPods.get(worker0.pod, PodPaths.defaults().health());
        assertThat(healthy.body()).contains("\"degraded\":false");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> cacheState(Gateway worker) {
        return (Map<String, Object>) worker.connections().get("cache");
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // Windows are aligned on the clock; a test that straddles a minute boundary would see two windows.
    private static void awayFromAMinuteBoundary() throws InterruptedException {
        long intoMinute = System.currentTimeMillis() % 60_000;
        if (intoMinute > 50_000) {
            Thread.sleep(60_000 - intoMinute + 100);
        }
    }
}
