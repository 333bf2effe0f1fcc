package io.pylon.core.http;

import com.sun.net.httpserver.HttpServer;
import io.pylon.core.testing.EndlessAnswer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Against a real HTTP server on loopback: an answer that comes whole, one whose body trickles after its head (which
 * {@code java.net.http} alone lets run past the request's timeout; here the timeout cuts it, and its connection is
 * closed), a refused connection, which keeps its exception type for callers that fail over on it, and a request
 * without a timeout, which cannot be bounded. A body larger than the caller takes fails the call as soon as it passes
 * the bound, whether it says so in its {@code Content-Length} or is sent without end.
 */
class WholeAnswerTest {
    private static HttpServer server;
    private static final CountDownLatch TRICKLE_CUT = new CountDownLatch(1);
    private static final CountDownLatch FLOOD_CUT = new CountDownLatch(1);
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/whole", exchange -> {
            byte[] body = "whole".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.createContext("/trickle", exchange -> {
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < 100; i++) {
                    out.write('.');
                    out.flush();
                    Thread.sleep(100);
                }
            } catch (IOException | InterruptedException e) {
                TRICKLE_CUT.countDown(); // the client closed the connection
            }
        });
        server.createContext("/flood", exchange -> EndlessAnswer.send(exchange, new byte[0], FLOOD_CUT::countDown));
        server.createContext("/declared", exchange -> { // declares 1 GiB, sends a little, then waits
            exchange.sendResponseHeaders(200, 1L << 30);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(new byte[10]);
                out.flush();
                Thread.sleep(30_000);
            } catch (IOException | InterruptedException e) {
                // the client closed the connection
            }
        });
        server.start();
    }

    @AfterAll
    static void stop() {
        server.stop(0);
    }

    private static HttpRequest request(String path, Duration timeout) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path))
                .timeout(timeout).build();
    }

    @Test
    void aWholeAnswerIsReturned() throws Exception {
        HttpResponse<String> answer = WholeAnswer.send(CLIENT, request("/whole", Duration.ofSeconds(5)),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo("whole");
    }

    @Test
    void aTrickledBodyIsCutAtTheBoundAndItsConnectionClosed() throws Exception {
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> WholeAnswer.send(CLIENT, request("/trickle", Duration.ofMillis(1500)),
                HttpResponse.BodyHandlers.ofString())).isInstanceOf(HttpTimeoutException.class);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isBetween(1400L, 4000L);
        assertThat(TRICKLE_CUT.await(5, TimeUnit.SECONDS)).as("the server saw its connection closed").isTrue();
    }

    @Test
    void aRefusedConnectionKeepsItsType() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            closedPort = socket.getLocalPort();
        }
        HttpRequest refused = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + closedPort + "/"))
                .timeout(Duration.ofSeconds(5)).build();
        assertThatThrownBy(() -> WholeAnswer.send(CLIENT, refused, HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(ConnectException.class);
    }

    @Test
    void aRequestWithoutATimeoutIsRefused() {
        HttpRequest unbounded = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getAddress().getPort()
                + "/whole")).build();
        assertThatThrownBy(() -> WholeAnswer.send(CLIENT, unbounded, HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("without a timeout");
    }

    @Test
    void aBodyWithinTheBoundIsReturnedAsBytesOrText() throws Exception {
        assertThat(WholeAnswer.send(CLIENT, request("/whole", Duration.ofSeconds(5)), WholeAnswer.bytesAtMost(5)).body())
                .asString(StandardCharsets.UTF_8).isEqualTo("whole");
        assertThat(WholeAnswer.send(CLIENT, request("/whole", Duration.ofSeconds(5)), WholeAnswer.textAtMost(5)).body())
                .isEqualTo("whole");
        assertThatThrownBy(() -> WholeAnswer.send(CLIENT, request("/whole", Duration.ofSeconds(5)),
                WholeAnswer.textAtMost(4))).isInstanceOf(WholeAnswer.TooLargeException.class)
                .hasMessage("the answer's body is larger than 4 bytes");
    }

    @Test
    void aBodySentWithoutEndFailsAtTheBoundAndItsConnectionIsClosed() throws Exception {
        long start = System.nanoTime();
        assertThatThrownBy(() -> WholeAnswer.send(CLIENT, request("/flood", Duration.ofSeconds(30)),
                WholeAnswer.bytesAtMost(1024 * 1024))).isInstanceOf(WholeAnswer.TooLargeException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        assertThat(FLOOD_CUT.await(10, TimeUnit.SECONDS)).as("the server saw its connection closed").isTrue();
    }

    @Test
    void aLargerContentLengthFailsBeforeTheBodyIsRead() throws Exception {
        long start = System.nanoTime();
        assertThatThrownBy(() -> WholeAnswer.send(CLIENT, request("/declared", Duration.ofSeconds(20)),
                WholeAnswer.textAtMost(1024))).isInstanceOf(WholeAnswer.TooLargeException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }
}
