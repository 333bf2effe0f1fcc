package io.pylon.worker.proxy;

import io.pylon.core.http.PodPaths;
import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.RawHttp;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Forwarding through a real Worker pod to real upstreams on loopback. */
class ProxyTest {
    static TestUpstream a;
    static TestUpstream b;
    static TestUpstream hopByHop;
    static Gateway gateway;

    @BeforeAll
    static void start() {
        a = TestUpstream.echo("a");
        b = TestUpstream.echo("b");
        hopByHop = TestUpstream.start(exchange -> {
            exchange.getResponseHeaders().add("Keep-Alive", "timeout=5");
            exchange.getResponseHeaders().add("Proxy-Authenticate", "Basic");
            exchange.getResponseHeaders().add("Connection", "X-Upstream-Private");
            exchange.getResponseHeaders().add("X-Upstream-Private", "secret-of-this-hop");
            exchange.getResponseHeaders().add("Set-Cookie", "a=1");
            exchange.getResponseHeaders().add("Set-Cookie", "b=2");
            TestUpstream.send(exchange, 201, "made".getBytes(StandardCharsets.UTF_8));
        });
        gateway = Gateway.start("""
                routes:
                  - name: a
                    pathPrefix: /a
                    upstreams: [%s]
                  - name: stripped
                    pathPrefix: /s
                    stripPrefix: true
                    upstreams: [%s/base]
                  - name: both
                    pathPrefix: /both
                    upstreams: [%s, %s, http://127.0.0.1:%d]
                  - name: readonly
                    pathPrefix: /ro
                    methods: [GET]
                    upstreams: [%s]
                  - name: hop
                    pathPrefix: /hop
                    upstreams: [%s]
                  - name: everything-else
                    pathPrefix: /
                    upstreams: [%s]
                """.formatted(a.url(), a.url(), a.url(), b.url(), TestUpstream.refusedPort(), a.url(), hopByHop.url(), b.url()));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        a.close();
        b.close();
        hopByHop.close();
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        return TestPods.send(request.build());
    }

    private static HttpRequest.Builder to(String path) {
        return HttpRequest.newBuilder(URI.create(gateway.url(path)));
    }

    @Test
    void getAndPostWithEmptyAndSmallBodies() {
        HttpResponse<String> get = send(to("/a/items?q=1&r=%20x").GET());
        assertThat(get.statusCode()).isEqualTo(200);
        assertThat(get.body()).isEqualTo("a GET /a/items?q=1&r=%20x");
        assertThat(get.headers().firstValue("X-Body-Length")).hasValue("0");

        HttpResponse<String> emptyPost = send(to("/a/items").POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(emptyPost.statusCode()).isEqualTo(200);
        assertThat(emptyPost.headers().firstValue("X-Body-Length")).hasValue("0");

        byte[] kib = new byte[1024];
        Arrays.fill(kib, (byte) 'k');
        HttpResponse<String> post = send(to("/a/items").header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(kib)));
        assertThat(post.statusCode()).isEqualTo(200);
        assertThat(post.body()).isEqualTo("a POST /a/items");
        assertThat(post.headers().firstValue("X-Body-Length")).hasValue("1024");
        assertThat(post.headers().firstValue("X-Seen-Content-type")).hasValue("application/octet-stream");
    }

    @Test
    void stripPrefixAndUpstreamBasePath() {
        assertThat(send(to("/s/x/y").GET()).body()).isEqualTo("a GET /base/x/y");
        assertThat(send(to("/anything").GET()).body()).isEqualTo("b GET /anything");
    }

    @Test
    void forwardedHeadersAreSetAndHopByHopRequestHeadersRemoved() throws Exception {
        RawHttp.Response response = RawHttp.exchange("127.0.0.1", gateway.pod.port(), """
                GET /a/h HTTP/1.1\r
                Host: shop.example:8443\r
                Connection: keep-alive, X-Client-Private\r
                X-Client-Private: hop-only\r
                Keep-Alive: timeout=5\r
                TE: trailers\r
                Proxy-Authorization: Basic Zm9vOmJhcg==\r
                Upgrade: example/1\r
                X-Forwarded-For: 203.0.113.9\r
                X-Forwarded-Proto: https\r
                X-End-To-End: kept\r
                Authorization: Bearer end-to-end\r
                \r
                """);
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.header("X-Seen-X-end-to-end")).isEqualTo("kept");
        assertThat(response.header("X-Seen-Authorization")).isEqualTo("Bearer end-to-end");
        assertThat(response.header("X-Seen-X-forwarded-for")).isEqualTo("203.0.113.9, 127.0.0.1");
        assertThat(response.header("X-Seen-X-forwarded-proto")).isEqualTo("http");
        assertThat(response.header("X-Seen-X-forwarded-host")).isEqualTo("shop.example:8443");
        assertThat(response.header("X-Seen-Host")).isEqualTo("127.0.0.1:" + a.port());
        for (String hop : new String[] {"X-client-private", "Keep-alive", "Te", "Proxy-authorization", "Upgrade"}) {
            assertThat(response.header("X-Seen-" + hop)).as(hop).isNull();
        }
    }

    @Test
    void hopByHopResponseHeadersAreRemovedAndRepeatedOnesKept() {
        HttpResponse<String> response = send(to("/hop").GET());
        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(response.body()).isEqualTo("made");
        assertThat(response.headers().firstValue("Keep-Alive")).isEmpty();
        assertThat(response.headers().firstValue("Proxy-Authenticate")).isEmpty();
        assertThat(response.headers().firstValue("X-Upstream-Private")).isEmpty();
        assertThat(response.headers().allValues("Set-Cookie")).containsExactly("a=1", "b=2");
    }

    @Test
    void roundRobinSkipsAnUpstreamThatRefuses() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 9; i++) {
            HttpResponse<String> response = send(to("/both/x").GET());
            assertThat(response.statusCode()).isEqualTo(200);
            seen.add(response.body().substring(0, 1));
        }
        assertThat(seen).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void headIsForwardedWithoutBody() {
        HttpResponse<String> head = send(to("/a/x").method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
    }

    @Test
    void aMethodTheRouteRefusesFallsThroughToALessSpecificRoute() {
        assertThat(send(to("/ro/1").GET()).body()).isEqualTo("a GET /ro/1");
        assertThat(send(to("/ro/1").DELETE()).body()).isEqualTo("b DELETE /ro/1");
    }

    @Test
    void platformPathsAreNeverRouted() {
        // the catch-all route "/" exists, yet the platform's own endpoints answer
        HttpResponse<String> health = send(to(PodPaths.defaults().health()).GET());
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).contains("\"connections\"", "\"activeConnections\"");
        HttpResponse<String> unknown = send(to(PodPaths.defaults().root() + "/nothing-here").GET());
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.body()).doesNotStartWith("b ");
    }

    @Test
    void noMatchingRouteIsJson404AndNoMatchingMethodJson405() {
        try (Gateway small = Gateway.start("small-test", """
                routes:
                  - {name: readonly, pathPrefix: /ro, methods: [GET, HEAD], upstreams: [%s]}
                """.formatted(a.url()), java.util.Map.of())) {
            HttpResponse<String> response = TestPods.get(small.pod, "/nowhere");
            assertThat(response.statusCode()).isEqualTo(404);
            assertThat(response.body()).startsWith("{").contains("\"error\":\"not_found\"");
            HttpResponse<String> delete = TestPods.send(HttpRequest.newBuilder(URI.create(small.url("/ro/1"))).DELETE().build());
            assertThat(delete.statusCode()).isEqualTo(405);
            assertThat(delete.headers().firstValue("Allow")).hasValue("GET, HEAD");
            assertThat(delete.body()).startsWith("{").contains("\"error\":\"method_not_allowed\"");
        }
    }

    /** TRACE is refused by a route with no method list (405, the usual methods in Allow) and taken by one naming it. */
    @Test
    void traceReachesTheUpstreamOnlyThroughARouteThatNamesIt() {
        try (TestUpstream echo = TestUpstream.echo("e");
             Gateway small = Gateway.start("trace-test", """
                routes:
                  - {name: any, pathPrefix: /any, upstreams: [%1$s]}
                  - {name: traced, pathPrefix: /traced, methods: [GET, TRACE], upstreams: [%1$s]}
                """.formatted(echo.url()), java.util.Map.of())) {
            HttpResponse<String> refused = TestPods.send(HttpRequest.newBuilder(URI.create(small.url("/any/1")))
                    .method("TRACE", HttpRequest.BodyPublishers.noBody()).build());
            assertThat(refused.statusCode()).isEqualTo(405);
            assertThat(refused.headers().firstValue("Allow")).hasValue("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
            assertThat(refused.body()).contains("\"error\":\"method_not_allowed\"");
            HttpResponse<String> taken = TestPods.send(HttpRequest.newBuilder(URI.create(small.url("/traced/1")))
                    .method("TRACE", HttpRequest.BodyPublishers.noBody()).build());
            assertThat(taken.statusCode()).isEqualTo(200);
            assertThat(taken.body()).isEqualTo("e TRACE /traced/1");
        }
    }

    @Test
    void connectionsSectionListsEachUpstreamPool() {
        send(to("/a/x").GET());
        var connections = gateway.connections();
        assertThat(connections).containsKeys("active", "idle", "pools", "server");
        @SuppressWarnings("unchecked")
        var pools = (java.util.List<java.util.Map<String, Object>>) connections.get("pools");
        assertThat(pools).extracting(p -> p.get("name")).contains(a.url(), b.url(), hopByHop.url());
        assertThat(pools.getFirst()).containsKeys("name", "leased", "available", "pending", "maxTotal");
        @SuppressWarnings("unchecked")
        var server = (java.util.Map<String, Object>) connections.get("server");
        assertThat(((Number) server.get("requestsAccepted")).longValue()).isPositive();
        assertThat(((Number) server.get("openConnections")).intValue()).isGreaterThanOrEqualTo(1);
    }
}
