package io.pylon.worker.proxy;

import io.pylon.core.diagnostics.DiagnosticsContract;
import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.RawHttp;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The response timeout counts only time spent waiting on the upstream: a slow client is not the upstream's fault,
 * an upstream that keeps sending is alive, and one that goes silent (answering, or reading the request body) is cut.
 * Every route here has a 300 ms response timeout.
 */
class ResponseTimeoutTest {
    static final CountDownLatch RELEASE = new CountDownLatch(1);
    static TestUpstream echo;
    static TestUpstream trickle;
    static TestUpstream stalling;
    static TestUpstream deaf;
    static Gateway gateway;

    @BeforeAll
    static void start() {
        echo = TestUpstream.echo("echo");
        // 8 chunks 100 ms apart: 800 ms in all, never silent for 300 ms
        trickle = TestUpstream.start(exchange -> {
            exchange.sendResponseHeaders(200, 8 * 1000);
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < 8; i++) {
                    out.write(new byte[1000]);
                    out.flush();
                    Thread.sleep(100);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        // promises 100 000 bytes, sends 20 000, then goes silent
        stalling = TestUpstream.start(exchange -> {
            exchange.sendResponseHeaders(200, 100_000);
            exchange.getResponseBody().write(new byte[20_000]);
            exchange.getResponseBody().flush();
            await();
        });
        // never reads the request body, never answers
        deaf = TestUpstream.start(exchange -> await());
        gateway = Gateway.start("timeout-test", """
                routes:
                  - {name: echo, pathPrefix: /echo, upstreams: [%s], responseTimeout: 300ms}
                  - {name: trickle, pathPrefix: /trickle, upstreams: [%s], responseTimeout: 300ms}
                  - {name: stalling, pathPrefix: /stalling, upstreams: [%s], responseTimeout: 300ms}
                  - {name: deaf, pathPrefix: /deaf, upstreams: [%s], responseTimeout: 300ms}
                """.formatted(echo.url(), trickle.url(), stalling.url(), deaf.url()), Map.of());
    }

    private static void await() {
        try {
            RELEASE.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @AfterAll
    static void stop() {
        RELEASE.countDown();
        gateway.close();
        echo.close();
        trickle.close();
        stalling.close();
        deaf.close();
    }

    @Test
    void clientThatPausesWhileSendingItsBodyIsNotTimedOut() throws Exception {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            out.write("POST /echo/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3000\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            for (int i = 0; i < 3; i++) {
                out.write(new byte[1000]);
                out.flush();
                Thread.sleep(500);
            }
            String head = RawHttp.readHead(socket.getInputStream());
            assertThat(head).startsWith("HTTP/1.1 200").containsIgnoringCase("x-body-length: 3000");
        }
    }

    @Test
    void upstreamThatKeepsSendingOutlivesTheTimeout() throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<byte[]> response = TestPods.client().send(
                HttpRequest.newBuilder(URI.create(gateway.url("/trickle"))).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).hasSize(8000);
        assertThat((System.nanoTime() - t0) / 1_000_000).as("well past the 300 ms timeout in all").isGreaterThanOrEqualTo(700);
    }

    @Test
    void upstreamSilentMidBodyCutsTheClientConnectionAndFreesItsConnection() {
        long t0 = System.nanoTime();
        HttpRequest request = HttpRequest.newBuilder(URI.create(gateway.url("/stalling"))).build();
        assertThatThrownBy(() -> TestPods.client().send(request, HttpResponse.BodyHandlers.ofByteArray()))
                .isInstanceOf(IOException.class);
        assertThat((System.nanoTime() - t0) / 1_000_000).isBetween(250L, 5_000L);
        Gateway.await("the silent upstream's connection to be released", 5_000, () -> leasedOf(stalling.url()) == 0);
    }

    @Test
    void upstreamThatStopsReadingTheRequestBodyIs504() throws Exception {
        try (Socket socket = connect()) {
            int length = 64 * 1024 * 1024;
            Thread sender = Thread.ofVirtual().start(() -> {
                try {
                    OutputStream out = socket.getOutputStream();
                    out.write(("POST /deaf/upload HTTP/1.1\r\nHost: x\r\nContent-Length: " + length + "\r\n\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1));
                    byte[] chunk = new byte[64 * 1024];
                    for (int sent = 0; sent < length; sent += chunk.length) {
                        out.write(chunk);
                    }
                } catch (IOException e) {
                    // the gateway stopped reading after answering: expected
                }
            });
            long t0 = System.nanoTime();
            InputStream in = socket.getInputStream();
            String head = RawHttp.readHead(in);
            assertThat(head).startsWith("HTTP/1.1 504");
            assertThat((System.nanoTime() - t0) / 1_000_000).isBetween(250L, 10_000L);
            socket.close();
            sender.join(5_000);
        }
        Gateway.await("the deaf upstream's connection to be released", 5_000, () -> leasedOf(deaf.url()) == 0);
    }

    @Test
    void maintenanceExecutorSweepsWhileRequestsWaitOnUpstreams() throws Exception {
        long idleBefore = maintenanceTasks();
        Thread.sleep(800);
        long idle = maintenanceTasks() - idleBefore;

        long busyBefore = maintenanceTasks();
        HttpResponse<byte[]> response = TestPods.client().send(
                HttpRequest.newBuilder(URI.create(gateway.url("/trickle"))).build(), HttpResponse.BodyHandlers.ofByteArray());
        long busy = maintenanceTasks() - busyBefore;

        assertThat(response.statusCode()).isEqualTo(200);
        // routes reload and pool maintenance run in both periods; sweeps every 20 ms only during the 800 ms request
        assertThat(busy).as("maintenance tasks idle %d, while a request waited on its upstream %d", idle, busy)
                .isGreaterThanOrEqualTo(idle + 15);
    }

    private static long maintenanceTasks() {
        return DiagnosticsContract.internal(gateway.pod, "threads")
                .path("threads").path("executorPools").path("platform-maintenance").path("completedTaskCount").asLong(-1);
    }

    private static Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", gateway.pod.port()), 5_000);
        socket.setSoTimeout(15_000);
        return socket;
    }

    @SuppressWarnings("unchecked")
    private static long leasedOf(String name) {
        return ((List<Map<String, Object>>) gateway.connections().get("pools")).stream()
                .filter(p -> p.get("name").equals(name)).findFirst()
                .map(p -> ((Number) p.get("leased")).longValue()).orElseThrow();
    }
}
