package io.pylon.worker.proxy;

import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A proxy's policies on a real Worker pod: IP rules, header rules, path rewrite, CORS and key auth. */
class PoliciesTest {
    static TestUpstream echo;
    static Gateway gateway;

    @BeforeAll
    static void start() {
        echo = TestUpstream.echo("echo");
        String upstream = echo.url();
        gateway = Gateway.start("policies", """
                proxies:
                  - name: denied
                    pathPrefix: /denied
                    upstreams: [%1$s]
                    ipDeny: [127.0.0.0/8]
                  - name: allowed-via-proxy
                    pathPrefix: /via
                    upstreams: [%1$s]
                    ipAllow: [198.51.100.0/24]
                    trustedProxies: [127.0.0.1]
                  - name: headers
                    pathPrefix: /headers
                    rewritePrefix: /v2
                    upstreams: [%1$s]
                    requestHeaders: {add: {X-Env: prod}, remove: [X-Secret]}
                    responseHeaders: {add: {Cache-Control: no-store}, remove: [X-Body-Length]}
                  - name: cors
                    pathPrefix: /cors
                    upstreams: [%1$s]
                    cors: {allowOrigins: [https://app.example.com], allowMethods: [GET, PUT], allowHeaders: [Authorization],
                           exposeHeaders: [X-Request-Id], allowCredentials: true, maxAge: 10m}
                  - name: keyed
                    pathPrefix: /keyed
                    upstreams: [%1$s]
                    keyAuth: {}
                """.formatted(upstream), java.util.Map.of());
    }

    @AfterAll
    static void stop() {
        gateway.close();
        echo.close();
    }

    static HttpResponse<String> send(String method, String path, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.url(path))).timeout(Duration.ofSeconds(30))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (headers.length > 0) {
            request.headers(headers);
        }
        return TestPods.send(request.build());
    }

    @Test
    void ipRulesReadTheClientBehindTrustedProxiesOnly() {
        assertThat(send("GET", "/denied/x").statusCode()).isEqualTo(403);
        assertThat(send("GET", "/via/x").statusCode()).isEqualTo(403);
        assertThat(send("GET", "/via/x", "X-Forwarded-For", "198.51.100.7").statusCode()).isEqualTo(200);
        assertThat(send("GET", "/via/x", "X-Forwarded-For", "198.51.100.7, 203.0.113.1").statusCode()).isEqualTo(403);
    }

    @Test
    void headerRulesAndRewriteApplyBothWays() {
        HttpResponse<String> response = send("GET", "/headers/orders?id=1", "X-Secret", "s3cret");
        assertThat(response.body()).isEqualTo("echo GET /v2/orders?id=1");
        assertThat(response.headers().firstValue("X-Seen-X-env")).hasValue("prod");
        assertThat(response.headers().map().keySet().stream().noneMatch(h -> h.equalsIgnoreCase("x-seen-x-secret"))).isTrue();
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(response.headers().firstValue("X-Body-Length")).isEmpty();
    }

    /** CGI, PHP, WSGI and Rack upstreams read X_Env as X-Env: a rule decides what they see under either spelling. */
    @Test
    void headerRulesAlsoDecideTheUnderscoreSpellingsOfTheirHeaders() {
        HttpResponse<String> response = send("GET", "/headers/orders", "X_Env", "dev", "x_SECRET", "s3cret",
                "X_Secret", "s3cret", "Api_Version", "2");
        assertThat(response.headers().firstValue("X-Seen-X-env")).hasValue("prod");
        assertThat(response.headers().map().keySet()).noneMatch(h -> h.toLowerCase(java.util.Locale.ROOT)
                .matches("x-seen-x_(env|secret)"));
        assertThat(response.headers().firstValue("X-Seen-Api_version")).as("other names pass").hasValue("2");
    }

    @Test
    void corsPreflightIsAnsweredAndResponsesCarryThePolicy() {
        HttpResponse<String> preflight = send("OPTIONS", "/cors/x", "Origin", "https://app.example.com",
                "Access-Control-Request-Method", "PUT");
        assertThat(preflight.statusCode()).isEqualTo(204);
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Origin")).hasValue("https://app.example.com");
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Methods")).hasValue("GET, PUT");
        assertThat(preflight.headers().firstValue("Access-Control-Max-Age")).hasValue("600");
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Credentials")).hasValue("true");
        assertThat(send("OPTIONS", "/cors/x", "Origin", "https://evil.example.com",
                "Access-Control-Request-Method", "PUT").statusCode()).isEqualTo(403);
        HttpResponse<String> get = send("GET", "/cors/x", "Origin", "https://app.example.com");
        assertThat(get.headers().firstValue("Access-Control-Allow-Origin")).hasValue("https://app.example.com");
        assertThat(get.headers().firstValue("Access-Control-Expose-Headers")).hasValue("X-Request-Id");
        HttpResponse<String> other = send("GET", "/cors/x", "Origin", "https://evil.example.com");
        assertThat(other.statusCode()).isEqualTo(200);
        assertThat(other.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
    }

    @Test
    void keyAuthIsNeverServedOpen() {
        HttpResponse<String> refused = send("GET", "/keyed/x");
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(refused.body()).as("the body names the request a developer reports")
                .contains("\"request_id\":\"" + refused.headers().firstValue("X-Request-Id").orElseThrow() + "\"");
        HttpResponse<String> keyed = send("GET", "/keyed/x", "X-API-Key", "k-123");
        assertThat(keyed.statusCode()).isEqualTo(503);
        assertThat(keyed.body()).contains("key_store_unavailable");
    }
}
