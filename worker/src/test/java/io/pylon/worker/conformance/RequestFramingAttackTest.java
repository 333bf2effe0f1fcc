package io.pylon.worker.conformance;

import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.Nginx;
import io.pylon.worker.testing.ScriptedUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests whose framing is ambiguous or malformed (the material of request smuggling), each followed on the same
 * connection by an ordinary request, through the Worker and through nginx to the same upstream. The upstream's
 * answers say which request each answer is for, and the upstream records each request it read to its end. For every
 * case, through either proxy: a request hidden in a body never reaches the upstream, a refused request is answered and
 * its connection closed, and the upstream never gets a request the proxy refused. Where the two proxies agree, the
 * Worker's outcome must equal nginx's; each deliberate difference is asserted as such (docs/worker.md lists them).
 */
class RequestFramingAttackTest {
    static final String HOST = "Host: api.example.test\r\n";
    static final String HIDDEN = "GET /hidden HTTP/1.1\r\n" + HOST + "\r\n";
    static final String NEXT = "GET /next HTTP/1.1\r\n" + HOST + "\r\n";
    static final String CHUNKED_HIDDEN = Integer.toHexString(HIDDEN.length()) + "\r\n" + HIDDEN + "\r\n0\r\n\r\n";

    static NginxBeside proxies;
    static ScriptedUpstream upstream;
    static Nginx nginx;
    static int workerPort;

    @BeforeAll
    static void start() throws Exception {
        proxies = NginxBeside.start("framing-attack-test", "", """
                routes:
                  - {name: limited, pathPrefix: /limited/, maxRequestBody: 1k, upstreams: [%1$s]}
                  - {name: api, pathPrefix: /, upstreams: [%1$s]}
                """, Map.of());
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

    /**
     * @param worker what the Worker does when it differs from nginx on purpose; null where the two must agree
     */
    record Attack(String name, String request, String worker) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final String REFUSED = "400 closed";
    static final String BOTH_SERVED = "200 200 next";

    static Stream<Attack> attacks() {
        return Stream.of(
                new Attack("Content-Length and Transfer-Encoding (CL.TE)", post("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
                        "0\r\n\r\n" + HIDDEN), null),
                new Attack("Transfer-Encoding and Content-Length (TE.CL)", post("Transfer-Encoding: chunked\r\nContent-Length: 4\r\n",
                        CHUNKED_HIDDEN), null),
                new Attack("two differing Content-Lengths", post("Content-Length: 0\r\nContent-Length: " + HIDDEN.length()
                        + "\r\n", HIDDEN), null),
                new Attack("two equal Content-Lengths", post("Content-Length: 3\r\nContent-Length: 3\r\n", "abc"), null),
                new Attack("a Content-Length list", post("Content-Length: 3, 3\r\n", "abc"), null),
                new Attack("a signed Content-Length", post("Content-Length: +3\r\n", "abc"), null),
                new Attack("a hexadecimal Content-Length", post("Content-Length: 0x3\r\n", "abc"), null),
                new Attack("a negative Content-Length", post("Content-Length: -1\r\n", "abc"), null),
                new Attack("a Content-Length past 2^63", post("Content-Length: 99999999999999999999\r\n", "abc"), null),
                new Attack("a space before a Content-Length's colon", post("Content-Length : " + HIDDEN.length() + "\r\n",
                        HIDDEN), null),
                new Attack("a space before a Transfer-Encoding's colon", post("Transfer-Encoding : chunked\r\n",
                        CHUNKED_HIDDEN), null),
                new Attack("Transfer-Encoding twice", post("Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n",
                        CHUNKED_HIDDEN), null),
                new Attack("Transfer-Encoding folded onto a second line", post("Transfer-Encoding: identity\r\n chunked\r\n",
                        CHUNKED_HIDDEN), null),
                // nginx 1.22 answers 501 to a transfer coding it does not know; the request is as malformed for the Worker
                new Attack("Transfer-Encoding: xchunked", post("Transfer-Encoding: xchunked\r\n", CHUNKED_HIDDEN), REFUSED),
                new Attack("Transfer-Encoding: chunked, chunked", post("Transfer-Encoding: chunked, chunked\r\n",
                        CHUNKED_HIDDEN), REFUSED),
                new Attack("Transfer-Encoding: gzip", post("Transfer-Encoding: gzip\r\n", CHUNKED_HIDDEN), REFUSED),
                new Attack("Transfer-Encoding: Chunked", post("Transfer-Encoding: Chunked\r\n", CHUNKED_HIDDEN), null),
                // RFC 9110 section 5.6.3: a tab is whitespace around a field value (nginx 1.22 answers 501)
                new Attack("a tab before chunked", post("Transfer-Encoding:\tchunked\r\n", CHUNKED_HIDDEN), BOTH_SERVED),
                // RFC 9112 section 6.1: the framing of an HTTP/1.0 message with Transfer-Encoding is faulty
                new Attack("an HTTP/1.0 request with Transfer-Encoding", "POST /echo HTTP/1.0\r\n" + HOST
                        + "Transfer-Encoding: chunked\r\n\r\n" + CHUNKED_HIDDEN, null),
                new Attack("an HTTP/1.0 keep-alive request with Transfer-Encoding", "POST /echo HTTP/1.0\r\n" + HOST
                        + "Connection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n" + CHUNKED_HIDDEN, null),
                new Attack("a chunk size in hexadecimal with 0x", chunked("0x3\r\nabc\r\n0\r\n\r\n"), null),
                new Attack("a negative chunk size", chunked("-3\r\nabc\r\n0\r\n\r\n"), null),
                new Attack("a chunk size past 2^64", chunked("fffffffffffffffff3\r\nabc\r\n0\r\n\r\n"), null),
                new Attack("chunk data not followed by CRLF", chunked("3\r\nabcXX0\r\n\r\n"), "200 200 next body=3"),
                // Helidon 4.5 parses neither chunk extensions nor trailer fields: refused, where nginx takes them
                new Attack("a chunk extension", chunked("3;a=b\r\nabc\r\n0\r\n\r\n"), REFUSED),
                new Attack("a space after a chunk size", chunked("3 \r\nabc\r\n0\r\n\r\n"), REFUSED),
                new Attack("chunk lines ending in LF alone", chunked("3\nabc\n0\n\n"), REFUSED),
                new Attack("a trailer field", chunked("3\r\nabc\r\n0\r\nContent-Length: 50\r\n\r\n"), REFUSED),
                new Attack("a GET with a body holding a request", "GET /echo HTTP/1.1\r\n" + HOST + "Content-Length: "
                        + HIDDEN.length() + "\r\n\r\n" + HIDDEN, null),
                new Attack("Connection naming Content-Length", post("Connection: Content-Length\r\nContent-Length: "
                        + HIDDEN.length() + "\r\n", HIDDEN), null),
                new Attack("a CR alone inside a header value", "GET /x HTTP/1.1\r\n" + HOST + "X-A: a\rb\r\n\r\n", null),
                new Attack("a NUL inside a header value", "GET /x HTTP/1.1\r\n" + HOST + "X-A: a\0b\r\n\r\n", null),
                new Attack("a header with an empty name", "GET /x HTTP/1.1\r\n" + HOST + ": v\r\n\r\n", null),
                new Attack("two Host headers", "GET /x HTTP/1.1\r\n" + HOST + HOST + "\r\n", null),
                new Attack("no Host header", "GET /x HTTP/1.1\r\n\r\n", null),
                new Attack("a Host with a space", "GET /x HTTP/1.1\r\nHost: a b\r\n\r\n", null),
                new Attack("a space inside the target", "GET /x y HTTP/1.1\r\n" + HOST + "\r\n", null),
                new Attack("a fourth word on the request line", "GET /x HTTP/1.1 x\r\n" + HOST + "\r\n", null),
                // stricter than nginx: what RFC 9112 lets a server refuse is refused
                new Attack("two spaces on the request line", "GET  /x HTTP/1.1\r\n" + HOST + "\r\n", REFUSED),
                new Attack("request head lines ending in LF alone", "GET /x HTTP/1.1\n" + HOST.replace("\r\n", "\n") + "\n",
                        REFUSED),
                new Attack("a header line without a colon", "GET /x HTTP/1.1\r\n" + HOST + "Junk\r\n\r\n", REFUSED),
                new Attack("no protocol at all", "HELLO\r\n\r\n", null),
                // nginx answers an HTTP/0.9 request with a bare body and a clear-text HTTP/2.0 line with 505
                new Attack("an HTTP/0.9 request", "GET /x\r\n\r\n", REFUSED),
                new Attack("HTTP/2.0 on the request line", "GET /x HTTP/2.0\r\n" + HOST + "\r\n", REFUSED));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("attacks")
    void nothingHiddenReachesTheUpstreamAndRefusalsCloseTheConnection(Attack attack) throws Exception {
        Outcome throughNginx = Outcome.of(nginx.port(), attack.request() + NEXT);
        Outcome throughWorker = Outcome.of(workerPort, attack.request() + NEXT);

        for (Outcome outcome : List.of(throughNginx, throughWorker)) {
            assertThat(outcome.upstreamTargets).as("%s: what the upstream got", outcome).doesNotContain("/hidden");
            assertThat(outcome.answers).as("%s: what the client got", outcome).doesNotContain("/hidden");
            if (!outcome.statuses.isEmpty() && outcome.statuses.getFirst() >= 400) {
                assertThat(outcome.closed).as("%s: a refused request closes its connection", outcome).isTrue();
                assertThat(outcome.upstreamTargets).as("%s: a refused request never reaches the upstream", outcome)
                        .isEmpty();
            }
        }
        if (attack.worker() == null) {
            assertThat(throughWorker.summary()).as("%s: the Worker against nginx", attack).isEqualTo(throughNginx.summary());
        } else {
            assertThat(throughWorker.summary()).as("%s: the Worker (nginx: %s)", attack, throughNginx)
                    .isEqualTo(attack.worker());
            assertThat(throughWorker.summary()).as("%s: a deliberate difference", attack).isNotEqualTo(throughNginx.summary());
        }
        if (throughWorker.statuses.equals(List.of(400))) {
            assertThat(throughWorker.answers).as("the Worker's refusal says what is wrong")
                    .contains("application/json").doesNotContain("\"error_description\":\"Bad Request");
        }
    }

    /** A client's chunked body that ends before its last chunk never reaches the upstream as a whole body. */
    @Test
    void aChunkedBodyCutShortByTheClientIsNotPassedOnAsAWholeOne() throws Exception {
        upstream.clearSeen();
        try (Socket client = new Socket("127.0.0.1", workerPort)) {
            client.getOutputStream().write(("POST /echo HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                    + "10000\r\n" + "x".repeat(65_536) + "\r\n3\r\nab").getBytes(StandardCharsets.ISO_8859_1));
            client.getOutputStream().flush();
            Gateway.await("the upstream started reading the body", 5_000, () -> upstream.reading() > 0);
        }
        Thread.sleep(1_000);
        assertThat(upstream.seen()).as("requests the upstream read to their end").isEmpty();
    }

    /** The same for a chunked body that outgrows the route's limit: the client gets 413, the upstream nothing whole. */
    @Test
    void aChunkedBodyOverTheLimitIsNotPassedOnAsAWholeOne() throws Exception {
        upstream.clearSeen();
        String chunk = Integer.toHexString(600) + "\r\n" + "x".repeat(600) + "\r\n";
        Outcome outcome = Outcome.of(workerPort, "POST /limited/echo HTTP/1.1\r\n" + HOST
                + "Transfer-Encoding: chunked\r\n\r\n" + chunk + chunk + chunk + "0\r\n\r\n");

        assertThat(outcome.statuses).containsExactly(413);
        assertThat(outcome.closed).isTrue();
        assertThat(outcome.upstreamTargets).as("requests the upstream read to their end").isEmpty();
    }

    /** What one client saw through one proxy, and what the upstream read to its end meanwhile. */
    static final class Outcome {
        final int port;
        final List<Integer> statuses = new ArrayList<>();
        final String answers;
        final boolean closed;
        final List<String> upstreamTargets = new ArrayList<>();
        final List<Long> upstreamBodies = new ArrayList<>();

        private Outcome(int port, String answers, boolean closed) {
            this.port = port;
            this.answers = answers;
            this.closed = closed;
            Matcher m = Pattern.compile("HTTP/1\\.1 (\\d{3}) ").matcher(answers);
            while (m.find()) {
                statuses.add(Integer.parseInt(m.group(1)));
            }
            for (ScriptedUpstream.Seen seen : upstream.seen()) {
                upstreamTargets.add(seen.requestLine().split(" ")[1]);
                upstreamBodies.add(seen.bodyLength());
            }
        }

        static Outcome of(int port, String bytes) throws IOException, InterruptedException {
            upstream.clearSeen();
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.setSoTimeout(1_500);
                socket.getOutputStream().write(bytes.getBytes(StandardCharsets.ISO_8859_1));
                socket.getOutputStream().flush();
                ByteArrayOutputStream got = new ByteArrayOutputStream();
                InputStream in = socket.getInputStream();
                byte[] buffer = new byte[8192];
                boolean closed;
                try {
                    int n;
                    while ((n = in.read(buffer)) >= 0) {
                        got.write(buffer, 0, n);
                    }
                    closed = true;
                } catch (SocketTimeoutException e) {
                    closed = false;
                } catch (IOException e) {
                    closed = true; // reset
                }
                Thread.sleep(100); // the upstream records a request once it read its body
                return new Outcome(port, got.toString(StandardCharsets.ISO_8859_1), closed);
            }
        }

        /** Statuses in order, whether the connection closed or served the next request, and a body's length if odd. */
        String summary() {
            StringBuilder s = new StringBuilder();
            statuses.forEach(status -> s.append(status).append(' '));
            s.append(answers.contains("target /next") ? "next" : closed ? "closed" : "open");
            for (int i = 0; i < upstreamTargets.size(); i++) {
                if (upstreamTargets.get(i).equals("/echo") && upstreamBodies.get(i) == 3) {
                    s.append(" body=3");
                }
            }
            return s.toString().strip();
        }

        @Override
        public String toString() {
            return (port == workerPort ? "Worker" : "nginx") + " [" + summary() + "; upstream " + upstreamTargets + "]";
        }
    }

    private static String post(String headers, String body) {
        return "POST /echo HTTP/1.1\r\n" + HOST + headers + "\r\n" + body;
    }

    private static String chunked(String body) {
        return post("Transfer-Encoding: chunked\r\n", body);
    }
}
