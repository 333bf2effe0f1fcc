package io.pylon.gateway.model;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProxyParserTest {
    private final ProxyParser parser = new ProxyParser("platform", Duration.ofSeconds(2), Duration.ofSeconds(30));

    private List<Route> yaml(String text) throws InvalidProxyException {
        return parser.parse(text.getBytes(StandardCharsets.UTF_8), false).routes();
    }

    private String refusal(String text) {
        try {
            yaml(text);
        } catch (InvalidProxyException e) {
            return e.getMessage();
        }
        throw new AssertionError("accepted: " + text);
    }

    @Test
    void readsEveryFieldOfYaml() throws Exception {
        List<Route> routes = yaml("""
                routes:
                  - name: orders
                    pathPrefix: /api/orders/
                    methods: [get, POST]
                    host: API.example.com
                    upstreams: [http://127.0.0.1:9000, "https://orders.internal/base/"]
                    stripPrefix: true
                    connectTimeout: 500ms
                    responseTimeout: 5s
                    rateLimit: {requests: 10, per: minute, key: overall, onCacheUnavailable: deny}
                """);
        Route route = routes.getFirst();
        assertThat(route.name()).isEqualTo("orders");
        assertThat(route.pathPrefix()).isEqualTo("/api/orders");
        assertThat(route.methods()).containsExactlyInAnyOrder("GET", "POST");
        assertThat(route.host()).isEqualTo("api.example.com");
        assertThat(route.upstreams()).extracting(Upstream::origin)
                .containsExactly("http://127.0.0.1:9000", "https://orders.internal:443");
        assertThat(route.upstreams().get(1).basePath()).isEqualTo("/base");
        assertThat(route.stripPrefix()).isTrue();
        assertThat(route.connectTimeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(route.responseTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(route.rateLimit()).isEqualTo(new RateLimit(10, RateLimit.Window.MINUTE, RateLimit.Key.OVERALL,
                RateLimit.CacheFallback.DENY));
    }

    @Test
    void appliesDefaultsAndReadsJson() throws Exception {
        List<Route> routes = parser.parse("""
                {"routes":[{"name":"a","pathPrefix":"/","upstreams":["http://127.0.0.1:1"],
                  "rateLimit":{"requests":5,"per":"second"}}]}""".getBytes(StandardCharsets.UTF_8), true).routes();
        Route route = routes.getFirst();
        assertThat(route.methods()).isEmpty();
        assertThat(route.host()).isNull();
        assertThat(route.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(route.responseTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(route.rateLimit().key()).isEqualTo(RateLimit.Key.CLIENT_IP);
        assertThat(route.rateLimit().onCacheUnavailable()).isEqualTo(RateLimit.CacheFallback.ALLOW);
    }

    @Test
    void emptyFileMeansNoRoutes() throws Exception {
        assertThat(yaml("")).isEmpty();
        assertThat(yaml("routes: []")).isEmpty();
    }

    @Test
    void refusalsNameTheRouteAndTheField() {
        assertThat(refusal("""
                routes:
                  - name: ok
                    pathPrefix: /a
                    upstreams: [http://127.0.0.1:1]
                  - name: orders
                    pathPrefix: /b
                    upstreams: [http://127.0.0.1:1, ftp://x]
                """)).contains("routes[1]", "'orders'", "field 'upstreams[1]'", "http://");
        assertThat(refusal("""
                routes:
                  - name: orders
                    pathPrefix: /platform/diagnostics
                    upstreams: [http://127.0.0.1:1]
                """)).contains("'orders'", "field 'pathPrefix'", "reserved");
        assertThat(refusal("""
                routes:
                  - name: orders
                    pathPrefix: /platform
                    upstreams: [http://127.0.0.1:1]
                """)).contains("field 'pathPrefix'", "reserved");
        assertThat(refusal("""
                routes:
                  - name: orders
                    pathPrefix: /a
                    upstreams: [http://127.0.0.1:1]
                    connectTimeout: soon
                """)).contains("'orders'", "field 'connectTimeout'", "'soon'");
        assertThat(refusal("""
                routes:
                  - name: orders
                    pathPrefix: /a
                    upstreams: [http://127.0.0.1:1]
                    rateLimit: {requests: 0, per: second}
                """)).contains("'orders'", "field 'rateLimit.requests'");
        assertThat(refusal("""
                routes:
                  - name: orders
                    pathPrefix: /a
                    upstreams: [http://127.0.0.1:1]
                    rateLimit: {requests: 3, per: hour}
                """)).contains("field 'rateLimit.per'", "second or minute");
        assertThat(refusal("""
                routes:
                  - name: orders
                    pathPrefx: /a
                    upstreams: [http://127.0.0.1:1]
                """)).contains("'orders'", "unknown field 'pathPrefx'");
        assertThat(refusal("""
                routes:
                  - pathPrefix: /a
                    upstreams: [http://127.0.0.1:1]
                """)).contains("routes[0]", "field 'name'");
        assertThat(refusal("""
                routes:
                  - name: a
                    pathPrefix: /a
                    upstreams: [http://127.0.0.1:1]
                  - name: a
                    pathPrefix: /b
                    upstreams: [http://127.0.0.1:1]
                """)).contains("routes[1]", "field 'name'", "another route");
        assertThat(refusal("""
                routes:
                  - name: a
                    pathPrefix: /a/../b
                    upstreams: [http://127.0.0.1:1]
                """)).contains("field 'pathPrefix'");
        assertThat(refusal("""
                routes:
                  - name: a
                    pathPrefix: /a
                    upstreams: [http://user:secret@127.0.0.1:1]
                """)).contains("field 'upstreams[0]'", "credentials").doesNotContain("secret");
        assertThat(refusal("routes:\n  - name: a\n    pathPrefix: [\n")).contains("not valid YAML");
    }

    @Test
    void upstreamPathKeepsOrStripsThePrefix() throws Exception {
        Route keep = yaml("routes: [{name: a, pathPrefix: /api, upstreams: ['http://h:1/base']}]").getFirst();
        Route strip = yaml("routes: [{name: a, pathPrefix: /api, stripPrefix: true, upstreams: ['http://h:1']}]").getFirst();
        assertThat(keep.upstreamPath(keep.upstreams().getFirst(), "/api/x")).isEqualTo("/base/api/x");
        assertThat(strip.upstreamPath(strip.upstreams().getFirst(), "/api/x")).isEqualTo("/x");
        assertThat(strip.upstreamPath(strip.upstreams().getFirst(), "/api")).isEqualTo("/");
    }
}
