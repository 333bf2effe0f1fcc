package io.pylon.worker.proxy;

import io.helidon.webserver.WebServer;
import io.pylon.worker.testing.Gateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An HTTP/2 upstream that is slow, full, restarted, or given a body the client never finished: the Worker's answers
 * and what reaches the upstream, on the wire, with a Helidon HTTP/2 server as the upstream.
 */
class Http2UpstreamFailuresTest {
    static final CountDownLatch RELEASE = new CountDownLatch(1);
    static final AtomicInteger HELD = new AtomicInteger();
    static final AtomicInteger WHOLE_BODIES = new AtomicInteger();
    static final AtomicReference<String> BODY_FAILURE = new AtomicReference<>();
    static final CountDownLatch BODY_ENDED = new CountDownLatch(1);
    static WebServer upstream;
    static Gateway gateway;
    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    static WebServer upstream(int port) {
        return WebServer.builder().host("127.0.0.1").port(port)
                .routing(r -> r
                        .get("/up/ok", (req, res) -> res.send("ok"))
                        .get("/up/slow", (req, res) -> {
                            Thread.sleep(3_000);
                            res.send("late");
                        })
                        .get("/up/hold", (req, res) -> {
                            HELD.incrementAndGet();
                            RELEASE.await(20, TimeUnit.SECONDS);
                            res.send("held");
                        })
                        .post("/up/upload", (req, res) -> {
                            try (InputStream in = req.content().inputStream()) {
                                byte[] body = in.readAllBytes();
                                WHOLE_BODIES.incrementAndGet();
                                res.send(Integer.toString(body.length));
                            } catch (RuntimeException | IOException e) {
                                BODY_FAILURE.set(e.getClass().getSimpleName());
                                throw e;
                            } finally {
                                BODY_ENDED.countDown();
                            }
                        }))
                .build().start();
    }

    @BeforeAll
    static void start() {
        upstream = upstream(0);
        gateway = Gateway.start("worker-h2-upstream-failures", """
                routes:
                  - name: up
                    pathPrefix: /up
                    upstreams: [http://127.0.0.1:%d]
                    upstreamProtocol: HTTP/2
                    responseTimeout: 1s
                """.formatted(upstream.port()), Map.of("pylon.worker.upstream.max-per-route", "4",
                "pylon.worker.upstream.lease-timeout", "300ms"));
    }

    @AfterAll
    static void stop() {
        RELEASE.countDown();
        gateway.close();
        upstream.stop();
    }

    static HttpResponse<String> get(String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create(gateway.url(path))).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void anUpstreamSilentPastTheResponseTimeoutGets504AndItsConnectionServesOn() throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<String> slow = get("/up/slow");
        assertThat(slow.statusCode()).isEqualTo(504);
        assertThat(slow.body()).contains("\"error\"");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(2_800));
        assertThat(get("/up/ok").body()).isEqualTo("ok");
    }

    @Test
    void requestsBeyondTheStreamsAllowedGet503AndThePlacesComeBack() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            held.add(CLIENT.sendAsync(HttpRequest.newBuilder(URI.create(gateway.url("/up/hold")))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (HELD.get() < 4 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(HELD.get()).isEqualTo(4);
        HttpResponse<String> over = get("/up/ok");
        assertThat(over.statusCode()).isEqualTo(503);
        assertThat(over.body()).contains("\"error\"");
        RELEASE.countDown();
        for (CompletableFuture<HttpResponse<String>> each : held) {
            assertThat(each.get(20, TimeUnit.SECONDS).body()).isIn("held");
        }
        assertThat(get("/up/ok").body()).isEqualTo("ok");
        // the stream's place comes back as its exchange ends, which can be just after the client has the answer
        Gateway.await("every stream's place back", 5_000, () -> gateway.leased() == 0);
    }

    @Test
    void aBodyTheClientNeverFinishedNeverReachesTheUpstreamAsAWholeOne() throws Exception {
        int before = WHOLE_BODIES.get();
        URI base = URI.create(gateway.url("/"));
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /up/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(new byte[100_000]);
            out.flush();
            Thread.sleep(300);
        } // closed with 948,576 bytes unsent
        assertThat(BODY_ENDED.await(10, TimeUnit.SECONDS)).as("the upstream's read of the body ended").isTrue();
        assertThat(BODY_FAILURE.get()).as("the upstream's read failed (the stream was reset)").isNotNull();
        assertThat(WHOLE_BODIES.get()).isEqualTo(before);
        assertThat(get("/up/ok").body()).isEqualTo("ok");
    }

    @Test
    void anUpstreamRestartedBetweenRequestsIsReachedAgainWithoutAnError() throws Exception {
        WebServer first = upstream(0);
        int port = first.port();
        try (Gateway own = Gateway.start("worker-h2-upstream-restart", """
                routes:
                  - name: up
                    pathPrefix: /up
                    upstreams: [http://127.0.0.1:%d]
                    upstreamProtocol: HTTP/2
                """.formatted(port), Map.of())) {
            HttpResponse<String> ok = CLIENT.send(HttpRequest.newBuilder(URI.create(own.url("/up/ok"))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(ok.statusCode()).isEqualTo(200);
            first.stop();
            WebServer second = upstream(port);
            try {
                for (int i = 0; i < 5; i++) {
                    HttpResponse<String> again = CLIENT.send(HttpRequest.newBuilder(URI.create(own.url("/up/ok")))
                            .build(), HttpResponse.BodyHandlers.ofString());
                    assertThat(again.statusCode()).as("request %d after the restart", i).isEqualTo(200);
                }
            } finally {
                second.stop();
            }
        }
    }
}
