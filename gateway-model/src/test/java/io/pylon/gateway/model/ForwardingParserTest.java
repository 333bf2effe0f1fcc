package io.pylon.gateway.model;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ForwardingParserTest {
    private final ProxyParser parser = new ProxyParser("platform", Duration.ofSeconds(2), Duration.ofSeconds(30));

    private Route parse(String fields) throws Exception {
        return parser.parse(("routes:\n  - {name: orders, pathPrefix: /orders, upstreams: [http://10.0.0.5:8080]"
                + (fields.isEmpty() ? "" : ", " + fields) + "}\n").getBytes(), false).routes().getFirst();
    }

    @Test
    void defaultsForwardLikeNginxWithLocationRewriting() throws Exception {
        assertThat(parse("").forwarding()).isEqualTo(Forwarding.DEFAULTS);
        assertThat(Forwarding.DEFAULTS.rewriteLocation()).isTrue();
        assertThat(Forwarding.DEFAULTS.maxRequestBody()).isEqualTo(Forwarding.POD_DEFAULT);
    }

    @Test
    void everyFieldIsRead() throws Exception {
        Forwarding f = parse("preserveHost: true, rewriteLocation: false, maxRequestBody: 10m, responseBuffering: true,"
                + " retries: {attempts: 2, onStatus: [502, 503], within: 5s}").forwarding();
        assertThat(f.preserveHost()).isTrue();
        assertThat(f.rewriteLocation()).isFalse();
        assertThat(f.maxRequestBody()).isEqualTo(10L << 20);
        assertThat(f.responseBuffering()).isTrue();
        assertThat(f.retries()).isEqualTo(new Forwarding.Retries(2, Set.of(502, 503), Duration.ofSeconds(5)));
        assertThat(parse("maxRequestBody: 0").forwarding().maxRequestBody()).isZero();
        assertThat(parse("maxRequestBody: 2048").forwarding().maxRequestBody()).isEqualTo(2048);
    }

    @Test
    void badValuesNameTheProxyAndTheField() {
        for (String[] bad : new String[][] {
                {"preserveHost: maybe", "preserveHost"},
                {"rewriteLocation: 1", "rewriteLocation"},
                {"maxRequestBody: 10 MB", "maxRequestBody"},
                {"maxRequestBody: -1", "maxRequestBody"},
                {"responseBuffering: sometimes", "responseBuffering"},
                {"retries: 2", "retries"},
                {"retries: {attempts: 0}", "retries.attempts"},
                {"retries: {attempts: 9}", "retries.attempts"},
                {"retries: {attempts: 1, onStatus: [500]}", "retries.onStatus[0]"},
                {"retries: {attempts: 1, within: 0s}", "retries.within"},
                {"retries: {attempts: 1, every: 1s}", "retries.every"}}) {
            assertThatThrownBy(() -> parse(bad[0])).as(bad[0]).isInstanceOf(InvalidProxyException.class)
                    .hasMessageContaining("orders").hasMessageContaining(bad[1]);
        }
    }

    @Test
    void upstreamProtocolIsHttp11UnlessHttp2IsAsked() throws Exception {
        assertThat(parse("").forwarding().upstreamHttp2()).isFalse();
        assertThat(parse("upstreamProtocol: HTTP/1.1").forwarding().upstreamHttp2()).isFalse();
        assertThat(parse("upstreamProtocol: HTTP/2").forwarding().upstreamHttp2()).isTrue();
        for (String[] bad : new String[][] {
                {"upstreamProtocol: h2", "not HTTP/1.1 or HTTP/2"},
                {"upstreamProtocol: 2", "not HTTP/1.1 or HTTP/2"},
                {"upstreamProtocol: HTTP/2, healthCheck: {path: /health}", "healthCheck"}}) {
            assertThatThrownBy(() -> parse(bad[0])).as(bad[0]).isInstanceOf(InvalidProxyException.class)
                    .hasMessageContaining("orders").hasMessageContaining(bad[1]);
        }
    }

    @Test
    void healthCheckAndWeightsAreRead() throws Exception {
        Route route = parser.parse(("routes:\n  - {name: orders, pathPrefix: /orders, upstreams: [{url: http://10.0.0.5:8080,"
                + " weight: 3}, http://10.0.0.6:8080], healthCheck: {path: /health, interval: 5s}}\n").getBytes(), false)
                .routes().getFirst();
        assertThat(route.upstreams()).extracting(Upstream::weight).containsExactly(3, 1);
        assertThat(route.forwarding().healthCheck())
                .isEqualTo(new Forwarding.HealthCheck("/health", Duration.ofSeconds(5), Duration.ofSeconds(2), 2, 3));
    }

    @Test
    void badHealthChecksAndWeightsNameTheField() {
        for (String[] bad : new String[][] {
                {"healthCheck: {interval: 5s}", "healthCheck.path"},
                {"healthCheck: {path: health}", "healthCheck.path"},
                {"healthCheck: {path: /h, interval: 100ms}", "healthCheck.interval"},
                {"healthCheck: {path: /h, interval: 2s, timeout: 3s}", "healthCheck.timeout"},
                {"healthCheck: {path: /h, healthyThreshold: 0}", "healthCheck.healthyThreshold"},
                {"healthCheck: {path: /h, method: HEAD}", "healthCheck.method"}}) {
            assertThatThrownBy(() -> parse(bad[0])).as(bad[0]).isInstanceOf(InvalidProxyException.class)
                    .hasMessageContaining("orders").hasMessageContaining(bad[1]);
        }
        for (String[] bad : new String[][] {
                {"{url: http://10.0.0.5:8080, weight: 0}", "upstreams[0].weight"},
                {"{url: http://10.0.0.5:8080, weight: 101}", "upstreams[0].weight"},
                {"{weight: 2}", "upstreams[0].url"},
                {"{url: http://10.0.0.5:8080, share: 2}", "upstreams[0].share"}}) {
            assertThatThrownBy(() -> parser.parse(("routes:\n  - {name: orders, pathPrefix: /orders, upstreams: ["
                    + bad[0] + "]}\n").getBytes(), false)).as(bad[0]).isInstanceOf(InvalidProxyException.class)
                    .hasMessageContaining("orders").hasMessageContaining(bad[1]);
        }
    }
}
