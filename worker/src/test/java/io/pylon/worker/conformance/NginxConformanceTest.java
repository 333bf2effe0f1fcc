package io.pylon.worker.conformance;

import io.pylon.core.testing.LingeringClients;
import io.pylon.core.testing.RawWire;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.Nginx;
import io.pylon.worker.testing.ScriptedUpstream;
import io.pylon.worker.testing.WireConnection;
import io.pylon.worker.testing.WireConnection.Message;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same raw requests through a Worker pod and through a real nginx configured as an operator would put it in front
 * of an API ({@code proxy_pass} to an upstream block with keep-alive connections, {@code proxy_http_version 1.1},
 * buffering off so streams stream), both to the same scripted upstream. Where the two should agree, the test compares
 * what each client saw, written out as text so that a failure shows both; where the Worker differs on purpose, each
 * side's behaviour is asserted (docs/worker.md, "Conformance with nginx", lists every such difference).
 */
class NginxConformanceTest {
    static final long KIB = 1024;
    static final long MIB = 1024 * KIB;
    static final String HOST = "api.example.test";
    /** nginx's lingering_time on the limited location and the Worker's, shorter than the default 30 s for the test. */
    static final String LINGERING_TIME = "3s";

    static NginxBeside proxies;
    static ScriptedUpstream upstream;
    static Nginx nginx;
    static int workerPort;

    @BeforeAll
    static void start() throws Exception {
        proxies = NginxBeside.start("conformance-test", """
                        client_max_body_size 128m;
                        location /limited/ {
                            client_max_body_size 64k;
                            lingering_time %1$s;
                            proxy_pass http://api;
                        }
                        location /request-id/ {
                            proxy_pass http://api;
                            proxy_http_version 1.1;
                            proxy_set_header Connection "";
                            proxy_set_header X-Request-Id $request_id;
                            add_header X-Request-Id $request_id always;
                        }
                """.formatted(LINGERING_TIME), """
                routes:
                  - {name: limited, pathPrefix: /limited/, maxRequestBody: 64k, upstreams: [%1$s]}
                  - {name: api, pathPrefix: /, upstreams: [%1$s]}
                """, Map.of("pylon.server.lingering-time", LINGERING_TIME));
        upstream = proxies.upstream;
        nginx = proxies.nginx;
        workerPort = proxies.workerPort;
    }

    @AfterEach
    void noSevereLines() {
        assertThat(proxies.severe.lines()).as("the Worker's SEVERE log lines").isEmpty();
    }

    @AfterAll
    static void stop() throws Exception {
        if (proxies != null) {
            proxies.close();
        }
    }

    /** What one client saw through one proxy, as text to compare. */
    @FunctionalInterface
    interface Scenario {
        String observe(int port) throws Exception;
    }

    private static void agree(String what, Scenario scenario) throws Exception {
        String throughNginx = scenario.observe(nginx.port());
        String throughWorker = scenario.observe(workerPort);
        assertThat(throughWorker).as("%s: the Worker against nginx", what).isEqualTo(throughNginx);
    }

    private static WireConnection connect(int port) throws Exception {
        return WireConnection.open("127.0.0.1", port);
    }

    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n";
    }

    /** Status, framing and the body as expected of a generated body of {@code size} bytes. */
    private static String body(Message m, long size) {
        return m.status() + " " + m.framing() + " length=" + m.length() + " complete=" + m.complete()
                + " content=" + (m.crc() == ScriptedUpstream.patternCrc(size) ? "as sent" : "different");
    }

    @Test
    void aClientLeavingWhileTheUpstreamIsSilentReleasesTheUpstreamConnection() throws Exception {
        agree("the upstream connection once the client left", port -> {
            String key = "left-" + port;
            WireConnection c = connect(port).send(get("/hold/" + key));
            Gateway.await("the upstream got the request", 5_000, () -> upstream.holds(key));
            c.close();
            // nginx notices at once (its event loop), the Worker within a sweep or two; the response timeout is 30 s
            return upstream.awaitReleased(key, 5_000) >= 0 ? "released within 5 s" : "still held after 5 s";
        });
    }

    /** nginx takes the end of the client's side for its leaving (EPOLLRDHUP), whatever it then reads; so does the Worker. */
    @Test
    void aClientHalfClosingWhileTheUpstreamIsSlowIsTakenAsGone() throws Exception {
        agree("a half-close after the request", port -> {
            try (WireConnection c = connect(port)) {
                c.send(get("/delay/1500"));
                c.halfClose();
                return c.closesWithin(5_000) ? "closed without an answer" : "still open after 5 s";
            }
        });
    }

    @Test
    void keepAliveConnectionCarriesTheNextRequestAfterEveryBodySize() throws Exception {
        agree("sized bodies on one connection", port -> {
            List<String> seen = new ArrayList<>();
            try (WireConnection c = connect(port)) {
                for (long size : List.of(0L, 16 * KIB - 1, 16 * KIB, 16 * KIB + 1, MIB, 100 * MIB)) {
                    seen.add(size + ": " + body(c.send(get("/bytes/" + size)).read(), size));
                }
                seen.add("after: " + c.send(get("/after")).read().start());
            }
            return String.join("\n", seen);
        });
    }

    @Test
    void chunkedResponsesAreReadToTheirEndTwicePerConnection() throws Exception {
        agree("chunked bodies twice on one connection", port -> {
            List<String> seen = new ArrayList<>();
            try (WireConnection c = connect(port)) {
                for (int round = 0; round < 2; round++) {
                    for (long size : List.of(1L, 16 * KIB + 1, MIB)) {
                        seen.add(size + ": " + body(c.send(get("/chunked/" + size)).read(), size));
                    }
                }
            }
            return String.join("\n", seen);
        });
    }

    @Test
    void tricklingResponsesAndServerSentEventsAreStreamed() throws Exception {
        // the upstream sends its first piece at once and the next after 1.5 s: a proxy that held the response until
        // it ended would show its first byte after 1.5 s
        agree("first byte before the upstream's second piece", port -> {
            List<String> seen = new ArrayList<>();
            for (String path : List.of("/trickle/2/1500", "/sse/2/1500")) {
                try (WireConnection c = connect(port)) {
                    Message m = c.send(get(path)).read();
                    seen.add(path + ": " + m.status() + " " + m.framing() + " complete=" + m.complete() + " streamed="
                            + (m.firstByteMillis() >= 0 && m.firstByteMillis() < 1500) + " type="
                            + m.header("content-type") + " body=" + m.start().replace("\n", "|"));
                }
            }
            return String.join("\n", seen);
        });
    }

    @Test
    void earlyHintsAreDroppedByTheWorkerAndPassedAsFinalByNginx() throws Exception {
        // deliberate difference: nginx 1.22 takes an upstream's 103 for the final response (it sends the 103 head,
        // then the upstream's real response as if it were the body: the connection is out of step); the Worker drops
        // interim responses and sends the final one
        try (WireConnection c = connect(nginx.port())) {
            assertThat(c.send(get("/hints")).readStatusLine()).isEqualTo("HTTP/1.1 103 Early Hints");
        }
        try (WireConnection c = connect(workerPort)) {
            Message hints = c.send(get("/hints")).read();
            assertThat(hints.interim()).isEmpty();
            assertThat(hints.status()).isEqualTo(200);
            assertThat(hints.start()).isEqualTo("ok");
            assertThat(c.send(get("/after")).read().start()).isEqualTo("target /after");
        }
    }

    @Test
    void noContentNotModifiedAndHead() throws Exception {
        agree("204, 304 and HEAD on one connection", port -> {
            List<String> seen = new ArrayList<>();
            try (WireConnection c = connect(port)) {
                for (String path : List.of("/status/204", "/status/304")) {
                    Message m = c.send(get(path)).read();
                    seen.add(path + ": " + m.status() + " content-length=" + m.header("content-length")
                            + " transfer-encoding=" + m.header("transfer-encoding") + " etag=" + m.header("etag"));
                }
                Message head = c.send("HEAD /bytes/5000 HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n").read(true);
                seen.add("HEAD /bytes/5000: " + head.status() + " content-length=" + head.header("content-length"));
                seen.add("after: " + c.send(get("/after")).read().start());
            }
            return String.join("\n", seen);
        });
    }

    @Test
    void headOfAChunkedResourceSaysContentLengthZeroThroughTheWorker() throws Exception {
        // known difference: Helidon 4.5 puts Content-Length: 0 on every HEAD answer without a length; nginx sends none
        String head = "HEAD /chunked/5000 HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n";
        try (WireConnection c = connect(nginx.port())) {
            assertThat(c.send(head).read(true).header("content-length")).isNull();
        }
        try (WireConnection c = connect(workerPort)) {
            assertThat(c.send(head).read(true).header("content-length")).isEqualTo("0");
            assertThat(c.send(get("/after")).read().start()).isEqualTo("target /after");
        }
    }

    /**
     * A header value in UTF-8 (obs-text to HTTP) passes byte for byte both ways, as through nginx: a response header to
     * the client, a request header (a name, a cookie) to the upstream.
     */
    @Test
    void headerBytesOutsideAsciiPassUnchangedBothWays() throws Exception {
        String utf8 = new String("José, café €".getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        agree("a response header in UTF-8", port -> {
            try (WireConnection c = connect(port)) {
                Message response = c.send(get("/utf8-header")).read();
                return response.status() + " client got Content-Disposition bytes " + hex(response.header("content-disposition"));
            }
        });
        agree("request headers in UTF-8", port -> {
            upstream.clearSeen();
            try (WireConnection c = connect(port)) {
                Message answer = c.send("GET /x HTTP/1.1\r\nHost: " + HOST + "\r\nX-Name:  \t" + utf8 + " \r\nCookie: n="
                        + utf8 + "\r\nX-Ascii: plain\r\n\r\n").read();
                ScriptedUpstream.Seen sent = upstream.seen().stream()
                        .filter(seen -> seen.requestLine().startsWith("GET /x ")).findFirst().orElseThrow();
                return answer.status() + " upstream got X-Name bytes " + hex(sent.header("x-name")) + ", Cookie bytes "
                        + hex(sent.header("cookie")) + ", X-Ascii " + sent.header("x-ascii");
            }
        });
    }

    @Test
    void fieldsRepeatedOnTheWireAreEachPassedInTheirOrder() throws Exception {
        agree("a response's repeated fields", port -> {
            try (WireConnection c = connect(port)) {
                Message response = c.send(get("/repeated-headers")).read();
                return response.status() + " " + lines(response.headers(), "set-cookie", "x-multi", "link",
                        "cache-control", "vary");
            }
        });
        agree("a request's repeated fields", port -> {
            upstream.clearSeen();
            try (WireConnection c = connect(port)) {
                Message answer = c.send("GET /x HTTP/1.1\r\nHost: " + HOST + "\r\nCookie: a=1\r\nX-Multi: one\r\n"
                        + "Accept: text/html\r\nCookie: b=2\r\nX-Multi: two, three\r\nAccept: */*;q=0.1\r\n"
                        + "Accept-Language: en\r\nAccept-Language: fr;q=0.5\r\n\r\n").read();
                ScriptedUpstream.Seen sent = upstream.seen().stream()
                        .filter(seen -> seen.requestLine().startsWith("GET /x ")).findFirst().orElseThrow();
                return answer.status() + " upstream got " + lines(sent.headers(), "cookie", "x-multi", "accept",
                        "accept-language");
            }
        });
    }

    /**
     * CGI, PHP, WSGI and Rack upstreams read {@code X_Forwarded_For} as {@code X-Forwarded-For}. nginx leaves out every
     * header with an underscore ({@code underscores_in_headers off}); the Worker leaves out those spelling a header it
     * sets, and passes other such names (an API's {@code Api_Version}), as Kong, Envoy and HAProxy do.
     */
    @Test
    void forwardingHeadersSpeltWithUnderscoresReachTheUpstreamThroughNeither() throws Exception {
        String request = "GET /x HTTP/1.1\r\nHost: " + HOST + "\r\nX_Forwarded_For: 6.6.6.6\r\nX_Real_IP: 6.6.6.6\r\n"
                + "x_forwarded_host: evil.example\r\nX-Forwarded_Proto: https\r\nX_Pylon_Application: forged\r\n"
                + "Api_Version: 2\r\n\r\n";
        Scenario underscored = port -> {
            upstream.clearSeen();
            try (WireConnection c = connect(port)) {
                Message answer = c.send(request).read();
                ScriptedUpstream.Seen sent = upstream.seen().stream()
                        .filter(seen -> seen.requestLine().startsWith("GET /x ")).findFirst().orElseThrow();
                return answer.status() + " upstream got " + sent.headers().stream().map(h -> h[0])
                        .filter(name -> name.indexOf('_') >= 0).toList();
            }
        };
        String throughNginx = underscored.observe(nginx.port());
        String throughWorker = underscored.observe(workerPort);
        assertThat(throughNginx).isEqualTo("200 upstream got []");
        assertThat(throughWorker).as("a deliberate difference: other names pass").isEqualTo("200 upstream got [Api_Version]");
    }

    /**
     * A request's identifier as nginx operators give one ({@code proxy_set_header X-Request-Id $request_id} and
     * {@code add_header ... always}) and as the Worker does by default: the client's value is replaced, and the
     * upstream gets the one the client gets back (nginx: 32 hex digits; the Worker: a UUID).
     */
    @Test
    void theUpstreamAndTheClientGetOneNewRequestIdThroughBoth() throws Exception {
        Scenario identified = port -> {
            upstream.clearSeen();
            try (WireConnection c = connect(port)) {
                Message answer = c.send("GET /request-id/x HTTP/1.1\r\nHost: " + HOST
                        + "\r\nX-Request-Id: forged\r\n\r\n").read();
                List<String> returned = answer.headers().stream().filter(h -> h[0].equalsIgnoreCase("X-Request-Id"))
                        .map(h -> h[1]).toList();
                ScriptedUpstream.Seen sent = upstream.seen().stream()
                        .filter(seen -> seen.requestLine().startsWith("GET /request-id/x ")).findFirst().orElseThrow();
                List<String> forwarded = sent.headers().stream().filter(h -> h[0].equalsIgnoreCase("X-Request-Id"))
                        .map(h -> h[1]).toList();
                return answer.status() + " returned " + returned.size() + ", forwarded " + forwarded.size()
                        + (returned.equals(forwarded) ? ", the same" : ", different")
                        + (returned.contains("forged") ? ", the client's" : ", new");
            }
        };
        String throughNginx = identified.observe(nginx.port());
        assertThat(throughNginx).isEqualTo("200 returned 1, forwarded 1, the same, new");
        assertThat(identified.observe(workerPort)).isEqualTo(throughNginx);
    }

    /**
     * The lines of the named fields, a field after another in the order of {@code names}, each field's lines in the
     * order they came: the order of one field's lines carries meaning, the order between fields does not (RFC 9110,
     * 5.3), and the Worker writes a field's lines together where nginx keeps the upstream's order.
     */
    private static String lines(List<String[]> headers, String... names) {
        StringBuilder out = new StringBuilder();
        for (String name : names) {
            for (String[] h : headers) {
                if (h[0].equalsIgnoreCase(name)) {
                    out.append('\n').append(name).append(": ").append(h[1]);
                }
            }
        }
        return out.toString();
    }

    private static String hex(String latin1) {
        return latin1 == null ? "(none)" : java.util.HexFormat.of().formatHex(latin1.getBytes(StandardCharsets.ISO_8859_1));
    }

    /**
     * TRACE (it sends the request back, cookies and credentials included: cross-site tracing) and CONNECT (a tunnel)
     * are refused with 405 and never reach the upstream, as nginx refuses them. nginx then closes the connection; the
     * Worker keeps it (deliberate difference: the refused request had no body, so the next one is framed) and serves
     * the next request. A route that names them in its {@code methods} takes them ({@code ProxyTest}).
     */
    @Test
    void traceAndConnectAreRefusedWithoutReachingTheUpstream() throws Exception {
        Map<Integer, List<String>> next = new java.util.HashMap<>();
        agree("TRACE and CONNECT", port -> {
            List<String> seen = new ArrayList<>();
            for (String method : List.of("TRACE", "CONNECT")) {
                upstream.clearSeen();
                try (WireConnection c = connect(port)) {
                    Message refused = c.send(method + " /x HTTP/1.1\r\nHost: " + HOST + "\r\nCookie: session=1\r\n\r\n")
                            .read();
                    seen.add(method + " " + refused.status() + ", upstream saw " + upstream.seen().stream()
                            .filter(r -> r.requestLine().startsWith(method)).count());
                    next.computeIfAbsent(port, p -> new ArrayList<>())
                            .add(c.closesWithin(200) ? "closed" : c.send(get("/after")).read().start());
                }
            }
            return String.join("\n", seen);
        });
        assertThat(next.get(nginx.port())).containsExactly("closed", "closed");
        assertThat(next.get(workerPort)).containsExactly("target /after", "target /after");
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        agree("three pipelined requests", port -> {
            List<String> seen = new ArrayList<>();
            try (WireConnection c = connect(port)) {
                c.send(get("/bytes/10") + get("/chunked/20000") + get("/bytes/16385") + get("/last"));
                seen.add(body(c.read(), 10));
                seen.add(body(c.read(), 20000));
                seen.add(body(c.read(), 16385));
                seen.add(c.read().start());
            }
            return String.join("\n", seen);
        });
    }

    @Test
    void http10ClientsWithoutKeepAliveGetTheBodyAndAClose() throws Exception {
        agree("HTTP/1.0", port -> {
            List<String> seen = new ArrayList<>();
            for (String path : List.of("/bytes/0", "/bytes/100", "/bytes/16385", "/chunked/1000", "/chunked/100000")) {
                long size = Long.parseLong(path.substring(path.lastIndexOf('/') + 1));
                try (WireConnection c = connect(port)) {
                    Message m = c.send("GET " + path + " HTTP/1.0\r\nHost: " + HOST + "\r\n\r\n").read();
                    // an unsized body can only end with the close for an HTTP/1.0 client: never chunked
                    seen.add("1.0 " + path + ": " + m.statusLine().substring(0, 8) + " " + body(m, size)
                            + " closed=" + (m.framing() == WireConnection.Framing.CLOSE || c.closesWithin(5000)));
                }
            }
            return String.join("\n", seen);
        });
    }

    @Test
    void http10KeepAliveIsKeptForSizedAnswersAndEndedByAnUnsizedOne() throws Exception {
        agree("HTTP/1.0 keep-alive", port -> {
            List<String> seen = new ArrayList<>();
            String keepAlive = "\r\nHost: " + HOST + "\r\nConnection: keep-alive\r\n\r\n";
            try (WireConnection c = connect(port)) {
                for (String path : List.of("/bytes/100", "/bytes/0", "/bytes/16385", "/bytes/100")) {
                    long size = Long.parseLong(path.substring(path.lastIndexOf('/') + 1));
                    Message m = c.send("GET " + path + " HTTP/1.0" + keepAlive).read();
                    seen.add("1.0 keep-alive " + path + ": " + m.status() + " " + body(m, size) + " connection="
                            + String.valueOf(m.header("connection")).toLowerCase(java.util.Locale.ROOT) + " length="
                            + m.header("content-length"));
                }
                Message head = c.send("HEAD /bytes/5000 HTTP/1.0" + keepAlive).read(true);
                seen.add("1.0 keep-alive HEAD: " + head.status() + " length=" + head.header("content-length")
                        + " connection=" + String.valueOf(head.header("connection")).toLowerCase(java.util.Locale.ROOT));
                // an unsized answer cannot be framed for HTTP/1.0: it ends with the close, keep-alive or not
                Message chunked = c.send("GET /chunked/1000 HTTP/1.0" + keepAlive).read();
                seen.add("1.0 keep-alive /chunked/1000: " + chunked.status() + " " + body(chunked, 1000)
                        + " closed=" + (chunked.framing() == WireConnection.Framing.CLOSE || c.closesWithin(5000)));
            }
            return String.join("\n", seen);
        });
    }

    @Test
    void requestBodiesWithLengthChunkedAndExpectContinue() throws Exception {
        byte[] payload = new byte[100_000];
        Arrays.fill(payload, (byte) 'x');
        CRC32 crc = new CRC32();
        crc.update(payload);
        String expected = payload.length + " " + crc.getValue();
        agree("request bodies", port -> {
            List<String> seen = new ArrayList<>();
            try (WireConnection c = connect(port)) {
                c.send("POST /echo HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Length: " + payload.length + "\r\n\r\n");
                c.send(payload);
                seen.add("length: " + echoed(c.read(), expected));
                c.send("POST /echo HTTP/1.1\r\nHost: " + HOST + "\r\nTransfer-Encoding: chunked\r\n\r\n");
                for (int offset = 0; offset < payload.length; offset += 30_000) {
                    int n = Math.min(30_000, payload.length - offset);
                    c.send(Integer.toHexString(n) + "\r\n");
                    c.send(Arrays.copyOfRange(payload, offset, offset + n));
                    c.send("\r\n");
                }
                c.send("0\r\n\r\n");
                seen.add("chunked: " + echoed(c.read(), expected));
                c.send("POST /echo HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Length: " + payload.length
                        + "\r\nExpect: 100-continue\r\n\r\n");
                seen.add("expect: " + c.readStatusLine());
                c.send(payload);
                seen.add("expect: " + echoed(c.read(), expected));
            }
            return String.join("\n", seen);
        });
    }

    /**
     * Targets RFC 3986 wants percent-encoded but clients send as they are (JSON:API's {@code filter[status]}, PHP's and
     * Rails' {@code ids[]}, {@code a|b}, a stray {@code %} in a query) reach the upstream as they came, as through nginx;
     * what nginx refuses (an encoded NUL in the path, a malformed percent-encoding in the path, control characters) is
     * refused with 400 by both.
     */
    @Test
    void requestTargetsPassOrAreRefusedAsThroughNginx() throws Exception {
        String[] passed = {"/x?filter[status]=active&ids[]=1", "/x?fields=a|b", "/x?q=50%off", "/x?q={\"a\":1}",
                "/x?q=a^b`c\\d", "/x?q=<b>", "/a[1]/b|c", "/a{b}/c^d", "/a\"b", "/x?a=%00"};
        String[] refused = {"/x%00y", "/%zz", "/x\u0001y", "/x?a=\u0001", "/x\u007fy", "/x\ty"};
        agree("request targets", port -> {
            List<String> seen = new ArrayList<>();
            for (String target : passed) {
                upstream.clearSeen();
                try (WireConnection c = connect(port)) {
                    Message answer = c.send("GET " + target + " HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n").read();
                    seen.add(target + " -> " + answer.status() + ", upstream got " + upstream.seen().stream()
                            .map(ScriptedUpstream.Seen::requestLine).toList());
                }
            }
            for (String target : refused) {
                upstream.clearSeen();
                try (WireConnection c = connect(port)) {
                    Message answer = c.send(("GET " + target + " HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1)).read();
                    seen.add(target + " -> " + answer.status() + ", upstream got " + upstream.seen().size());
                }
            }
            return String.join("\n", seen);
        });
    }

    /**
     * An absolute-form target (RFC 9112 section 3.2.2: servers accept it, clients send it to proxies) reaches the
     * upstream in origin form, its host taken in place of the Host header's.
     */
    @Test
    void absoluteFormTargetsPassInOriginForm() throws Exception {
        String[] targets = {"http://" + HOST + "/x?a=1", "HTTP://" + HOST + ":80/a/b", "https://" + HOST,
                "http://" + HOST + "?q=1", "http://user@" + HOST + "/x"};
        agree("absolute-form targets", port -> {
            List<String> seen = new ArrayList<>();
            for (String target : targets) {
                upstream.clearSeen();
                try (WireConnection c = connect(port)) {
                    Message answer = c.send("GET " + target + " HTTP/1.1\r\nHost: other.example\r\n\r\n").read();
                    seen.add(target + " -> " + answer.status() + ", upstream got " + upstream.seen().stream()
                            .map(ScriptedUpstream.Seen::requestLine).toList());
                }
            }
            return String.join("\n", seen);
        });
    }

    /**
     * The upstream's reason phrase reaches the client as it came, standard or not ({@code 422 Validation Failed}),
     * also for a status HTTP does not name. Deliberate differences: a phrase holding a control character or bytes
     * outside ASCII, which Helidon cannot write, and an empty one give way to the standard phrase (nginx passes them),
     * and a standard phrase in other letter case is sent in the standard's.
     */
    @Test
    void reasonPhrasesPassAsTheUpstreamWroteThem() throws Exception {
        String[] answers = {"422/Validation%20Failed", "404/Status", "200/Fine", "599/Network%20Read%20Timeout",
                "200/OK"};
        agree("reason phrases", port -> {
            List<String> seen = new ArrayList<>();
            for (String answer : answers) {
                try (WireConnection c = connect(port)) {
                    seen.add(answer + " -> " + c.send(get("/reason/" + answer)).read().statusLine());
                }
            }
            return String.join("\n", seen);
        });
        for (String answer : new String[] {"200/%01x", "200/caf%E9", "200"}) {
            try (WireConnection c = connect(workerPort)) {
                assertThat(c.send(get("/reason/" + answer)).read().statusLine()).as(answer).isEqualTo("HTTP/1.1 200 OK");
            }
        }
    }

    /**
     * Host values: a name or an address with a port pass both; a space, a slash or a control character is refused by
     * both. Deliberate difference: the Worker refuses what is no host name or address at all (user information, a
     * quote, {@code <}, a backslash, a percent-encoding, an unclosed IPv6 bracket), which nginx passes to the upstream.
     */
    @Test
    void hostHeadersArePassedOrRefusedAsThroughNginxOrMoreStrictly() throws Exception {
        String[] agreed = {"ok.example:8080", "[::1]:80", "my_host", "po d", "a/b", "x\u0001y"};
        agree("host headers", port -> {
            List<String> seen = new ArrayList<>();
            for (String host : agreed) {
                try (WireConnection c = connect(port)) {
                    seen.add(host + " -> " + c.send(("GET /x HTTP/1.1\r\nHost: " + host + "\r\n\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1)).read().status());
                }
            }
            return String.join("\n", seen);
        });
        for (String host : new String[] {"a@b", "pod\"x", "a;b<c", "a\\b", "h%41", "[::1"}) {
            try (WireConnection c = connect(nginx.port())) {
                assertThat(c.send(get("/x").replace(HOST, host)).read().status()).as("nginx, " + host).isEqualTo(200);
            }
            try (WireConnection c = connect(workerPort)) {
                Message refused = c.send(get("/x").replace(HOST, host)).read();
                assertThat(refused.status()).as("the Worker, " + host).isEqualTo(400);
                assertThat(refused.start()).contains("The Host header is not a valid host name");
            }
        }
    }

    /**
     * Deliberate difference: bytes outside ASCII in a target (a client that did not percent-encode {@code café}) pass
     * through nginx; the Worker refuses them with 400 naming the problem, as Helidon 4.5 reads the request line as
     * US-ASCII and their bytes are gone (relaying {@code ?} instead would change the target).
     */
    @Test
    void bytesOutsideAsciiInTheTargetAreRefusedByTheWorkerAndPassedByNginx() throws Exception {
        String utf8 = new String("/café?q=café".getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        byte[] request = ("GET " + utf8 + " HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        upstream.clearSeen();
        try (WireConnection c = connect(nginx.port())) {
            assertThat(c.send(request).read().status()).isEqualTo(200);
            assertThat(upstream.seen()).extracting(ScriptedUpstream.Seen::requestLine)
                    .containsExactly("GET " + utf8 + " HTTP/1.1");
        }
        upstream.clearSeen();
        try (WireConnection c = connect(workerPort)) {
            Message refused = c.send(request).read();
            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.start()).contains("bytes outside ASCII; percent-encode them");
            assertThat(c.send(get("/after")).read().status()).as("the next request on the connection").isEqualTo(200);
        }
        assertThat(upstream.seen()).extracting(ScriptedUpstream.Seen::requestLine).containsExactly("GET /after HTTP/1.1");
    }

    /**
     * Content codings are the upstream's and the client's business: a compressed answer reaches the client with its
     * bytes and headers unchanged, nothing is compressed or decompressed on the way, and the upstream gets the client's
     * Accept-Encoding as sent (none added) and a compressed request body as sent.
     */
    @Test
    void contentCodingsPassUntouchedBothWays() throws Exception {
        byte[] packed;
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream gzip = new java.util.zip.GZIPOutputStream(bytes)) {
            gzip.write("a request body compressed by the client ".repeat(100).getBytes(StandardCharsets.US_ASCII));
        }
        packed = bytes.toByteArray();
        CRC32 crc = new CRC32();
        crc.update(packed);
        agree("content codings", port -> {
            List<String> seen = new ArrayList<>();
            try (WireConnection c = connect(port)) {
                upstream.clearSeen();
                Message zipped = c.send("GET /gzip HTTP/1.1\r\nHost: " + HOST + "\r\nAccept-Encoding: gzip, br\r\n\r\n")
                        .read();
                seen.add(zipped.status() + " " + zipped.header("content-encoding") + " " + zipped.header("vary") + " "
                        + zipped.header("content-length") + " crc " + zipped.crc());
                Message plain = c.send(get("/gzip")).read();
                seen.add(plain.status() + " " + plain.header("content-encoding") + " crc " + plain.crc());
                c.send("POST /echo HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Encoding: gzip\r\nContent-Length: "
                        + packed.length + "\r\n\r\n");
                c.send(packed);
                seen.add("compressed body: " + echoed(c.read(), packed.length + " " + crc.getValue()));
                for (ScriptedUpstream.Seen request : upstream.seen()) {
                    seen.add(request.requestLine().split(" ")[1] + " accept-encoding " + request.header("accept-encoding")
                            + " content-encoding " + request.header("content-encoding"));
                }
            }
            return String.join("\n", seen);
        });
    }

    /**
     * An upstream that answers an upload before reading it (a 401, say) and stops reading: the client gets that
     * answer at once, whatever the body's size, as through nginx. Before, the Worker kept writing the body into an
     * upstream that no longer read until it closed, and the client got a 502 two seconds later.
     */
    @Test
    void anAnswerBeforeTheBodyReachesTheClient() throws Exception {
        for (int size : new int[] {1_000, 5_000_000}) {
            agree("an early answer to a body of " + size + " bytes", port -> {
                try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
                    socket.setSoTimeout(10_000);
                    java.io.OutputStream out = socket.getOutputStream();
                    long started = System.nanoTime();
                    Thread writer = Thread.ofVirtual().start(() -> {
                        try {
                            out.write(("POST /early/upload HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Length: " + size
                                    + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                            byte[] chunk = new byte[16 * 1024];
                            for (int sent = 0; sent < size; sent += chunk.length) {
                                out.write(chunk, 0, Math.min(chunk.length, size - sent));
                            }
                        } catch (java.io.IOException e) {
                            // the proxy closed after its answer
                        }
                    });
                    Message answer = WireConnection.over(socket).read();
                    long millis = (System.nanoTime() - started) / 1_000_000;
                    writer.join(10_000);
                    return answer.status() + " " + answer.start() + (millis < 1_500 ? " before" : " after")
                            + " the upstream gave up";
                }
            });
        }
    }

    private static String echoed(Message m, String expected) {
        String[] parts = m.start().split(" ");
        return m.status() + " body " + ((parts[0] + " " + parts[1]).equals(expected) ? "arrived whole" : m.start());
    }

    @Test
    void upstreamLyingAboutContentLengthIsCutToTheAnnouncedLength() throws Exception {
        agree("upstream sends more than its Content-Length", port -> {
            try (WireConnection c = connect(port)) {
                Message m = c.send(get("/lie-long")).read();
                Message next = c.send(get("/after")).read();
                return m.status() + " " + m.framing() + " " + m.start() + "; next: " + next.start();
            }
        });
    }

    @Test
    void upstreamClosingEarlyInALargeBodyCutsTheClientConnection() throws Exception {
        agree("upstream closes half-way through 1 MiB", port -> {
            try (WireConnection c = connect(port)) {
                Message m = c.send(get("/close-early/" + MIB)).read();
                return m.status() + " " + m.framing() + " complete=" + m.complete() + " closed=" + c.closesWithin(5000);
            }
        });
    }

    @Test
    void upstreamClosingEarlyInASmallBodyIsA502FromTheWorker() throws Exception {
        // deliberate difference: a body no larger than the streaming buffer is read whole before anything is sent,
        // so the Worker can still answer 502 where nginx has already sent the head and can only cut the connection
        try (WireConnection c = connect(nginx.port())) {
            Message m = c.send(get("/close-early/1000")).read();
            assertThat(m.status()).isEqualTo(200);
            assertThat(m.complete()).isFalse();
        }
        try (WireConnection c = connect(workerPort)) {
            Message m = c.send(get("/close-early/1000")).read();
            assertThat(m.status()).isEqualTo(502);
            assertThat(m.header("content-type")).startsWith("application/json");
            assertThat(m.start()).contains("\"error\"");
            assertThat(c.send(get("/after")).read().start()).isEqualTo("target /after");
        }
    }

    @Test
    void anOversizedBodyWrittenWholeBeforeReadingStillGetsThe413() throws Exception {
        // both answer 413 by the declared length without reading the body, then close lingering: each time, the
        // client that wrote everything first reads the answer and the close, never a reset
        agree("413 to a client that writes its whole body before reading", port -> {
            List<String> seen = new ArrayList<>();
            for (int size : List.of(300_000, 5_000_000)) {
                byte[] request = LingeringClients.post("/limited/echo", size);
                Map<String, Integer> outcomes = new java.util.TreeMap<>();
                for (int i = 0; i < 30; i++) {
                    RawWire.Exchange exchange = RawWire.send("127.0.0.1", port, request, 10_000);
                    String outcome = exchange.responses().size() != 1 ? exchange.responses().size() + " responses"
                            : exchange.only().status() + " connection=" + exchange.only().header("connection")
                            + " closed=" + exchange.closed();
                    outcomes.merge(outcome, 1, Integer::sum);
                }
                seen.add(size + ": " + outcomes);
            }
            return String.join("\n", seen);
        });
        assertThat(upstream.seen()).noneMatch(seen -> seen.requestLine().contains("/limited/"));
    }

    @Test
    void aClientThatNeverStopsSendingAfterThe413IsCutAfterTheLingeringTime() throws Exception {
        // 8 KiB every 100 ms: never silent for lingering_timeout (5 s), so the lingering time (3 s) cuts it
        agree("a client that sends forever after the 413", port -> {
            LingeringClients.Endless endless = LingeringClients.sendForever("127.0.0.1", port, "/limited/echo", 100,
                    Duration.ofSeconds(60));
            boolean withinBound = endless.cutAfter().compareTo(Duration.ofSeconds(2)) >= 0
                    && endless.cutAfter().compareTo(Duration.ofSeconds(20)) < 0;
            return endless.response().lines().findFirst().orElse("nothing") + " cut=" + endless.cut()
                    + " after the lingering time=" + withinBound;
        });
    }
}
