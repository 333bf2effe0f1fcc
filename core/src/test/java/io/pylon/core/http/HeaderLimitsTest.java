package io.pylon.core.http;

import io.pylon.core.server.Pod;
import io.pylon.core.server.PodServer;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.RawWire;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Oversized headers get 431 at any size; a diagnostics call with two Authorization headers gets 400; a body with a
 * content coding gets 415.
 */
class HeaderLimitsTest {
    private static Pod pod;

    @BeforeAll
    static void start() {
        pod = TestPods.start(new FakeModule("limits").servingDiagnostics());
    }

    @AfterAll
    static void stop() {
        pod.close();
    }

    @ParameterizedTest
    @ValueSource(ints = {20, 64, 200, 1024})
    void anOversizedHeaderIs431(int kilobytes) throws IOException {
        String request = "GET /platform/management/health HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(kilobytes * 1024)
                + "\r\n\r\n";

        RawWire.Exchange exchange = RawWire.send("127.0.0.1", pod.port(), request.getBytes(StandardCharsets.US_ASCII), 5000);

        assertThat(exchange.only().status()).isEqualTo(431);
        assertThat(exchange.only().header("content-type")).startsWith("application/json");
        assertThat(exchange.only().body()).contains("request_header_fields_too_large");
    }

    @Test
    void manySmallHeadersAre431Too() throws IOException {
        StringBuilder request = new StringBuilder("GET /platform/management/health HTTP/1.1\r\nHost: x\r\n");
        for (int i = 0; i < 5000; i++) {
            request.append("X-H").append(i).append(": ").append("v".repeat(30)).append("\r\n");
        }
        RawWire.Exchange exchange = RawWire.send("127.0.0.1", pod.port(), request.append("\r\n").toString());

        assertThat(exchange.only().status()).isEqualTo(431);
    }

    /** One name repeated on 3,000 lines (24 KB on the wire) counts as 3,000 fields, not as one with 3,000 values. */
    @Test
    void aRepeatedHeaderCountsEachOfItsLines() throws IOException {
        String request = "GET /platform/management/health HTTP/1.1\r\nHost: x\r\n" + "X-N: 1\r\n".repeat(3000) + "\r\n";

        RawWire.Exchange exchange = RawWire.send("127.0.0.1", pod.port(), request);

        assertThat(exchange.only().status()).isEqualTo(431);
    }

    @Test
    void aRequestLineOverTheLimitIs414() throws IOException {
        RawWire.Exchange exchange = RawWire.send("127.0.0.1", pod.port(),
                "GET /" + "a".repeat(PodServer.MAX_REQUEST_LINE + 10) + " HTTP/1.1\r\nHost: x\r\n\r\n");

        assertThat(exchange.only().status()).isEqualTo(414);
    }

    /** The bounds are settings: a pod told to take 64 KiB of headers and 16 KiB of request line takes them. */
    @Test
    void raisedLimitsTakeLargerHeadsAndRefuseBeyondThem() throws IOException {
        Pod raised = TestPods.start(new FakeModule("raised-limits"), "raised-limits-test",
                java.util.Map.of("pylon.server.max-header-size", "64Ki", "pylon.server.max-request-line", "16Ki"));
        try {
            String health = "GET /platform/management/health";
            assertThat(RawWire.send("127.0.0.1", raised.port(), health + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                    + "Cookie: " + "c".repeat(40 * 1024) + "\r\n\r\n").only().status()).isEqualTo(200);
            assertThat(RawWire.send("127.0.0.1", raised.port(), health + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                    + "Cookie: " + "c".repeat(70 * 1024) + "\r\n\r\n").only().status()).isEqualTo(431);
            assertThat(RawWire.send("127.0.0.1", raised.port(), health + "?q=" + "q".repeat(12 * 1024)
                    + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").only().status()).isEqualTo(200);
            assertThat(RawWire.send("127.0.0.1", raised.port(), health + "?q=" + "q".repeat(20 * 1024)
                    + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").only().status()).isEqualTo(414);
        } finally {
            raised.close();
        }
        assertThat(RawWire.send("127.0.0.1", pod.port(), "GET /platform/management/health HTTP/1.1\r\nHost: x\r\n"
                + "Connection: close\r\nCookie: " + "c".repeat(40 * 1024) + "\r\n\r\n").only().status()).as("the default").isEqualTo(431);
    }

    /**
     * A pod that reads no coded body says so with 415 naming the header (Helidon's own answer is a bare 400), and the
     * next request on a new connection is served. The Worker relays such bodies instead (NginxConformanceTest).
     */
    @Test
    void aBodyWithAContentCodingIs415NamingIt() throws IOException {
        RawWire.Exchange exchange = RawWire.send("127.0.0.1", pod.port(), "POST /platform/management/health HTTP/1.1\r\n"
                + "Host: x\r\nContent-Encoding: gzip\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");

        assertThat(exchange.only().status()).isEqualTo(415);
        assertThat(exchange.only().header("content-type")).startsWith("application/json");
        assertThat(exchange.only().body()).contains("\"unsupported_media_type\"", RefusalReasons.CODED_BODY);
        assertThat(RawWire.send("127.0.0.1", pod.port(), "GET /platform/management/health HTTP/1.1\r\nHost: x\r\n\r\n")
                .only().status()).isEqualTo(200);
    }

    @Test
    void twoAuthorizationHeadersOnADiagnosticsCallAre400() throws IOException {
        RawWire.Exchange exchange = RawWire.send("127.0.0.1", pod.port(), "GET /platform/diagnostics/jvm HTTP/1.1\r\n"
                + "Host: x\r\nAuthorization: " + TestPods.ENVIRONMENT_ID + "\r\nAuthorization: wrong\r\n\r\n");

        assertThat(exchange.only().status()).isEqualTo(400);
        assertThat(exchange.only().body()).contains("\"error\":\"bad_request\"").contains("Authorization headers");
    }

    @Test
    void oneAuthorizationHeaderOnADiagnosticsCallStillWorks() throws IOException {
        RawWire.Exchange exchange = RawWire.send("127.0.0.1", pod.port(), "GET /platform/diagnostics/jvm HTTP/1.1\r\n"
                + "Host: x\r\nAuthorization: " + TestPods.ENVIRONMENT_ID + "\r\nConnection: close\r\n\r\n");

        assertThat(exchange.only().status()).isEqualTo(200);
    }
}
