package io.pylon.worker.listener;

import io.pylon.core.testing.RawWire;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.ScriptedUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Large request headers (session cookies, tokens with many claims) on a gateway whose
 * {@code pylon.server.max-header-size} is raised to 32 KiB, over HTTP/1.1 and HTTP/2 alike: within the bound the
 * upstream gets them whole; past it the client gets 431 with JSON on both protocols, never a dead connection. The
 * cookie is of {@code ~}, which HPACK's Huffman code makes longer, so it is sent as it is: its encoded size is its size.
 */
class LargeHeadersTest {
    static ScriptedUpstream upstream;
    static Gateway gateway;

    @BeforeAll
    static void start() throws IOException {
        upstream = ScriptedUpstream.start();
        gateway = Gateway.start("large-headers-test", """
                routes:
                  - {name: api, pathPrefix: /, upstreams: [%s]}
                """.formatted(upstream.url()), Map.of("pylon.server.max-header-size", "32Ki"));
    }

    @AfterAll
    static void stop() throws IOException {
        gateway.close();
        upstream.close();
    }

    @BeforeEach
    void forget() {
        upstream.clearSeen();
    }

    @Test
    void withinTheBoundALargeCookieReachesTheUpstreamOverHttp11() throws IOException {
        String cookie = "~".repeat(24 * 1024);
        RawWire.Exchange exchange = RawWire.send("127.0.0.1", gateway.pod.port(), "GET /x HTTP/1.1\r\nHost: api\r\n"
                + "Connection: close\r\nCookie: " + cookie + "\r\n\r\n");

        assertThat(exchange.only().status()).isEqualTo(200);
        assertThat(upstream.seen().getFirst().header("cookie")).isEqualTo(cookie);
    }

    @Test
    void withinTheBoundALargeCookieReachesTheUpstreamOverHttp2() {
        String cookie = "~".repeat(24 * 1024);
        Curl.Result result = Curl.run("--http2-prior-knowledge", "-o", "/dev/null", "-w", "%{http_version} %{http_code}",
                "-H", "Cookie: " + cookie, gateway.url("/x"));

        assertThat(result.out()).as(result.err()).isEqualTo("2 200");
        assertThat(upstream.seen().getFirst().header("cookie")).isEqualTo(cookie);
    }

    @Test
    void pastTheBoundBothProtocolsAnswer431() throws IOException {
        String cookie = "~".repeat(40 * 1024);
        RawWire.Exchange exchange = RawWire.send("127.0.0.1", gateway.pod.port(), "GET /x HTTP/1.1\r\nHost: api\r\n"
                + "Connection: close\r\nCookie: " + cookie + "\r\n\r\n");
        assertThat(exchange.only().status()).isEqualTo(431);
        assertThat(exchange.only().body()).contains("request_header_fields_too_large");

        Curl.Result result = Curl.run("--http2-prior-knowledge", "-w", "\n%{http_version} %{http_code}",
                "-H", "Cookie: " + cookie, gateway.url("/x"));
        assertThat(result.out()).as(result.err()).contains("request_header_fields_too_large").endsWith("\n2 431");
        assertThat(upstream.seen()).as("nothing reached the upstream").isEmpty();
    }
}
