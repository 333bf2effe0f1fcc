package io.pylon.worker.listener;

import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HTTP/2 floods Helidon 4.5.0 does not bound on its own. A header block continued without end (the CONTINUATION
 * flood): Helidon keeps every CONTINUATION frame of a block until it ends and bounds only their bytes, so empty frames
 * grew a pod's heap by about 60 bytes per 9 bytes sent (1.2 GB for 180 MB). The listener ends such a connection with
 * GOAWAY (ENHANCE_YOUR_CALM) after the ninth CONTINUATION of a block, on connections opened with the preface and on
 * upgraded ones; a block split over a few frames is served. PINGs sent by a client that reads nothing (the ping
 * flood): Helidon answers each, its writes wait once the client's buffers are full, and the connection's thread waits
 * with them; the send timeout ends the connection. Frames without payload (PING, SETTINGS, PRIORITY, WINDOW_UPDATE,
 * unknown types) sent without end: Helidon takes each; the listener's rule (nginx's) cuts the connection once they
 * outweigh the payload exchanged. Rapid resets, and streams the client makes the pod reset: Helidon's own bound (50 a
 * connection) ends the connection, so that few of the requests reach the upstream. An HPACK bomb (a header block that
 * decodes to a thousand times its size): Helidon bounds the encoded block, the pod's header filter the decoded list.
 */
class Http2FloodsTest {
    private static final int ENHANCE_YOUR_CALM = 0xb;
    private static final int CANCEL = 0x8;
    private static final int DOWNLOAD = 16 * 1024 * 1024;
    private static final AtomicInteger SLOW_REQUESTS = new AtomicInteger();
    private static final AtomicInteger BOMBS_RECEIVED = new AtomicInteger();
    static TestUpstream upstream;
    static Gateway gateway;

    @BeforeAll
    static void start() {
        upstream = TestUpstream.start(exchange -> {
            if (exchange.getRequestURI().getPath().equals("/api/slow")) {
                SLOW_REQUESTS.incrementAndGet();
                try {
                    Thread.sleep(2_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (exchange.getRequestURI().getPath().equals("/api/bomb")) {
                BOMBS_RECEIVED.incrementAndGet();
            }
            if (exchange.getRequestURI().getPath().equals("/api/download")) {
                TestUpstream.send(exchange, 200, new byte[DOWNLOAD]);
                return;
            }
            String big = exchange.getRequestHeaders().getFirst("x-big");
            TestUpstream.send(exchange, 200, ("hello " + (big == null ? 0 : big.length())).getBytes(StandardCharsets.UTF_8));
        });
        gateway = Gateway.start("worker-h2-continuation", """
                routes:
                  - {name: api, pathPrefix: /api, upstreams: [%s]}
                """.formatted(upstream.url()), Map.of("pylon.server.send-timeout", "1s"));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void aHeaderBlockSplitOverEightContinuationsIsServed() throws Exception {
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            client.headersContinued(1, "GET", "/api/split", 8, "x-big", "b".repeat(120));
            assertThat(client.answer(1)).isEqualTo("hello 120");
            client.headers(3, "GET", "/api/next", true, "x-big", "c");
            assertThat(client.answer(3)).isEqualTo("hello 1");
        }
    }

    @Test
    void aNinthContinuationEndsTheConnectionWithGoAway() throws Exception {
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            client.endlessHeaders(1, 9);
            assertThat(client.goAwayCodeWithin(10_000)).isEqualTo(ENHANCE_YOUR_CALM);
            assertThat(client.closedWithin(10_000)).isTrue();
        }
        assertServesANewConnection();
    }

    /**
     * Helidon 4.5 ends a connection for a malformed request with GOAWAY naming stream 0 as the last it acted on, which
     * lets a client send its other streams again although their upstreams got them (RFC 9113 section 6.8): the GOAWAY
     * the client gets names the highest stream it opened.
     */
    @Test
    void aGoAwayForAMalformedRequestNamesTheStreamsAlreadyTaken() throws Exception {
        int before = SLOW_REQUESTS.get();
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            client.headers(1, "POST", "/api/slow", true);
            long until = System.currentTimeMillis() + 10_000;
            while (SLOW_REQUESTS.get() == before && System.currentTimeMillis() < until) {
                Thread.sleep(10); // the upstream has the POST
            }
            client.headers(3, "GET", "/api/x", true, "connection", "keep-alive"); // malformed in HTTP/2
            assertThat(client.goAwaySaidWithin(10_000)).isEqualTo("last stream 3, code 1");
        }
        assertThat(SLOW_REQUESTS.get()).isEqualTo(before + 1);
        assertServesANewConnection();
    }

    @Test
    void anUpgradedConnectionIsBoundTheSameWay() throws Exception {
        try (RawHttp2 client = RawHttp2.upgrade(gateway.pod.port(), "/api/upgraded")) {
            assertThat(client.answer(1)).isEqualTo("hello 0");
            client.endlessHeaders(3, 20);
            assertThat(client.goAwayCodeWithin(10_000)).isEqualTo(ENHANCE_YOUR_CALM);
            assertThat(client.closedWithin(10_000)).isTrue();
        }
        assertServesANewConnection();
    }

    @Test
    void aFloodOfEmptyContinuationsIsCutLongBeforeItEnds() throws Exception {
        long frames = 20_000_000; // 180 MB on the wire; the pod's heap grew by 1.2 GB taking them before the bound
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            IOException cut = null;
            try {
                client.endlessHeaders(1, frames);
            } catch (IOException e) {
                cut = e; // the pod closed the connection while the client was still sending
            }
            assertThat(cut).as("the pod cut the flood").isNotNull();
        }
        assertServesANewConnection();
    }

    @Test
    void aPingFloodFromAClientThatReadsNothingEndsAfterTheSendTimeout() throws Exception {
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.setReceiveBufferSize(16 * 1024);
            socket.connect(new java.net.InetSocketAddress("127.0.0.1", gateway.pod.port()));
            var out = socket.getOutputStream();
            out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.write(new byte[]{0, 0, 0, 4, 0, 0, 0, 0, 0}); // SETTINGS
            byte[] pings = new byte[17 * 1_000];
            for (int i = 0; i < 1_000; i++) {
                pings[i * 17 + 2] = 8;
                pings[i * 17 + 3] = 6;
            }
            var flood = java.util.concurrent.CompletableFuture.runAsync(() -> {
                try {
                    for (int i = 0; i < 100_000; i++) { // 1.7 GB: far more than the buffers hold
                        out.write(pings);
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e); // the pod closed the connection
                }
            });
            long t0 = System.nanoTime();
            Throwable end = null;
            try {
                flood.get(20, java.util.concurrent.TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                end = e.getCause();
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError("the pod still held the connection after 20 s", e);
            }
            assertThat(end).as("the pod cut the flood").isInstanceOf(java.io.UncheckedIOException.class);
            assertThat((System.nanoTime() - t0) / 1_000_000).isGreaterThan(900L);
        }
        assertServesANewConnection();
    }

    @Test
    void floodsOfFramesWithoutPayloadAreCut() throws Exception {
        record Flood(String name, int type, int stream, byte[] payload, boolean answered) {
        }
        for (Flood flood : List.of(
                new Flood("PRIORITY", 2, 3, new byte[]{0, 0, 0, 1, 15}, false),
                new Flood("WINDOW_UPDATE", 8, 0, new byte[]{0, 0, 0, 1}, false),
                new Flood("unknown type", 0x20, 0, new byte[4], false),
                new Flood("PING", 6, 0, new byte[8], true),
                new Flood("SETTINGS", 4, 0, new byte[0], true))) {
            try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
                // 5,000,000 frames, 45 to 85 MB: the rule cuts the connection after about 8 MB
                CompletableFuture<Boolean> sentAll = CompletableFuture.supplyAsync(() -> {
                    try {
                        client.repeat(flood.type(), 0, flood.stream(), flood.payload(), 5_000_000);
                        return true;
                    } catch (IOException e) {
                        return false; // the pod closed the connection
                    }
                });
                int goAway = client.goAwayCodeWithin(30_000);
                if (flood.answered()) {
                    // the GOAWAY waits behind the answers the client has not read yet, and the close that follows
                    // resets the connection (the client's frames are still coming): the client may never see it
                    assertThat(goAway).as(flood.name()).isIn(ENHANCE_YOUR_CALM, -1);
                } else {
                    assertThat(goAway).as(flood.name()).isEqualTo(ENHANCE_YOUR_CALM);
                }
                assertThat(client.closedWithin(10_000)).as(flood.name()).isTrue();
                assertThat(sentAll.get(30, TimeUnit.SECONDS)).as(flood.name() + " sent whole").isFalse();
            }
        }
        assertServesANewConnection();
    }

    @Test
    void framesWithoutPayloadBesideALargeAnswerAreNoFlood() throws Exception {
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            client.headers(1, "GET", "/api/download", true);
            // 10 KiB of WINDOW_UPDATEs beside each DATA frame: 10 MB in all for the 16 MiB answer, beyond the bound of
            // a connection that exchanged no payload, far within that of one whose answers' bytes count
            long length = client.answerLength(1, () -> client.repeat(8, 0, 0, new byte[]{0, 0, 0, 1}, 10 * 1024 / 13));
            assertThat(length).isEqualTo(DOWNLOAD);
            client.headers(3, "GET", "/api/next", true, "x-big", "c");
            assertThat(client.answer(3)).isEqualTo("hello 1");
        }
    }

    @Test
    void aRapidResetFloodEndsTheConnectionBeforeMostRequestsReachTheUpstream() throws Exception {
        int before = SLOW_REQUESTS.get();
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            CompletableFuture<Boolean> sentAll = CompletableFuture.supplyAsync(() -> {
                try {
                    for (int stream = 1; stream < 2 * 1_000; stream += 2) {
                        client.headers(stream, "GET", "/api/slow", true);
                        client.reset(stream, CANCEL);
                    }
                    return true;
                } catch (IOException e) {
                    return false;
                }
            });
            assertThat(client.goAwayCodeWithin(10_000)).isEqualTo(ENHANCE_YOUR_CALM);
            assertThat(client.closedWithin(10_000)).isTrue();
            sentAll.get(10, TimeUnit.SECONDS);
        }
        Thread.sleep(500);
        assertThat(SLOW_REQUESTS.get() - before).as("requests that reached the upstream, of 1,000").isLessThan(200);
        assertServesANewConnection();
    }

    @Test
    void streamsTheClientMakesThePodResetEndTheConnection() throws Exception {
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            CompletableFuture<Boolean> sentAll = CompletableFuture.supplyAsync(() -> {
                try {
                    for (int stream = 1; stream < 2 * 1_000; stream += 2) {
                        client.headers(stream, "POST", "/api/slow", false);
                        client.windowUpdate(stream, 0); // a stream error: the pod resets the stream
                    }
                    return true;
                } catch (IOException e) {
                    return false;
                }
            });
            // Helidon's bound (50 such resets a connection); without it the pod would reset all 1,000 streams
            assertThat(client.resetsUntilClosed(10_000)).isBetween(1, 60);
            sentAll.get(10, TimeUnit.SECONDS);
        }
        assertServesANewConnection();
    }

    @Test
    void anHpackBombIsAnswered431AndNeverReachesTheUpstream() throws Exception {
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            // 15 KB on the wire (Helidon bounds the encoded block, 16 KiB), 44 MB of header fields once decoded
            client.hpackBomb(1, "/api/bomb", 4_000, 11_000);
            assertThat(client.answer(1)).contains("exceed 16384 bytes");
            client.headers(3, "GET", "/api/next", true, "x-big", "c");
            assertThat(client.answer(3)).isEqualTo("hello 1");
        }
        assertThat(BOMBS_RECEIVED.get()).isZero();
    }

    private static void assertServesANewConnection() throws IOException {
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            client.headers(1, "GET", "/api/after", true, "x-big", "ok");
            assertThat(client.answer(1)).isEqualTo("hello 2");
        }
    }
}
