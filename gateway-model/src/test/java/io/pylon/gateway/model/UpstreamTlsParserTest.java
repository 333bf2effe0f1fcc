package io.pylon.gateway.model;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UpstreamTlsParserTest {
    private final ProxyParser parser = new ProxyParser("platform", Duration.ofSeconds(2), Duration.ofSeconds(30));

    private UpstreamTls parse(String upstream, String tls) throws Exception {
        return parser.parse(("routes:\n  - {name: orders, pathPrefix: /orders, upstreams: [" + upstream + "]"
                + (tls.isEmpty() ? "" : ", upstreamTls: " + tls) + "}\n").getBytes(), false)
                .routes().getFirst().forwarding().upstreamTls();
    }

    @Test
    void absentMeansTheJdkTrustStoreVerified() throws Exception {
        UpstreamTls tls = parse("https://orders.internal", "");
        assertThat(tls).isEqualTo(UpstreamTls.DEFAULTS);
        assertThat(tls.verify()).isTrue();
        assertThat(tls.isDefault()).isTrue();
    }

    @Test
    void everyFieldIsRead() throws Exception {
        UpstreamTls tls = parse("https://10.0.0.5:8443", "{caFile: /etc/pylon/ca.pem, certificateFile: /etc/pylon/c.crt,"
                + " keyFile: /etc/pylon/c.key, serverName: Orders.Internal}");
        assertThat(tls).isEqualTo(new UpstreamTls("/etc/pylon/ca.pem", "/etc/pylon/c.crt", "/etc/pylon/c.key",
                "orders.internal", true));
        assertThat(parse("https://x", "{verify: false}").verify()).isFalse();
        assertThat(parse("https://x", "{verify: true}")).isEqualTo(UpstreamTls.DEFAULTS);
    }

    @Test
    void badValuesNameTheProxyAndTheField() {
        for (String[] bad : new String[][] {
                {"https://x", "true", "upstreamTls"},
                {"https://x", "{caFile: ca.pem}", "upstreamTls.caFile"},
                {"https://x", "{caFile: ''}", "upstreamTls.caFile"},
                {"https://x", "{certificateFile: /c.crt}", "upstreamTls.keyFile"},
                {"https://x", "{keyFile: /c.key}", "upstreamTls.certificateFile"},
                {"https://x", "{serverName: 'a b'}", "upstreamTls.serverName"},
                {"https://x", "{serverName: 'x:443'}", "upstreamTls.serverName"},
                {"https://x", "{verify: maybe}", "upstreamTls.verify"},
                {"https://x", "{verify: false, caFile: /ca.pem}", "upstreamTls.caFile"},
                {"https://x", "{trustAll: true}", "upstreamTls.trustAll"},
                {"http://x", "{caFile: /ca.pem}", "upstreamTls"}}) {
            assertThatThrownBy(() -> parse(bad[0], bad[1])).as(bad[1]).isInstanceOf(InvalidProxyException.class)
                    .hasMessageContaining("orders").hasMessageContaining("'" + bad[2] + "'")
                    .extracting(e -> ((InvalidProxyException) e).field()).isEqualTo(bad[2]);
        }
    }

    @Test
    void aProxyWithOneHttpsUpstreamAmongPlainOnesMayCarryIt() throws Exception {
        assertThat(parse("http://a, https://b", "{serverName: b.internal}").serverName()).isEqualTo("b.internal");
    }

    @Test
    void aBundleHoldsABoundedNumberOfDistinctSettings() throws Exception {
        StringBuilder doc = new StringBuilder("proxies:\n");
        for (int i = 0; i <= ProxyParser.MAX_UPSTREAM_TLS; i++) {
            doc.append("  - {name: p").append(i).append(", pathPrefix: /p").append(i)
                    .append(", upstreams: [https://x], upstreamTls: {serverName: n").append(i).append(".internal}}\n");
        }
        assertThatThrownBy(() -> parser.parse(doc.toString().getBytes(), false))
                .isInstanceOf(InvalidProxyException.class).hasMessageContaining("p" + ProxyParser.MAX_UPSTREAM_TLS)
                .hasMessageContaining("upstreamTls");
        // the same setting on many proxies counts once
        StringBuilder same = new StringBuilder("proxies:\n");
        for (int i = 0; i <= ProxyParser.MAX_UPSTREAM_TLS; i++) {
            same.append("  - {name: p").append(i).append(", pathPrefix: /p").append(i)
                    .append(", upstreams: [https://x], upstreamTls: {serverName: n.internal}}\n");
        }
        assertThat(parser.parse(same.toString().getBytes(), false).routes()).hasSize(ProxyParser.MAX_UPSTREAM_TLS + 1);
    }
}
