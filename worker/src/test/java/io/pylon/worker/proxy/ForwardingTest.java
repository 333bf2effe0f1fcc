package io.pylon.worker.proxy;

import io.pylon.core.testing.LingeringClients;
import io.pylon.core.testing.RawWire;
import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.ScriptedUpstream;
import io.pylon.worker.testing.WireConnection;
import io.pylon.worker.testing.WireConnection.Message;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A route's forwarding fields and the pod's client settings on the wire: the request body limit (sized and chunked),
 * Host preservation, Location rewriting, response buffering, retries of idempotent requests, and the forwarding
 * headers of a trusted proxy against anyone else.
 */
class ForwardingTest {
    static ScriptedUpstream upstream;
    static Gateway gateway;
    static String host;
    static int port;

    @BeforeAll
    static void start() throws Exception {
        upstream = ScriptedUpstream.start();
        gateway = Gateway.start("forwarding-test", """
                routes:
                  - {name: small, pathPrefix: /small, stripPrefix: true, maxRequestBody: 1k, upstreams: [%1$s]}
                  - {name: open, pathPrefix: /open, stripPrefix: true, maxRequestBody: 0, upstreams: [%1$s]}
                  - {name: host, pathPrefix: /host, preserveHost: true, upstreams: [%1$s]}
                  - {name: moved, pathPrefix: /moved, stripPrefix: true, upstreams: [%1$s/redirect/base]}
                  - {name: raw, pathPrefix: /raw, stripPrefix: true, rewriteLocation: false,
                     upstreams: [%1$s/redirect/base]}
                  - {name: buffered, pathPrefix: /chunked, responseBuffering: true, upstreams: [%1$s]}
                  - {name: retried, pathPrefix: /fail-first, retries: {attempts: 1, onStatus: [503], within: 30s},
                     upstreams: [%1$s]}
                  - {name: named, host: abs.example, pathPrefix: /, preserveHost: true, upstreams: [%1$s]}
                  - {name: default, pathPrefix: /, upstreams: [%1$s]}
                """.formatted(upstream.url()), Map.of("pylon.worker.max-request-body", "64k",
                "pylon.worker.trusted-proxies", "10.0.0.0/8", "pylon.server.lingering-bytes", "16Mi"));
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

    private static WireConnection connect() throws Exception {
        return WireConnection.open(host, port);
    }

    private static String post(String path, int length) {
        return "POST " + path + " HTTP/1.1\r\nHost: api.test\r\nContent-Length: " + length + "\r\n\r\n";
    }

    @Test
    void sizedBodyOverTheLimitIsRefusedWith413BeforeTheUpstream() throws Exception {
        try (WireConnection c = connect()) {
            Message m = c.send(post("/small/echo", 1025)).read();
            assertThat(m.status()).isEqualTo(413);
            assertThat(m.header("content-type")).startsWith("application/json");
            assertThat(m.start()).contains("payload_too_large");
            assertThat(m.header("connection")).isEqualToIgnoringCase("close");
        }
        try (WireConnection c = connect()) {
            c.send(post("/echo", 64 * 1024 + 1)); // the pod's default for routes without a limit
            assertThat(c.read().status()).isEqualTo(413);
        }
        assertThat(upstream.seen()).isEmpty();
    }

    @Test
    void bodiesWithinTheLimitAndUnlimitedRoutesGoThrough() throws Exception {
        byte[] body = new byte[1024];
        Arrays.fill(body, (byte) 'x');
        try (WireConnection c = connect()) {
            Message m = c.send(post("/small/echo", 1024)).send(body).read();
            assertThat(m.status()).isEqualTo(200);
            assertThat(m.start()).startsWith("1024 ");
        }
        byte[] large = new byte[200 * 1024];
        try (WireConnection c = connect()) {
            Message m = c.send(post("/open/echo", large.length)).send(large).read();
            assertThat(m.status()).isEqualTo(200);
            assertThat(m.start()).startsWith(large.length + " ");
        }
    }

    @Test
    void chunkedBodyIsCountedAsItStreamsAndRefusedWith413() throws Exception {
        try (WireConnection c = connect()) {
            c.send("POST /small/echo HTTP/1.1\r\nHost: api.test\r\nTransfer-Encoding: chunked\r\n\r\n");
            byte[] piece = new byte[600];
            Arrays.fill(piece, (byte) 'y');
            for (int i = 0; i < 2; i++) {
                c.send("258\r\n").send(piece).send("\r\n");
            }
            c.send("0\r\n\r\n");
            Message m = c.read();
            assertThat(m.status()).isEqualTo(413);
            assertThat(m.start()).contains("payload_too_large");
        }
    }

    /** An early 413 reaches a client still writing its body: the pod's lingering close discards the rest. */
    @ParameterizedTest
    @ValueSource(ints = {300_000, 5_000_000})
    void aClientThatWritesTheWholeOversizedBodyBeforeReadingGetsThe413(int size) throws Exception {
        byte[] request = LingeringClients.post("/small/echo", size);
        for (int i = 0; i < 30; i++) {
            RawWire.Exchange exchange = RawWire.send(host, port, request, 10_000);

            assertThat(exchange.only().status()).as("attempt %d", i).isEqualTo(413);
            assertThat(exchange.only().header("content-type")).startsWith("application/json");
            assertThat(exchange.only().body()).contains("payload_too_large");
            assertThat(exchange.only().header("connection")).isEqualTo("close");
            assertThat(exchange.closed()).isTrue();
        }
        assertThat(upstream.seen()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(ints = {300_000, 5_000_000})
    void javasHttpClientGetsThe413AndItsNextRequestSucceeds(int size) {
        for (int i = 0; i < 30; i++) {
            HttpResponse<String> refused = LingeringClients.javaPost(URI.create(gateway.url("/small/echo")), size);

            assertThat(refused.statusCode()).as("attempt %d", i).isEqualTo(413);
            assertThat(refused.body()).contains("payload_too_large");
            assertThat(TestPods.get(gateway.pod, "/platform/management/health").statusCode()).isEqualTo(200);
        }
    }

    /**
     * Over HTTP/2 too: the answer carries no Connection header (a malformed HTTP/2 response, which Helidon resets), and
     * the refused bodies do not spend the connection's flow-control window: twenty on one HTTP/2 connection, then a
     * request with a body the route takes (Helidon 4.5.0 alone stalls the connection after three to eight).
     */
    @ParameterizedTest
    @ValueSource(ints = {300_000, 5_000_000})
    void javasHttpClientOverHttp2GetsThe413OnOneConnection(int size) throws Exception {
        twentyRefusalsOnOneHttp2Connection(() -> java.net.http.HttpRequest.BodyPublishers.ofByteArray(new byte[size]));
    }

    /**
     * A body of no declared length over HTTP/2 is refused once it grew past the route's limit, after the gateway read
     * part of it; the connection guard reads the rest, so such refusals leave the connection's flow-control window
     * whole too.
     */
    @ParameterizedTest
    @ValueSource(ints = {300_000, 5_000_000})
    void unsizedBodiesOverHttp2RefusedPartWayKeepTheConnection(int size) throws Exception {
        twentyRefusalsOnOneHttp2Connection(() -> java.net.http.HttpRequest.BodyPublishers.ofInputStream(
                () -> new java.io.ByteArrayInputStream(new byte[size])));
    }

    /** Twenty refused bodies on one HTTP/2 connection, then a request with a body the route takes. */
    private void twentyRefusalsOnOneHttp2Connection(
            java.util.function.Supplier<java.net.http.HttpRequest.BodyPublisher> body) throws Exception {
        try (java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient()) {
            // the client upgrades its connection on a request without a body (h2c), then POSTs over HTTP/2
            HttpResponse<String> health = client.send(java.net.http.HttpRequest.newBuilder(
                    URI.create(gateway.url("/platform/management/health"))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.version()).isEqualTo(java.net.http.HttpClient.Version.HTTP_2);
            for (int i = 0; i < 20; i++) {
                HttpResponse<String> refused = client.send(java.net.http.HttpRequest.newBuilder(
                                URI.create(gateway.url("/small/echo"))).timeout(Duration.ofSeconds(30))
                        .POST(body.get()).build(), HttpResponse.BodyHandlers.ofString());

                assertThat(refused.version()).isEqualTo(java.net.http.HttpClient.Version.HTTP_2);
                assertThat(refused.statusCode()).as("attempt %d", i).isEqualTo(413);
                assertThat(refused.headers().firstValue("connection")).isEmpty();
                assertThat(refused.body()).contains("payload_too_large");
            }
            HttpResponse<String> taken = client.send(java.net.http.HttpRequest.newBuilder(
                            URI.create(gateway.url("/small/echo"))).timeout(Duration.ofSeconds(30))
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString("after the refusals")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(taken.version()).isEqualTo(java.net.http.HttpClient.Version.HTTP_2);
            assertThat(taken.statusCode()).isEqualTo(200);
        }
    }

    @Test
    void theGatewayHalfClosesAfterAnEarlyAnswerAndTheClientsCloseEndsTheLingeringClose() throws Exception {
        try (LingeringClients.Silent silent = LingeringClients.sendThenWait(host, port, "/small/echo", 500_000)) {
            assertThat(silent.response()).startsWith("HTTP/1.1 413");
            assertThat(silent.halfClosed()).as("EOF after the answer").isTrue();
            // EOF while the pod still lingers (5 s of silence would end it): it came from the half-close
            assertThat(LingeringClients.lingering(TestPods.get(gateway.pod, "/platform/management/health").body()))
                    .isGreaterThanOrEqualTo(1);
        }
        Gateway.await("the lingering close ends with the client's close", 20_000, () -> LingeringClients.lingering(
                TestPods.get(gateway.pod, "/platform/management/health").body()) == 0);
    }

    @Test
    void aClientThatNeverStopsSendingIsCutByTheLingeringBound() throws Exception {
        LingeringClients.Endless endless = LingeringClients.sendForever(host, port, "/small/echo", 0,
                Duration.ofSeconds(120));

        assertThat(endless.response()).startsWith("HTTP/1.1 413");
        assertThat(endless.cut()).as("cut after %s, %d bytes", endless.cutAfter(), endless.bytesSent()).isTrue();
        // the pod's 16 MiB bound, plus what the two sockets' buffers hold
        assertThat(endless.bytesSent()).isGreaterThan(16L << 20).isLessThan(96L << 20);
        assertThat(upstream.seen()).isEmpty();
    }

    @Test
    void preserveHostSendsTheClientsHostOtherRoutesTheUpstreams() throws Exception {
        try (WireConnection c = connect()) {
            assertThat(c.send("GET /host/x HTTP/1.1\r\nHost: shop.example:8443\r\n\r\n").read().status()).isEqualTo(200);
            assertThat(c.send("GET /other HTTP/1.1\r\nHost: shop.example:8443\r\n\r\n").read().status()).isEqualTo(200);
        }
        assertThat(upstream.seen()).extracting(s -> s.header("Host"))
                .containsExactly("shop.example:8443", "127.0.0.1:" + upstream.port());
    }

    /**
     * RFC 9112 section 3.2.2: a server accepts an absolute-form target and takes its host in place of the Host
     * header's, for the route, the upstream's Host, the forwarding headers and a rewritten Location alike.
     */
    @Test
    void anAbsoluteFormTargetIsTakenWithItsHostInPlaceOfTheHostHeader() throws Exception {
        try (WireConnection c = connect()) {
            Message m = c.send("GET http://abs.example:8080/a/../x?q=1 HTTP/1.1\r\nHost: other.example\r\n\r\n").read();
            assertThat(m.status()).isEqualTo(200);
            assertThat(c.send("GET HTTPS://ABS.example HTTP/1.1\r\nHost: other.example\r\n\r\n").read().status())
                    .isEqualTo(200);
            Message moved = c.send("GET http://shop.example/moved/next HTTP/1.1\r\nHost: other.example\r\n\r\n").read();
            assertThat(moved.header("location")).isEqualTo("http://shop.example/moved/next/done");
        }
        List<ScriptedUpstream.Seen> seen = upstream.seen();
        assertThat(seen).extracting(ScriptedUpstream.Seen::requestLine).containsExactly("GET /x?q=1 HTTP/1.1",
                "GET / HTTP/1.1", "GET /redirect/base/next HTTP/1.1");
        assertThat(seen).extracting(s -> s.header("Host")).startsWith("abs.example:8080", "ABS.example");
        assertThat(seen.getFirst().header("X-Forwarded-Host")).isEqualTo("abs.example:8080");
        assertThat(seen.getFirst().header("Forwarded")).isEqualTo("for=127.0.0.1;proto=http;host=\"abs.example:8080\"");
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://user@abs.example/x", "ftp://abs.example/x", "http:///x", "http://abs.example:x/y",
            "http://a b/x", "*", "x/y", "http://abs.example/a/../../x", "http://abs.example/platform/health"})
    void anAbsoluteFormTargetThatIsNotAnHttpUrlIsRefused(String target) throws Exception {
        try (WireConnection c = connect()) {
            Message m = c.send("GET " + target + " HTTP/1.1\r\nHost: abs.example\r\n\r\n").read();
            assertThat(m.status()).isEqualTo(400);
            assertThat(m.start()).contains("\"error\":\"bad_request\"", "\"error_description\":\"The ");
        }
        assertThat(upstream.seen()).isEmpty();
    }

    /** A fully qualified name ({@code abs.example.}) is the same host: its routes take it, its Host is passed as sent. */
    @Test
    void aHostEndingInADotTakesTheRoutesOfItsName() throws Exception {
        try (WireConnection c = connect()) {
            assertThat(c.send("GET /x HTTP/1.1\r\nHost: ABS.example.:8080\r\n\r\n").read().status()).isEqualTo(200);
        }
        assertThat(upstream.seen()).extracting(s -> s.header("Host")).containsExactly("ABS.example.:8080");
    }

    /** A Host that is no host name or address never reaches the upstream (nor its Host, X-Forwarded-Host, Forwarded). */
    @ParameterizedTest
    @ValueSource(strings = {"po d", "a@b", "a/b", "pod\"x", "h:8o", "[::1", "a;b<c"})
    void aHostHeaderThatIsNoHostIsRefused(String value) throws Exception {
        try (WireConnection c = connect()) {
            Message m = c.send("GET /host/x HTTP/1.1\r\nHost: " + value + "\r\n\r\n").read();
            assertThat(m.status()).isEqualTo(400);
            assertThat(m.start()).contains("The Host header is not a valid host name");
        }
        assertThat(upstream.seen()).isEmpty();
    }

    @Test
    void locationPointingAtTheUpstreamIsRewrittenToTheClientsAddress() throws Exception {
        try (WireConnection c = connect()) {
            // the upstream (base path /redirect/base) redirects to its own absolute /redirect/base/next/done: the
            // client is sent to /moved/next/done
            Message m = c.send("GET /moved/next HTTP/1.1\r\nHost: api.example.com\r\n\r\n").read();
            assertThat(m.status()).isEqualTo(302);
            assertThat(m.header("location")).isEqualTo("http://api.example.com/moved/next/done");
            assertThat(m.header("content-location")).isEqualTo("http://api.example.com/moved/next/done");
            Message raw = c.send("GET /raw/next HTTP/1.1\r\nHost: api.example.com\r\n\r\n").read();
            assertThat(raw.header("location"))
                    .isEqualTo("http://127.0.0.1:" + upstream.port() + "/redirect/base/next/done");
        }
    }

    @Test
    void bufferedRouteSendsAnUnsizedBodyWithItsLength() throws Exception {
        try (WireConnection c = connect()) {
            Message buffered = c.send("GET /chunked/5000 HTTP/1.1\r\nHost: api.test\r\n\r\n").read();
            assertThat(buffered.framing()).isEqualTo(WireConnection.Framing.LENGTH);
            assertThat(buffered.crc()).isEqualTo(ScriptedUpstream.patternCrc(5000));
            Message large = c.send("GET /chunked/" + (2 * 1024 * 1024) + " HTTP/1.1\r\nHost: api.test\r\n\r\n").read();
            assertThat(large.framing()).isEqualTo(WireConnection.Framing.CHUNKED);
            assertThat(large.crc()).isEqualTo(ScriptedUpstream.patternCrc(2 * 1024 * 1024));
        }
    }

    @Test
    void idempotentRequestIsRetriedOnAListedStatusOthersAreNot() throws Exception {
        try (WireConnection c = connect()) {
            assertThat(c.send("GET /fail-first/a HTTP/1.1\r\nHost: api.test\r\n\r\n").read().status()).isEqualTo(200);
            c.send("POST /fail-first/b HTTP/1.1\r\nHost: api.test\r\nContent-Length: 1\r\n\r\nx");
            assertThat(c.read().status()).isEqualTo(503);
        }
        try (WireConnection c = connect()) {
            // a route without retries passes the 503 on
            assertThat(c.send("GET /status/503 HTTP/1.1\r\nHost: api.test\r\n\r\n").read().status()).isEqualTo(503);
        }
    }

    @Test
    void forwardingHeadersOfAnUntrustedClientAreReplaced() throws Exception {
        try (WireConnection c = connect()) {
            c.send("GET /h HTTP/1.1\r\nHost: api.test\r\nX-Real-IP: 6.6.6.6\r\nForwarded: for=6.6.6.6\r\n"
                    + "X-Forwarded-Port: 1\r\nX-Forwarded-Prefix: /evil\r\nX-Pylon-Application: app-forged\r\n\r\n")
                    .read();
        }
        ScriptedUpstream.Seen seen = upstream.seen().getFirst();
        assertThat(seen.header("X-Real-IP")).isEqualTo("127.0.0.1");
        assertThat(seen.header("Forwarded")).isEqualTo("for=127.0.0.1;proto=http;host=\"api.test\"");
        assertThat(seen.header("X-Forwarded-Port")).isEqualTo(String.valueOf(port));
        assertThat(seen.header("X-Forwarded-Prefix")).isNull();
        assertThat(seen.header("X-Pylon-Application")).as("only the gateway names the application").isNull();
    }

    /**
     * CGI, PHP, WSGI and Rack upstreams read X_Forwarded_For as X-Forwarded-For: no spelling of a forwarding header
     * with underscores reaches them beside the one this hop sets. nginx leaves out every such name.
     */
    @Test
    void underscoreSpellingsOfTheForwardingHeadersNeverReachTheUpstream() throws Exception {
        try (WireConnection c = connect()) {
            c.send("GET /h HTTP/1.1\r\nHost: api.test\r\nX_Forwarded_For: 6.6.6.6\r\nx_real_ip: 6.6.6.6\r\n"
                    + "X_FORWARDED_HOST: evil.example\r\nX-Forwarded_Proto: https\r\nX_Forwarded_Port: 1\r\n"
                    + "X_Forwarded_Prefix: /evil\r\nX_Pylon_Application: app-forged\r\nApi_Version: 2\r\n\r\n").read();
        }
        ScriptedUpstream.Seen seen = upstream.seen().getFirst();
        assertThat(seen.headers()).noneMatch(h -> h[0].indexOf('_') >= 0 && !h[0].equals("Api_Version"));
        assertThat(seen.header("Api_Version")).as("other names pass").isEqualTo("2");
        assertThat(seen.header("X-Real-IP")).isEqualTo("127.0.0.1");
        assertThat(seen.header("X-Forwarded-For")).isEqualTo("127.0.0.1");
    }
}
