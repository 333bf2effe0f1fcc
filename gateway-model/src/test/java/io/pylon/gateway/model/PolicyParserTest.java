package io.pylon.gateway.model;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class PolicyParserTest {
    private final ProxyParser parser = new ProxyParser("platform", Duration.ofSeconds(2), Duration.ofSeconds(30));

    private Route proxy(String yaml) throws InvalidProxyException {
        return parser.parse(("proxies:\n" + yaml).getBytes(StandardCharsets.UTF_8), false).routes().getFirst();
    }

    private InvalidProxyException refusal(String yaml) {
        try {
            proxy(yaml);
        } catch (InvalidProxyException e) {
            return e;
        }
        throw new AssertionError("accepted: " + yaml);
    }

    @Test
    void readsEveryPolicy() throws Exception {
        Route route = proxy("""
                  - name: orders
                    pathPrefix: /api/orders
                    upstreams: [http://127.0.0.1:9000]
                    rewritePrefix: /v2
                    requestHeaders: {add: {X-Env: prod, X-Num: 7}, remove: [Cookie]}
                    responseHeaders: {remove: [Server]}
                    cors: {allowOrigins: [https://app.example.com], allowMethods: [get], allowHeaders: [Authorization],
                           exposeHeaders: [X-Request-Id], allowCredentials: true, maxAge: 10m}
                    ipAllow: [10.0.0.0/8, "2001:db8::/32"]
                    ipDeny: [10.1.2.3]
                    trustedProxies: [127.0.0.1]
                    keyAuth: {}
                """);
        Policies p = route.policies();
        assertThat(p.requestHeaders().add()).containsEntry("X-Env", "prod").containsEntry("X-Num", "7");
        assertThat(p.requestHeaders().remove()).containsExactly("Cookie");
        assertThat(p.responseHeaders().remove()).containsExactly("Server");
        assertThat(p.cors().allowMethods()).containsExactly("GET");
        assertThat(p.cors().maxAge()).isEqualTo(Duration.ofMinutes(10));
        assertThat(p.cors().allowsOrigin("https://APP.example.com")).isTrue();
        assertThat(p.cors().allowsOrigin("https://evil.example.com")).isFalse();
        assertThat(p.keyAuth().header()).isEqualTo("X-API-Key");
        assertThat(p.ipRules().permits(InetAddress.getByName("10.9.9.9"))).isTrue();
        assertThat(p.ipRules().permits(InetAddress.getByName("10.1.2.3"))).isFalse();
        assertThat(p.ipRules().permits(InetAddress.getByName("192.168.1.1"))).isFalse();
        assertThat(p.ipRules().permits(InetAddress.getByName("2001:db8::1"))).isTrue();
        assertThat(route.upstreamPath(route.upstreams().getFirst(), "/api/orders/7")).isEqualTo("/v2/7");
        assertThat(route.upstreamPath(route.upstreams().getFirst(), "/api/orders")).isEqualTo("/v2");
    }

    @Test
    void forwardedForIsReadOnlyFromTrustedPeers() throws Exception {
        IpRules rules = new IpRules(java.util.List.of(), java.util.List.of(),
                java.util.List.of(Cidr.parse("10.0.0.0/24")));
        InetAddress trusted = InetAddress.getByName("10.0.0.5");
        InetAddress stranger = InetAddress.getByName("192.0.2.9");
        assertThat(rules.clientAddress(trusted, "198.51.100.1, 10.0.0.7").getHostAddress()).isEqualTo("198.51.100.1");
        assertThat(rules.clientAddress(stranger, "198.51.100.1")).isEqualTo(stranger);
        assertThat(rules.clientAddress(trusted, "not-an-ip, 198.51.100.2").getHostAddress()).isEqualTo("198.51.100.2");
    }

    @Test
    void refusalsNameTheProxyAndTheField() {
        String base = "  - name: p\n    pathPrefix: /a\n    upstreams: [http://127.0.0.1:1]\n";
        InvalidProxyException e = refusal(base + "    requestHeaders: {add: {Host: x}}\n");
        assertThat(e.getMessage()).contains("'p'", "requestHeaders.add", "Host");
        assertThat(e.proxy()).isEqualTo("p");
        assertThat(e.field()).isEqualTo("requestHeaders.add");
        assertThat(refusal(base + "    requestHeaders: {add: {'X-Bad Name': x}}\n").getMessage())
                .contains("requestHeaders.add", "not a header name");
        assertThat(refusal(base + "    requestHeaders: {add: {X-A: \"a\\r\\nX-Injected: 1\"}}\n").getMessage())
                .contains("control characters");
        assertThat(refusal(base + "    cors: {allowOrigins: ['*'], allowCredentials: true}\n").getMessage())
                .contains("cors.allowCredentials");
        assertThat(refusal(base + "    cors: {allowOrigins: [evil]}\n").field()).isEqualTo("cors.allowOrigins[0]");
        assertThat(refusal(base + "    cors: {}\n").field()).isEqualTo("cors.allowOrigins");
        assertThat(refusal(base + "    ipAllow: [10.0.0.0/33]\n").field()).isEqualTo("ipAllow[0]");
        assertThat(refusal(base + "    ipDeny: [example.com]\n").field()).isEqualTo("ipDeny[0]");
        assertThat(refusal(base + "    keyAuth: true\n").field()).isEqualTo("keyAuth");
        assertThat(refusal(base + "    stripPrefix: true\n    rewritePrefix: /b\n").field()).isEqualTo("rewritePrefix");
        assertThat(refusal(base + "    rewritePrefix: /%2e%2e/admin\n").field()).isEqualTo("rewritePrefix");
    }

    @Test
    void hostileNamesAndPathsAreRefused() {
        assertThat(refusal("  - {name: '..', pathPrefix: /a, upstreams: [http://h:1]}\n").field()).isEqualTo("name");
        assertThat(refusal("  - {name: \"a\\u0000b\", pathPrefix: /a, upstreams: [http://h:1]}\n").field())
                .isEqualTo("name");
        assertThat(refusal("  - {name: a, pathPrefix: /a/%2e%2e/b, upstreams: [http://h:1]}\n").field())
                .isEqualTo("pathPrefix");
        assertThat(refusal("  - {name: a, pathPrefix: /a/%2E, upstreams: [http://h:1]}\n").field())
                .isEqualTo("pathPrefix");
        assertThat(refusal("  - {name: a, pathPrefix: /a/%2fb, upstreams: [http://h:1]}\n").field())
                .isEqualTo("pathPrefix");
        assertThat(refusal("  - {name: a, pathPrefix: \"/a\\tb\", upstreams: [http://h:1]}\n").field())
                .isEqualTo("pathPrefix");
        String long10k = "x".repeat(10_240);
        InvalidProxyException name = refusal("  - {name: " + long10k + ", pathPrefix: /a, upstreams: [http://h:1]}\n");
        assertThat(name.field()).isEqualTo("name");
        assertThat(name.getMessage().length()).isLessThan(400);
        InvalidProxyException path = refusal("  - {name: a, pathPrefix: /" + long10k + ", upstreams: [http://h:1]}\n");
        assertThat(path.field()).isEqualTo("pathPrefix");
        assertThat(path.getMessage().length()).isLessThan(400);
    }
}
