package io.pylon.worker.proxy;

import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.ScriptedUpstream;
import io.pylon.worker.testing.WireConnection;
import io.pylon.worker.testing.WireConnection.Message;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Paths on the wire: every spelling of a dot-segment or separator either normalises to a path inside the route it
 * matched (and reaches the upstream in that form, under the upstream's base path) or is refused with 400; none
 * reaches another route's upstream, climbs out of a base path, or carries a platform path upstream.
 */
class PathsTest {
    static ScriptedUpstream upstream;
    static Gateway gateway;
    static String host;
    static int port;

    @BeforeAll
    static void start() throws Exception {
        upstream = ScriptedUpstream.start();
        gateway = Gateway.start("paths-test", """
                routes:
                  - {name: public, pathPrefix: /files/public, upstreams: [%1$s]}
                  - {name: stripped, pathPrefix: /s, stripPrefix: true, upstreams: [%1$s/base]}
                """.formatted(upstream.url()), Map.of());
        URI uri = URI.create(gateway.url("/"));
        host = uri.getHost();
        port = uri.getPort();
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        upstream.close();
    }

    @BeforeEach
    void forget() {
        upstream.clearSeen();
    }

    private static Message send(String requestLine) throws Exception {
        try (WireConnection c = WireConnection.open(host, port)) {
            return c.send(requestLine + "\r\nHost: files.test\r\n\r\n").read();
        }
    }

    private static void assertNothingClimbedOut() {
        for (ScriptedUpstream.Seen seen : upstream.seen()) {
            String target = seen.requestLine().split(" ")[1];
            assertThat(target).as("what the upstream received")
                    .matches("/files/public(/.*)?|/base(/.*)?")
                    .doesNotContain("/..", "/./", "%2e", "%2E", "\\", "/platform");
        }
    }

    @ParameterizedTest
    @CsvSource({
            "/files/public/a.txt, /files/public/a.txt",
            "/files/public/x/../a.txt, /files/public/a.txt",
            "/files/public/x/%2e%2e/a.txt, /files/public/a.txt",
            "/files/public/x/%2E%2e/a.txt, /files/public/a.txt",
            "/files/public/./a.txt, /files/public/a.txt",
            "/files/public/%252e%252e/a.txt, /files/public/%252e%252e/a.txt",
            "/files/public/a.txt;v=1, /files/public/a.txt;v=1",
            "/files/%70ublic/a.txt, /files/public/a.txt",
            "/s/a/../b, /base/b",
            "/s/%2e%2e/s/b, /base/b",
            "/s, /base"})
    void normalisedPathIsMatchedAndForwarded(String path, String upstreamTarget) throws Exception {
        Message response = send("GET " + path + " HTTP/1.1");
        assertThat(response.status()).as(path).isEqualTo(200);
        assertThat(response.start()).isEqualTo("target " + upstreamTarget);
        assertNothingClimbedOut();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "/files/public/../private/secret.txt",
            "/files/public/%2e%2e/private/secret.txt",
            "/files/public/%2E%2E/private/secret.txt",
            "/files/public/.%2e/private/secret.txt",
            "/s/a/../../etc/passwd"})
    void dotSegmentsLeavingThePrefixFindNoRoute(String path) throws Exception {
        Message response = send("GET " + path + " HTTP/1.1");
        assertThat(response.status()).as(path).isEqualTo(404);
        assertThat(upstream.seen()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "/files/public/..%2fprivate/secret.txt",
            "/files/public/..%2Fprivate/secret.txt",
            "/files/public%2f..%2fprivate/secret.txt",
            "/files/public/..%5cprivate/secret.txt",
            "/files/public/..\\private/secret.txt",
            "/files/public/..;/private/secret.txt",
            "/files/public/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
            "/s/../../etc",
            "/s/%2e%2e/%2e%2e/etc",
            "/files/public/%zz"})
    void escapesAreRefusedWith400(String path) throws Exception {
        Message response = send("GET " + path + " HTTP/1.1");
        assertThat(response.status()).as(path).isEqualTo(400);
        assertThat(response.header("content-type")).startsWith("application/json");
        assertThat(response.start()).contains("\"error\"");
        assertThat(upstream.seen()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "/files/public/../../platform/management/health",
            "/files/public/%2e%2e/%2e%2e/platform/management/health",
            "/files/public/../../PLATFORM/../platform/diagnostics/jvm",
            "/s/../platform/management/version"})
    void noProxiedPathReachesAPlatformPathUpstream(String path) throws Exception {
        // Helidon's own normal form may still take such a path to the pod's endpoint (the same answer as its plain
        // spelling gives), or the gateway refuses it: either way no upstream sees it
        Message response = send("GET " + path + " HTTP/1.1");
        assertThat(response.status()).as(path).isIn(200, 400, 401, 404);
        if (response.status() == 200) {
            assertThat(response.start()).as(path).doesNotStartWith("target");
        }
        assertThat(upstream.seen()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {" /files/public/a HTTP/1.1", "GET  HTTP/1.1", "GET /files/public/a", "GET /files/public/a HTTP/9.9",
            "G(T /files/public/a HTTP/1.1", "GET files/public/a HTTP/1.1"})
    void malformedRequestLinesAreRefusedWith400(String requestLine) throws Exception {
        try (WireConnection c = WireConnection.open(host, port)) {
            c.send(requestLine + "\r\nHost: files.test\r\n\r\n");
            Message response = c.read();
            assertThat(response.status()).as(requestLine).isEqualTo(400);
        }
        assertThat(upstream.seen()).isEmpty();
    }
}
