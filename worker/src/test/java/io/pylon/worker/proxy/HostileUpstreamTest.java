package io.pylon.worker.proxy;

import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.RawHttp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import java.util.logging.Level;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.params.ParameterizedTest;
import io.pylon.worker.testing.WireConnection;
import io.pylon.worker.testing.LogCapture;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An upstream that sends an endless response head (one endless header line, or header fields without end) or endless
 * trailers: the Worker reads a head only within bounds (a line of 16 KiB, 200 fields), answers 502 with JSON (or cuts
 * a response whose head it already relayed), and drops the upstream's connection at once instead of filling its heap.
 * A large head within the bounds passes whole. An upstream that sends more than its answer (a second answer nobody
 * asked for) never has it taken for another client's answer: its connection is not pooled.
 */
class HostileUpstreamTest {
    static HostileUpstream upstream;
    static Gateway gateway;
    static String host;
    static int port;

    @BeforeAll
    static void start() throws IOException {
        upstream = new HostileUpstream();
        gateway = Gateway.start("hostile-upstream-test", """
                routes:
                  - {name: all, pathPrefix: /, upstreams: [%s]}
                """.formatted(upstream.url()), Map.of());
        URI uri = URI.create(gateway.url("/"));
        host = uri.getHost();
        port = uri.getPort();
    }

    @AfterAll
    static void stop() throws IOException {
        gateway.close();
        upstream.close();
    }

    @Test
    void anEndlessHeaderLineIsA502AndTheUpstreamIsDropped() throws Exception {
        long start = System.nanoTime();
        RawHttp.Response response = RawHttp.exchange(host, port, get("/endless-line"));

        assertThat(response.status()).isEqualTo(502);
        assertThat(response.body()).contains("response head is larger than the gateway accepts");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);
        assertThat(upstream.sentWhenDropped("/endless-line", 10_000)).as("bytes sent before the Worker dropped it")
                .isBetween(16L * 1024, 16L * 1024 * 1024);
    }

    @Test
    void endlessHeaderFieldsAreA502AndTheUpstreamIsDropped() throws Exception {
        RawHttp.Response response = RawHttp.exchange(host, port, get("/endless-fields"));

        assertThat(response.status()).isEqualTo(502);
        assertThat(response.body()).contains("more than 200 header fields");
        assertThat(upstream.sentWhenDropped("/endless-fields", 10_000)).isBetween(1L, 16L * 1024 * 1024);
    }

    @Test
    void endlessTrailersCutTheResponseAlreadyStarted() throws Exception {
        try (Socket client = new Socket(host, port)) {
            client.setSoTimeout(10_000);
            client.getOutputStream().write(get("/endless-trailers").getBytes(StandardCharsets.ISO_8859_1));
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            InputStream in = client.getInputStream();
            byte[] buffer = new byte[8192];
            int n;
            try {
                while ((n = in.read(buffer)) >= 0) {
                    got.write(buffer, 0, n);
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the client's connection was not cut", e);
            } catch (IOException e) {
                // a reset is a cut too
            }
            String text = got.toString(StandardCharsets.ISO_8859_1);
            assertThat(text).startsWith("HTTP/1.1 200").doesNotContain("\r\n0\r\n\r\n");
        }
        assertThat(upstream.sentWhenDropped("/endless-trailers", 10_000)).isBetween(1L, 16L * 1024 * 1024);
    }

    @Test
    void aLargeHeadWithinTheBoundsPassesWhole() throws Exception {
        RawHttp.Response response = RawHttp.exchange(host, port, get("/large-head"));

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.header("x-large")).hasSize(12 * 1024);
        assertThat(response.headers().keySet().stream().filter(name -> name.startsWith("x-field-"))).hasSize(150);
        assertThat(response.body()).isEqualTo("ok");
    }

    /**
     * A response framed both ways (Transfer-Encoding and Content-Length) and followed by a second answer nobody asked
     * for: the client gets the chunked body, and the connection is not pooled, so the next client does not get the
     * unasked answer.
     */
    @Test
    void aResponseFramedBothWaysIsReadChunkedAndItsConnectionIsNotReused() throws Exception {
        RawHttp.Response first = RawHttp.exchange(host, port, "GET /cl-and-te HTTP/1.1\r\nHost: api.test\r\n\r\n");
        RawHttp.Response next = RawHttp.exchange(host, port, get("/next"));

        assertThat(first.status()).isEqualTo(200);
        assertThat(next.body()).as("what the next client got").isNotEqualTo("spoilt").isNotEqualTo("fresh");
        assertThat(next.status()).as("answered on a new connection").isEqualTo(404);
    }

    /** Bytes past a response's end on a connection that could be pooled: it is not, whatever its headers say. */
    @Test
    void aConnectionHoldingBytesPastItsResponseIsNotReused() throws Exception {
        RawHttp.Response first = RawHttp.exchange(host, port, "GET /extra HTTP/1.1\r\nHost: api.test\r\n\r\n");
        RawHttp.Response next = RawHttp.exchange(host, port, get("/next"));

        assertThat(first.body()).isEqualTo("ok");
        assertThat(next.body()).as("what the next client got").isNotEqualTo("spoilt");
        assertThat(next.status()).isEqualTo(404);
    }

    @Test
    void twoContentLengthsAreA502NamingTheFault() throws Exception {
        RawHttp.Response response = RawHttp.exchange(host, port, get("/two-lengths"));

        assertThat(response.status()).isEqualTo(502);
        assertThat(response.body()).contains("breaks HTTP's rules");
    }

    /**
     * A malformed answer on a reused connection may be bytes an earlier answer left behind, so an idempotent request is
     * sent once more on a new connection; a POST is not, because the upstream may have acted on it.
     */
    @Test
    void aMalformedAnswerToAPostOnAReusedConnectionIsNotSentAgain() throws Exception {
        int before = upstream.received("/charge");
        RawHttp.Response kept = RawHttp.exchange(host, port, get("/keep"));
        RawHttp.Response charged = RawHttp.exchange(host, port,
                "POST /charge HTTP/1.1\r\nHost: api.test\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");

        assertThat(kept.body()).isEqualTo("ok");
        assertThat(charged.status()).isEqualTo(502);
        assertThat(charged.body()).contains("breaks HTTP's rules");
        assertThat(upstream.received("/charge") - before).as("POSTs the upstream received").isEqualTo(1);
    }

    @Test
    void aMalformedAnswerToAGetOnAReusedConnectionIsTriedOnceMore() throws Exception {
        int before = upstream.received("/charge");
        RawHttp.exchange(host, port, get("/keep"));
        RawHttp.Response response = RawHttp.exchange(host, port, get("/charge"));

        assertThat(response.status()).isEqualTo(502);
        assertThat(upstream.received("/charge") - before).as("GETs the upstream received").isEqualTo(2);
    }

    /**
     * A field name that is not a token, or a value with a NUL, a bare CR or another control character: the upstream's
     * fault, answered 502 as nginx answers it, the client's connection kept, no SEVERE line. Before, Helidon refused to
     * write the header: the client got a 400 and a closed connection, and the log two stack traces.
     */
    @ParameterizedTest
    @ValueSource(strings = {"/space-in-name", "/nul-in-value", "/cr-in-value", "/ctl-in-value", "/colon-in-name"})
    void aHeaderFieldThatCannotBePassedOnIsA502(String path) throws Exception {
        try (LogCapture severe = LogCapture.open(Level.SEVERE);
             WireConnection c = WireConnection.open(host, port)) {
            WireConnection.Message answer = c.send("GET " + path + " HTTP/1.1\r\nHost: api.test\r\n\r\n").read();
            assertThat(answer.status()).isEqualTo(502);
            assertThat(answer.start()).contains("breaks HTTP's rules");
            assertThat(c.send("GET /fine HTTP/1.1\r\nHost: api.test\r\n\r\n").read().status())
                    .as("the next request on the connection").isEqualTo(200);
            assertThat(severe.lines()).isEmpty();
        }
    }

    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: api.test\r\nConnection: close\r\n\r\n";
    }

    /** A raw upstream that answers by path; for the endless ones it notes how much it sent before it was dropped. */
    static final class HostileUpstream implements AutoCloseable {
        private static final byte[] TWO_LENGTHS = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 8\r\n\r\nokspoilt"
                .getBytes(StandardCharsets.ISO_8859_1);
        private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        private final Map<String, Long> dropped = new ConcurrentHashMap<>();
        private final Map<String, Integer> received = new ConcurrentHashMap<>();

        HostileUpstream() throws IOException {
            Thread.ofVirtual().start(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket socket = server.accept();
                        Thread.ofVirtual().start(() -> serve(socket));
                    } catch (IOException e) {
                        return;
                    }
                }
            });
        }

        String url() {
            return "http://127.0.0.1:" + server.getLocalPort();
        }

        long sentWhenDropped(String path, long waitMillis) throws InterruptedException {
            long deadline = System.currentTimeMillis() + waitMillis;
            while (!dropped.containsKey(path) && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            return dropped.getOrDefault(path, -1L);
        }

        int received(String path) {
            return received.getOrDefault(path, 0);
        }

        private void serve(Socket socket) {
            try (socket) {
                String head = RawHttp.readHead(socket.getInputStream());
                String path = head.split(" ")[1];
                OutputStream out = socket.getOutputStream();
                received.merge(path, 1, Integer::sum);
                switch (path) {
                    case "/endless-line" -> endless(path, out, "HTTP/1.1 200 OK\r\nX-Endless: ", "a".repeat(8192));
                    case "/endless-fields" -> endless(path, out, "HTTP/1.1 200 OK\r\n", "X-Field: 1\r\n".repeat(500));
                    case "/endless-trailers" -> endless(path, out, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                            + "2\r\nok\r\n0\r\n", "X-Trailer: 1\r\n".repeat(500));
                    case "/cl-and-te" -> {
                        // framed both ways, then a second answer nobody asked for; the connection stays open
                        out.write(("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
                                + "2\r\nok\r\n0\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nspoilt")
                                .getBytes(StandardCharsets.ISO_8859_1));
                        out.flush();
                        while (true) {
                            RawHttp.readHead(socket.getInputStream());
                            out.write(("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfresh").getBytes(StandardCharsets.ISO_8859_1));
                            out.flush();
                        }
                    }
                    case "/extra" -> {
                        out.write(("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
                                + "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nspoilt").getBytes(StandardCharsets.ISO_8859_1));
                        out.flush();
                        while (true) {
                            RawHttp.readHead(socket.getInputStream());
                            out.write(("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfresh").getBytes(StandardCharsets.ISO_8859_1));
                            out.flush();
                        }
                    }
                    case "/keep" -> {
                        // an answer that keeps the connection, then a malformed one to whatever comes next on it
                        out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.ISO_8859_1));
                        out.flush();
                        received.merge(RawHttp.readHead(socket.getInputStream()).split(" ")[1], 1, Integer::sum);
                        out.write(TWO_LENGTHS);
                    }
                    case "/charge" -> out.write(TWO_LENGTHS);
                    case "/space-in-name" -> answer(out, "X Bad: 1");
                    case "/colon-in-name" -> answer(out, "X(Bad): 1");
                    case "/nul-in-value" -> answer(out, "X-A: a\0b");
                    case "/cr-in-value" -> answer(out, "X-A: a\rSet-Cookie: forged=1");
                    case "/ctl-in-value" -> answer(out, "X-A: a\u0001b");
                    case "/fine" -> answer(out, "X-A: fine");
                    case "/two-lengths" -> out.write(("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 8\r\n\r\n"
                            + "okspoilt").getBytes(StandardCharsets.ISO_8859_1));
                    case "/large-head" -> {
                        StringBuilder fields = new StringBuilder();
                        for (int i = 0; i < 150; i++) {
                            fields.append("X-Field-").append(i).append(": ").append(i).append("\r\n");
                        }
                        out.write(("HTTP/1.1 200 OK\r\nX-Large: " + "b".repeat(12 * 1024) + "\r\n" + fields
                                + "Content-Length: 2\r\nConnection: close\r\n\r\nok").getBytes(StandardCharsets.ISO_8859_1));
                        out.flush();
                    }
                    default -> out.write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
                            .getBytes(StandardCharsets.ISO_8859_1));
                }
            } catch (IOException e) {
                // the Worker went away
            }
        }

        private static void answer(OutputStream out, String field) throws IOException {
            out.write(("HTTP/1.1 200 OK\r\n" + field + "\r\nContent-Length: 2\r\n\r\nok").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }

        /** Writes {@code start}, then {@code again} until the peer drops the connection (or 30 s pass). */
        private void endless(String path, OutputStream out, String start, String again) {
            byte[] repeated = again.getBytes(StandardCharsets.ISO_8859_1);
            long sent = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            try {
                out.write(start.getBytes(StandardCharsets.ISO_8859_1));
                sent += start.length();
                while (System.nanoTime() < deadline) {
                    out.write(repeated);
                    sent += repeated.length;
                }
            } catch (IOException e) {
                dropped.put(path, sent);
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
