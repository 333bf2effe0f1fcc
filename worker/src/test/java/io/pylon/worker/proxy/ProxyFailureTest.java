package io.pylon.worker.proxy;

import io.pylon.core.http.PodPaths;
import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** 502, 504, a client that goes away, and pool figures while requests are held open upstream. */
class ProxyFailureTest {
    static final CountDownLatch RELEASE = new CountDownLatch(1);
    static final AtomicInteger HELD = new AtomicInteger();
    static TestUpstream slow;
    static TestUpstream endless;
    static ServerSocket resetting;
    static TestUpstream truncating;
    static ServerSocket saturated;
    static TestUpstream sink;
    static TestUpstream shortSmall;
    static final List<Socket> BACKLOG = new ArrayList<>();
    static Gateway gateway;

    @BeforeAll
    static void start() throws IOException {
        slow = TestUpstream.start(exchange -> {
            HELD.incrementAndGet();
            try {
                RELEASE.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            TestUpstream.send(exchange, 200, "late".getBytes(StandardCharsets.UTF_8));
        });
        // streams a body forever, slowly enough that only a client abort ends the exchange
        endless = TestUpstream.start(exchange -> {
            exchange.sendResponseHeaders(200, 0);
            byte[] chunk = new byte[8192];
            try (OutputStream out = exchange.getResponseBody()) {
                while (true) {
                    out.write(chunk);
                    out.flush();
                    Thread.sleep(5);
                }
            } catch (IOException | InterruptedException e) {
                // the gateway closed the connection: what the test wants
            }
        });
        // promises 100 000 bytes, sends 1 000, then drops the connection
        truncating = TestUpstream.start(exchange -> {
            exchange.sendResponseHeaders(200, 100_000);
            exchange.getResponseBody().write(new byte[1000]);
            exchange.getResponseBody().flush();
            exchange.getHttpContext().getServer().stop(0);
        });
        // promises a small body, sends part of it, drops the connection: nothing reached the client yet
        shortSmall = TestUpstream.start(exchange -> {
            exchange.sendResponseHeaders(200, 100);
            exchange.getResponseBody().write(new byte[10]);
            exchange.getResponseBody().flush();
            exchange.getHttpContext().getServer().stop(0);
        });
        sink = TestUpstream.start(exchange -> {
            exchange.getRequestBody().transferTo(OutputStream.nullOutputStream());
            TestUpstream.send(exchange, 200, new byte[0]);
        });
        // never accepts, and its accept queue is full: the kernel drops new SYNs, so a connect can only time out
        saturated = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
        for (int i = 0; i < 8; i++) {
            Socket socket = new Socket();
            try {
                socket.connect(saturated.getLocalSocketAddress(), 200);
                BACKLOG.add(socket);
            } catch (IOException e) {
                socket.close();
                break;
            }
        }
        resetting = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        Thread.ofVirtual().start(() -> {
            while (!resetting.isClosed()) {
                try {
                    Socket socket = resetting.accept();
                    socket.getInputStream().read(new byte[1024]);
                    socket.setSoLinger(true, 0);
                    socket.close();
                } catch (IOException e) {
                    return;
                }
            }
        });
        gateway = Gateway.start("failure-test", """
                routes:
                  - {name: refused, pathPrefix: /refused, upstreams: [http://127.0.0.1:%d]}
                  - {name: reset, pathPrefix: /reset, upstreams: [http://127.0.0.1:%d]}
                  - {name: slow, pathPrefix: /slow, upstreams: [%s], responseTimeout: 30s}
                  - {name: impatient, pathPrefix: /impatient, stripPrefix: true, upstreams: [%s], responseTimeout: 300ms}
                  - {name: endless, pathPrefix: /endless, upstreams: [%s]}
                  - {name: truncating, pathPrefix: /truncating, upstreams: [%s]}
                  - {name: unanswered, pathPrefix: /unanswered, upstreams: [http://127.0.0.1:%d], connectTimeout: 300ms}
                  - {name: sink, pathPrefix: /sink, upstreams: [%s]}
                  - {name: short, pathPrefix: /short, upstreams: [%s]}
                """.formatted(TestUpstream.refusedPort(), resetting.getLocalPort(), slow.url(), slow.url(), endless.url(),
                truncating.url(), saturated.getLocalPort(), sink.url(), shortSmall.url()),
                Map.of());
    }

    @AfterAll
    static void stop() throws IOException {
        RELEASE.countDown();
        gateway.close();
        slow.close();
        endless.close();
        resetting.close();
        for (Socket socket : BACKLOG) {
            socket.close();
        }
        saturated.close();
        sink.close();
        shortSmall.close();
    }

    @Test
    void refusedIs502WithoutUpstreamDetails() {
        HttpResponse<String> response = TestPods.get(gateway.pod, "/refused/x");
        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.body()).startsWith("{").contains("\"error\":\"bad_gateway\"")
                .doesNotContain("127.0.0.1").doesNotContain("Exception").doesNotContain("refused:");
    }

    @Test
    void resetIs502() {
        HttpResponse<String> response = TestPods.get(gateway.pod, "/reset/x");
        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.body()).contains("\"error\":\"bad_gateway\"").doesNotContain("127.0.0.1");
    }

    @Test
    void upstreamThatStopsMidBodyCutsTheClientConnection() {
        HttpRequest request = HttpRequest.newBuilder(URI.create(gateway.url("/truncating"))).build();
        assertThatThrownBy(() -> TestPods.client().send(request, HttpResponse.BodyHandlers.ofByteArray()))
                .isInstanceOf(IOException.class);
        Gateway.await("the broken connection to be released", 5_000, () -> leasedOf(truncating.url()) == 0);
    }

    @Test
    void upstreamThatStopsInsideASmallBodyIs502() {
        HttpResponse<String> response = TestPods.get(gateway.pod, "/short");
        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.body()).startsWith("{").contains("\"error\":\"bad_gateway\"");
        Gateway.await("the broken connection to be released", 5_000, () -> leasedOf(shortSmall.url()) == 0);
    }

    @Test
    void connectTimeoutOfTheRouteIs504() {
        long t0 = System.nanoTime();
        HttpResponse<String> response = TestPods.get(gateway.pod, "/unanswered/x");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(response.body()).contains("\"error\":\"gateway_timeout\"").doesNotContain("127.0.0.1");
        assertThat(ms).isBetween(250L, 5_000L);
    }

    @Test
    void silentUpstreamIs504AfterTheRouteTimeout() {
        long t0 = System.nanoTime();
        HttpResponse<String> response = TestPods.get(gateway.pod, "/impatient/x");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(response.body()).contains("\"error\":\"gateway_timeout\"").doesNotContain("127.0.0.1");
        assertThat(ms).isBetween(250L, 5_000L);
        Gateway.await("the timed-out connection to be released", 5_000, () -> leasedOf(slow.url()) == 0);
    }

    @Test
    void clientThatDisconnectsReleasesItsUpstreamConnection() throws Exception {
        try (Socket client = new Socket("127.0.0.1", gateway.pod.port())) {
            client.getOutputStream().write("GET /endless HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = client.getInputStream();
            in.readNBytes(64 * 1024);
            assertThat(leasedOf(endless.url())).isEqualTo(1);
            client.setSoLinger(true, 0);
        }
        Gateway.await("the upstream connection to be released", 10_000, () -> leasedOf(endless.url()) == 0);
    }

    @Test
    void clientThatDisconnectsMidUploadReleasesItsUpstreamConnection() throws Exception {
        try (Socket client = new Socket("127.0.0.1", gateway.pod.port())) {
            OutputStream out = client.getOutputStream();
            out.write("POST /sink HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.write(new byte[256 * 1024]);
            out.flush();
            Gateway.await("the upload to reach the upstream", 5_000, () -> leasedOf(sink.url()) == 1);
            client.setSoLinger(true, 0);
        }
        Gateway.await("the upstream connection to be released", 10_000, () -> leasedOf(sink.url()) == 0);
    }

    @Test
    void fullUpstreamPoolIs503AfterTheLeaseTimeout() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        try (TestUpstream busy = TestUpstream.start(exchange -> {
                 try {
                     hold.await(10, TimeUnit.SECONDS);
                 } catch (InterruptedException e) {
                     Thread.currentThread().interrupt();
                 }
                 TestUpstream.send(exchange, 200, "done".getBytes(StandardCharsets.UTF_8));
             });
             Gateway small = Gateway.start("pool-test", "routes: [{name: busy, pathPrefix: /, upstreams: ['" + busy.url() + "']}]",
                     Map.of("pylon.worker.upstream.max-total", "1", "pylon.worker.upstream.lease-timeout", "200ms"));
             HttpClient client = HttpClient.newHttpClient()) {
            CompletableFuture<HttpResponse<String>> first = client.sendAsync(
                    HttpRequest.newBuilder(URI.create(small.url("/1"))).build(), HttpResponse.BodyHandlers.ofString());
            Gateway.await("the first request to hold the only connection", 5_000, () -> small.leased() == 1);
            HttpResponse<String> second = TestPods.get(small.pod, "/2");
            assertThat(second.statusCode()).isEqualTo(503);
            assertThat(second.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(second.body()).contains("\"error\":\"service_unavailable\"").doesNotContain("127.0.0.1");
            hold.countDown();
            assertThat(first.get(10, TimeUnit.SECONDS).body()).isEqualTo("done");
        }
    }

    @Test
    void heldRequestsShowAsLeasedConnections() throws Exception {
        int n = 5;
        HttpClient client = HttpClient.newHttpClient();
        int before = HELD.get();
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            calls.add(client.sendAsync(HttpRequest.newBuilder(URI.create(gateway.url("/slow/" + i))).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        Gateway.await(n + " requests to reach the upstream", 10_000, () -> HELD.get() - before >= n);
        assertThat(leasedOf(slow.url())).isEqualTo(n);
        assertThat(gateway.leased()).isEqualTo(n);
        HttpResponse<String> health = TestPods.get(gateway.pod, PodPaths.defaults().health());
        assertThat(health.body()).contains("\"activeConnections\":" + n);
        RELEASE.countDown();
        for (CompletableFuture<HttpResponse<String>> call : calls) {
            assertThat(call.get(10, TimeUnit.SECONDS).body()).isEqualTo("late");
        }
        Gateway.await("connections to return to the pool", 5_000, () -> leasedOf(slow.url()) == 0);
        assertThat(availableOf(slow.url())).isGreaterThanOrEqualTo(1);
        client.close();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> pool(String name) {
        return ((List<Map<String, Object>>) gateway.connections().get("pools")).stream()
                .filter(p -> p.get("name").equals(name)).findFirst().orElseThrow();
    }

    private static long leasedOf(String name) {
        return ((Number) pool(name).get("leased")).longValue();
    }

    private static long availableOf(String name) {
        return ((Number) pool(name).get("available")).longValue();
    }
}
