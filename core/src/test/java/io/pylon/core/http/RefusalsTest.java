package io.pylon.core.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jspecify.annotations.Nullable;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On a real pod, over raw sockets: each request refused before any route (by the listener while it reads the request,
 * or by the checks every pod runs first) is told to the module's observer once, with what of it was read and the exact
 * bytes its client got; its answer carries the observer's identifier in the header and the body; it is counted in
 * {@code pylon_http_server_refusals_total} by status. A routed request, even a 404, is no refusal.
 */
class RefusalsTest {
    private static final String HOST = "127.0.0.1";
    private static final LinkedBlockingQueue<RefusedRequest> SEEN = new LinkedBlockingQueue<>();
    private static final AtomicInteger IDS = new AtomicInteger();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Pod pod;
    private static Pod plain;

    @BeforeAll
    static void start() {
        pod = TestPods.start(new FakeModule("refusals").onStart(context -> context.refusals().observe(
                new RefusalObserver() {
                    @Override
                    public String requestId() {
                        return "id-" + IDS.incrementAndGet();
                    }

                    @Override
                    public void refused(RefusedRequest request) {
                        SEEN.add(request);
                    }
                })), "refusals-0", Map.of());
        plain = TestPods.start(new FakeModule("plain"), "plain-0", Map.of());
    }

    @AfterAll
    static void stop() {
        pod.close();
        plain.close();
    }

    @BeforeEach
    void clear() {
        SEEN.clear();
    }

    @Test
    void aRequestLineThatDoesNotParseIsToldWithNothingOfTheRequest() throws Exception {
        Answer answer = Answer.of(pod, "garbage\r\n\r\n");

        assertThat(answer.status()).isEqualTo(400);
        RefusedRequest seen = onlySeen();
        assertThat(seen.status()).isEqualTo(400);
        assertThat(seen.method()).isNull();
        assertThat(seen.path()).isNull();
        assertThat(seen.host()).isNull();
        assertThat(seen.client()).isEqualTo(HOST);
        assertThat(seen.bytes()).as("what the client got, head and body").isEqualTo(answer.bytes());
        assertThat(seen.requestId()).startsWith("id-");
        assertThat(answer.header("x-request-id")).isEqualTo(seen.requestId());
        assertThat(answer.json().get("request_id").asText()).isEqualTo(seen.requestId());
    }

    @Test
    void aRequestLineOverTheLimitIs414AndTold() throws Exception {
        Answer answer = Answer.of(pod, "GET /" + "a".repeat(16 * 1024) + " HTTP/1.1\r\nHost: x\r\n\r\n");

        assertThat(answer.status()).isEqualTo(414);
        RefusedRequest seen = onlySeen();
        assertThat(seen.status()).isEqualTo(414);
        assertThat(seen.bytes()).isEqualTo(answer.bytes());
        assertThat(answer.header("x-request-id")).isEqualTo(seen.requestId());
    }

    @Test
    void conflictingFramingIsToldWithTheRequestLineAndHostButNotTheQuery() throws Exception {
        Answer answer = Answer.of(pod, "POST /platform/management/health?key=s3cret HTTP/1.1\r\nHost: api.example.com\r\n"
                + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");

        assertThat(answer.status()).isEqualTo(400);
        RefusedRequest seen = onlySeen();
        assertThat(seen.method()).isEqualTo("POST");
        assertThat(seen.path()).isEqualTo("/platform/management/health");
        assertThat(seen.protocol()).isEqualTo("HTTP/1.1");
        assertThat(seen.host()).isEqualTo("api.example.com");
        assertThat(seen.bytes()).isEqualTo(answer.bytes());
    }

    /** 20 KiB is past the pod's header limit (its filter answers); 1 MiB past the parser's (the listener answers). */
    @Test
    void oversizedHeadersAre431AndToldWhicheverCheckRefusesThem() throws Exception {
        for (int kib : List.of(20, 1024)) {
            Answer answer = Answer.of(pod, "GET /platform/management/health HTTP/1.1\r\nHost: x\r\nCookie: "
                    + "a".repeat(kib * 1024) + "\r\n\r\n");

            assertThat(answer.status()).as("%d KiB", kib).isEqualTo(431);
            RefusedRequest seen = onlySeen();
            assertThat(seen.status()).isEqualTo(431);
            assertThat(seen.method()).isEqualTo("GET");
            assertThat(seen.path()).isEqualTo("/platform/management/health");
            assertThat(seen.bytes()).as("%d KiB", kib).isEqualTo(answer.bytes());
            assertThat(answer.header("x-request-id")).isEqualTo(seen.requestId());
            assertThat(answer.json().get("request_id").asText()).isEqualTo(seen.requestId());
        }
    }

    @Test
    void twoAuthorizationFieldsAreRefusedAndTold() throws Exception {
        Answer answer = Answer.of(pod, "GET /platform/management/version HTTP/1.1\r\nHost: x\r\nAuthorization: a\r\n"
                + "Authorization: b\r\n\r\n");

        assertThat(answer.status()).isEqualTo(400);
        assertThat(onlySeen().path()).isEqualTo("/platform/management/version");
    }

    @Test
    void routedRequestsAreNoRefusalsEvenWhenNoRouteMatches() throws Exception {
        assertThat(Answer.of(pod, "GET /platform/management/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                .status()).isEqualTo(200);
        Answer missing = Answer.of(pod, "GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.header("x-request-id")).isNull();

        assertThat(SEEN.poll(300, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void refusalsAreCountedByStatus() throws Exception {
        Answer.of(plain, "garbage\r\n\r\n");
        Answer.of(plain, "garbage\r\n\r\n");
        Answer.of(plain, "GET /" + "a".repeat(16 * 1024) + " HTTP/1.1\r\nHost: x\r\n\r\n");
        Answer.of(plain, "GET / HTTP/1.1\r\nHost: x\r\nCookie: " + "a".repeat(20 * 1024) + "\r\n\r\n");

        String metrics = TestPods.get(plain, "/platform/management/metrics").body();
        assertThat(metrics).contains("pylon_http_server_refusals_total{status=\"400\"} 2.0",
                "pylon_http_server_refusals_total{status=\"414\"} 1.0",
                "pylon_http_server_refusals_total{status=\"431\"} 1.0");
    }

    @Test
    void withoutAnObserverGivingOneTheAnswerCarriesNoIdentifier() throws Exception {
        Answer answer = Answer.of(plain, "garbage\r\n\r\n");

        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.header("x-request-id")).isNull();
        assertThat(answer.json().has("request_id")).isFalse();
    }

    private static RefusedRequest onlySeen() throws InterruptedException {
        RefusedRequest seen = SEEN.poll(5, TimeUnit.SECONDS);
        assertThat(seen).as("the refusal was told").isNotNull();
        assertThat(SEEN.poll(200, TimeUnit.MILLISECONDS)).as("told once").isNull();
        return seen;
    }

    /** The pod's one answer: up to its close, or to the end of its body when it keeps the connection. */
    private record Answer(String text, long bytes) {
        static Answer of(Pod target, String request) throws IOException {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(HOST, target.port()), 5000);
                socket.setSoTimeout(5000);
                try {
                    socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
                } catch (IOException e) {
                    // the pod may close while a large request is still being written: read what it answered
                }
                ByteArrayOutputStream received = new ByteArrayOutputStream();
                InputStream in = socket.getInputStream();
                byte[] buffer = new byte[8192];
                try {
                    for (int n; !whole(received) && (n = in.read(buffer)) >= 0; ) {
                        received.write(buffer, 0, n);
                    }
                } catch (java.net.SocketException e) {
                    // reset after the answer: the rest of a large request arrived after the close
                }
                return new Answer(received.toString(StandardCharsets.ISO_8859_1), received.size());
            }
        }

        private static boolean whole(ByteArrayOutputStream received) {
            String text = received.toString(StandardCharsets.ISO_8859_1);
            int headEnd = text.indexOf("\r\n\r\n");
            if (headEnd < 0) {
                return false;
            }
            Answer head = new Answer(text, received.size());
            String length = head.header("content-length");
            return length != null && text.length() >= headEnd + 4 + Integer.parseInt(length);
        }

        int status() {
            return Integer.parseInt(text.substring(9, 12));
        }

        @Nullable String header(String name) {
            for (String line : text.substring(0, text.indexOf("\r\n\r\n")).split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }

        JsonNode json() throws IOException {
            return JSON.readTree(text.substring(text.indexOf("\r\n\r\n") + 4));
        }
    }
}
