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
}
