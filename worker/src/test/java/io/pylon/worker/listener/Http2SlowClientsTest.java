package io.pylon.worker.listener;

import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that stops sending a request body over HTTP/2: the pod's body timeout bounds the wait on every stream as it
 * bounds it on an HTTP/1.1 connection (nginx's {@code client_body_timeout} applies to HTTP/2 streams too): the client
 * sends the body's first kilobyte and then nothing ({@link RawHttp2}). A client silent while it waits for its answer
 * (the JDK client on a connection it upgraded) is not cut. A header block, or a frame other than DATA, left unfinished
 * is bounded by the header timeout, as nginx bounds it ({@code client_header_timeout}): trickled a byte at a time it
 * keeps the connection from ever being idle.
 */
class Http2SlowClientsTest {
    static TestUpstream echo;
    static TestUpstream slow;
    static Gateway gateway;

    @BeforeAll
    static void start() {
        echo = TestUpstream.start(exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            TestUpstream.send(exchange, 200, ("read " + body.length).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        });
        slow = TestUpstream.start(exchange -> {
            try {
                Thread.sleep(3_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            TestUpstream.send(exchange, 200, "slow".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        });
        gateway = Gateway.start("worker-h2-slow", """
                routes:
                  - {name: echo, pathPrefix: /echo, upstreams: [%s]}
                  - {name: slow, pathPrefix: /slow, upstreams: [%s]}
                """.formatted(echo.url(), slow.url()), Map.of("pylon.server.body-timeout", "2s",
                "pylon.server.idle-timeout", "2s", "pylon.server.header-timeout", "500ms"));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        echo.close();
        slow.close();
    }

    @Test
    void aStalledBodyToTheGatewayIsAnswered408AndFreesItsUpstreamConnection() throws Exception {
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            long t0 = System.nanoTime();
            client.headers(1, "POST", "/echo/upload", false, "content-length", "100000");
            client.data(1, new byte[1024], false);
            Gateway.await("the upstream connection leased", 30_000, () -> gateway.leased() == 1);
            String answer = client.answer(1);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(answer).contains("\"error\":\"request_timeout\"");
            assertThat(ms).as("ms until the answer (body timeout 2 s)").isBetween(1_500L, 20_000L);
            Gateway.await("the upstream lease returned", 30_000, () -> gateway.leased() == 0);
            // the connection serves on: one stream timed out, not the connection
            client.headers(3, "GET", "/echo/next", true);
            assertThat(client.answer(3)).isEqualTo("read 0");
        }
    }

    @Test
    void aStalledBodyToARouteThatAnsweredEarlyIsNotWaitedForBeyondTheTimeout() throws Exception {
        long finished = gateway.pod.finishedRequests();
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            // no route: the 404 goes out at once, then the connection guard reads the unread body to keep the
            // connection's flow-control credit; the client never ends it
            client.headers(1, "PUT", "/nowhere", false);
            client.data(1, new byte[1024], false);
            assertThat(client.answer(1)).contains("\"error\":\"not_found\"");
            // the request counter sits outside the guard: the request finishes once the guard gave up on the body
            Gateway.await("the request finished", 30_000, () -> gateway.pod.finishedRequests() == finished + 1);
            client.headers(3, "GET", "/echo/next", true);
            assertThat(client.answer(3)).isEqualTo("read 0");
        }
    }

    /**
     * The client is silent while its request waits for a slow upstream, longer than the body and idle timeouts: those
     * are for a client that holds the pod, not for one waiting for its answer.
     */
    @Test
    void aClientWaitingForASlowAnswerIsNotCut() throws Exception {
        HttpClient client = Http2Test.upgraded(gateway, "/echo/warm");
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(gateway.url("/slow/x")))
                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(response.body()).isEqualTo("slow");
        assertThat(next(client)).isEqualTo("read 5");
    }

    /** Opened with the preface, the same: silent while its stream waits for a slow upstream, the client is not cut. */
    @Test
    void aStreamWaitingForASlowUpstreamKeepsItsConnection() throws Exception {
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            client.headers(1, "GET", "/slow/x", true);
            assertThat(client.answer(1)).isEqualTo("slow");
            client.headers(3, "GET", "/echo/next", true);
            assertThat(client.answer(3)).isEqualTo("read 0");
        }
    }

    @Test
    void aHeaderBlockTrickledPastTheHeaderTimeoutIsCut() throws Exception {
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            client.headersOpen(1, "GET", "/echo/never");
            long t0 = System.nanoTime();
            // 209 bytes at 50 ms each would take 10 s
            assertThat(client.trickleCut(RawHttp2.CONTINUATION, RawHttp2.END_HEADERS, 1, new byte[200], 50))
                    .as("cut before the block's end").isTrue();
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(ms).as("ms until the cut (header timeout 0.5 s)").isBetween(400L, 6_000L);
        }
    }

    @Test
    void aFrameOtherThanDataTrickledPastTheHeaderTimeoutIsCut() throws Exception {
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            long t0 = System.nanoTime();
            // a PING's 17 bytes at 400 ms each would take 6.8 s
            assertThat(client.trickleCut(RawHttp2.PING, 0, 0, new byte[8], 400)).as("cut before the frame's end")
                    .isTrue();
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(ms).as("ms until the cut (header timeout 0.5 s)").isBetween(400L, 5_500L);
        }
    }

    /**
     * A request body's pace is the body timeout's (2 s between DATA frames, which Helidon hands on whole): two DATA
     * frames trickled for about 1 s each, twice the header timeout, are read.
     */
    @Test
    void aBodyTrickledPastTheHeaderTimeoutIsRead() throws Exception {
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            client.headers(1, "POST", "/echo/trickled", false, "content-length", "80");
            assertThat(client.trickleCut(RawHttp2.DATA, 0, 1, new byte[40], 20)).isFalse();
            assertThat(client.trickleCut(RawHttp2.DATA, RawHttp2.END_STREAM, 1, new byte[40], 20)).isFalse();
            assertThat(client.answer(1)).isEqualTo("read 80");
        }
    }

    /** An HTTP/2 connection with no request in flight is closed after the idle timeout, as an HTTP/1.1 one is. */
    @Test
    void anIdleHttp2ConnectionIsClosedAfterTheIdleTimeout() throws Exception {
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            client.headers(1, "GET", "/echo/once", true);
            assertThat(client.answer(1)).isEqualTo("read 0");
            long t0 = System.nanoTime();
            assertThat(client.closedWithin(20_000)).as("closed by the pod").isTrue();
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(ms).as("ms idle before the close (idle timeout 2 s)").isBetween(1_500L, 10_000L);
        }
    }

    /**
     * On stop, an HTTP/2 connection is told GOAWAY once no request of it is in flight, whether it opened with the
     * preface or was upgraded (Helidon 4.5.0 alone interrupts an idle one's read, which drops it without a word).
     */
    @Test
    void stoppingThePodSaysGoAwayOnEveryHttp2Connection() throws Exception {
        Gateway stopping = Gateway.start("worker-h2-stop", """
                routes:
                  - {name: echo, pathPrefix: /echo, upstreams: [%s]}
                """.formatted(echo.url()), Map.of("pylon.shutdown.grace", "10s")); // the tests' 1 s would cut first
        try (RawHttp2 direct = RawHttp2.connect(stopping.pod.port());
             RawHttp2 upgraded = RawHttp2.upgrade(stopping.pod.port(), "/echo/up")) {
            direct.headers(1, "GET", "/echo/direct", true);
            assertThat(direct.answer(1)).isEqualTo("read 0");
            assertThat(upgraded.answer(1)).isEqualTo("read 0");
            Thread stop = Thread.ofVirtual().start(stopping::close);
            assertThat(direct.goAwayWithin(15_000)).as("GOAWAY on the connection opened with the preface").isTrue();
            assertThat(upgraded.goAwayWithin(15_000)).as("GOAWAY on the upgraded connection").isTrue();
            stop.join(30_000);
        }
    }

    private static String next(HttpClient client) throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(gateway.url("/echo/next")))
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString("hello")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        return response.body();
    }
}
