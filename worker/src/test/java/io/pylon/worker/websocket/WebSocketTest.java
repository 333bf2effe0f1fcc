package io.pylon.worker.websocket;

import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestUpstream;
import io.pylon.worker.testing.TestWebSocketUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** WebSocket through the Worker: the JDK's client, Helidon's WebSocket server upstream, real sockets. */
class WebSocketTest {
    static TestWebSocketUpstream upstream;
    static TestUpstream plain;
    static Gateway gateway;
    static Gateway idle;
    static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    static void start() {
        upstream = new TestWebSocketUpstream();
        plain = TestUpstream.echo("p");
        String routes = """
                routes:
                  - name: ws
                    pathPrefix: /ws
                    upstreams: [%s]
                  - name: refuse
                    pathPrefix: /refuse
                    upstreams: [%s]
                  - name: no-upgrade
                    pathPrefix: /off
                    websocket: false
                    upstreams: [%s]
                  - name: down
                    pathPrefix: /down
                    upstreams: [http://127.0.0.1:%d]
                  - name: keyed
                    pathPrefix: /keyed
                    keyAuth: {header: X-API-Key}
                    upstreams: [%s]
                """.formatted(upstream.url(), upstream.url(), plain.url(), TestUpstream.refusedPort(), upstream.url());
        gateway = Gateway.start("worker-ws", routes, Map.of());
        idle = Gateway.start("worker-ws-idle", routes, Map.of("pylon.worker.websocket.idle-timeout", "400ms"));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        idle.close();
        upstream.close();
        plain.close();
    }

    @Test
    void textBinaryLargeMessagesPingAndCloseCodesPassBothWays() throws Exception {
        Listener listener = new Listener();
        WebSocket ws = open(gateway, "/ws/echo", listener);
        Gateway.await("the tunnel is counted", 30_000, () -> websockets(gateway).get("open").equals(1));

        ws.sendText("hello", true).get(30, TimeUnit.SECONDS);
        assertThat(listener.next()).isEqualTo("text:hello");

        ws.sendBinary(ByteBuffer.wrap(new byte[]{1, 2, 3, (byte) 0xff}), true).get(30, TimeUnit.SECONDS);
        assertThat(listener.next()).isEqualTo("binary:01 02 03 ff");

        String large = "x".repeat(300_000) + "end";
        ws.sendText(large, true).get(30, TimeUnit.SECONDS);
        assertThat(listener.next()).isEqualTo("text:" + large);

        byte[] bytes = new byte[500_000];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 7);
        }
        ws.sendBinary(ByteBuffer.wrap(bytes), true).get(30, TimeUnit.SECONDS);
        String binary = listener.next();
        assertThat(binary).startsWith("binary-length:").isEqualTo("binary-length:" + bytes.length + ":" + sum(bytes));

        ws.sendPing(ByteBuffer.wrap("are you there".getBytes(StandardCharsets.UTF_8))).get(30, TimeUnit.SECONDS);
        assertThat(listener.next()).isEqualTo("pong:are you there");

        ws.sendClose(4001, "client done").get(30, TimeUnit.SECONDS);
        assertThat(upstream.closes.poll(30, TimeUnit.SECONDS)).isEqualTo("4001 client done");
        assertThat(listener.next()).startsWith("close:"); // the upstream's answer to the close (Helidon's: 1000)
        Gateway.await("the tunnel is gone", 30_000, () -> websockets(gateway).get("open").equals(0));
        Map<String, Object> counts = websockets(gateway);
        assertThat((Long) counts.get("opened")).isGreaterThanOrEqualTo(1);
        assertThat((Long) counts.get("bytesFromClients")).isGreaterThan(800_000);

        String metrics = TestPods.get(gateway.pod, "/platform/management/metrics").body();
        assertThat(metrics).contains("pylon_worker_websocket_tunnels ").contains("pylon_worker_websocket_tunnels_opened_total");
    }

    @Test
    void theUpstreamsCloseCodeReachesTheClient() throws Exception {
        Listener listener = new Listener();
        WebSocket ws = open(gateway, "/ws/echo", listener);
        ws.sendText("close-me", true).get(30, TimeUnit.SECONDS);
        assertThat(listener.next()).isEqualTo("close:4002 asked to"); // the JDK client answers the close itself
    }

    @Test
    void aRefusedUpgradeIsRelayedAndTheNextRequestIsServed() throws Exception {
        ExecutionException refused = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> open(gateway, "/refuse", new Listener()));
        assertThat(refused.getCause()).isInstanceOf(WebSocketHandshakeException.class);
        var response = ((WebSocketHandshakeException) refused.getCause()).getResponse();
        assertThat(response.statusCode()).isEqualTo(403);

        // on a raw connection: the upstream's answer whole, then the connection ends
        try (Socket socket = raw(gateway)) {
            socket.getOutputStream().write(upgrade("/refuse"));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(answer).startsWith("HTTP/1.1 403").contains("Connection: close").endsWith("{\"refused\":true}");
        }
        assertThat(TestPods.get(gateway.pod, "/off/after").body()).isEqualTo("p GET /off/after");
        assertThat(websockets(gateway).get("refusedByUpstream")).isNotEqualTo(0L);
    }

    @Test
    void aRouteWithWebSocketOffForwardsPlainHttpWithoutTheUpgrade() throws Exception {
        try (Socket socket = raw(gateway)) {
            socket.getOutputStream().write(upgrade("/off/x"));
            String head = readHead(socket.getInputStream());
            assertThat(head).startsWith("HTTP/1.1 200");
            assertThat(head.toLowerCase()).doesNotContain("x-seen-upgrade").contains("x-seen-sec-websocket-key");
        }
    }

    @Test
    void anUpgradeWithAnAbsoluteFormTargetIsTunnelled() throws Exception {
        try (Socket socket = raw(gateway)) {
            socket.getOutputStream().write(upgrade("http://ws.example/ws/echo"));
            assertThat(readHead(socket.getInputStream())).startsWith("HTTP/1.1 101");
        }
    }

    /** The pod's header checks apply to a handshake as to any request: past the bound 431, a field without a name 400. */
    @Test
    void aHandshakeWithHeadersAnyRequestWouldBeRefusedForIsRefusedTheSame() throws Exception {
        String handshake = new String(upgrade("/ws/echo"), StandardCharsets.US_ASCII);
        try (Socket socket = raw(gateway)) {
            socket.getOutputStream().write(handshake.replace("Host: gateway\r\n", "Host: gateway\r\nCookie: "
                    + "c".repeat(20 * 1024) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            assertThat(readHead(socket.getInputStream())).startsWith("HTTP/1.1 431").contains("application/json");
        }
        try (Socket socket = raw(gateway)) {
            socket.getOutputStream().write(handshake.replace("Host: gateway\r\n", "Host: gateway\r\n: nameless\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            assertThat(readHead(socket.getInputStream())).startsWith("HTTP/1.1 400");
        }
    }

    @Test
    void anUnreachableUpstreamIsA502WithJson() throws Exception {
        try (Socket socket = raw(gateway)) {
            socket.getOutputStream().write(upgrade("/down/x"));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(answer).startsWith("HTTP/1.1 502").contains("application/json").contains("\"error\":\"bad_gateway\"");
        }
    }

    @Test
    void theRoutesPoliciesAndPathRulesApplyToTheUpgrade() throws Exception {
        try (Socket socket = raw(gateway)) {
            socket.getOutputStream().write(upgrade("/keyed/ws/echo"));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(answer).startsWith("HTTP/1.1 401").contains("\"error\":\"unauthorized\"");
        }
        try (Socket socket = raw(gateway)) {
            socket.getOutputStream().write(upgrade("/ws/../../etc"));
            assertThat(readHead(socket.getInputStream())).startsWith("HTTP/1.1 400");
        }
        // dot-segments are resolved before matching: this reaches the ws route's upstream as /ws/echo
        Listener listener = new Listener();
        WebSocket ws = open(gateway, "/keyed/%2e%2e/ws/echo", listener);
        ws.sendText("normalised", true).get(30, TimeUnit.SECONDS);
        assertThat(listener.next()).isEqualTo("text:normalised");
        ws.abort();
    }

    @Test
    void anIdleTunnelIsClosedOnBothSides() throws Exception {
        Listener listener = new Listener();
        open(idle, "/ws/echo", listener);
        assertThat(listener.next()).startsWith("close:"); // the Worker closed the connection: abnormal closure
        Gateway.await("the tunnel is gone", 30_000, () -> websockets(idle).get("open").equals(0));
        assertThat((Long) websockets(idle).get("closedIdle")).isGreaterThanOrEqualTo(1);
    }

    /** A header value in UTF-8 reaches the upstream's handshake byte for byte, as on any proxied request. */
    @Test
    void aClientThatDisappearsClosesTheUpstreamSide() throws Exception {
        // Helidon's WebSocket server tells its listener nothing when a peer's socket just ends: the upstream here is
        // a raw socket server that answers the handshake and then waits for the end of its connection
        String utf8 = new String("José €".getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        CompletableFuture<String> handshake = new CompletableFuture<>();
        try (java.net.ServerSocket server = new java.net.ServerSocket(0, 10,
                java.net.InetAddress.getByName("127.0.0.1"))) {
            CompletableFuture<Integer> upstreamEnd = CompletableFuture.supplyAsync(() -> {
                try (Socket accepted = server.accept()) {
                    accepted.setSoTimeout(60_000);
                    handshake.complete(readHead(accepted.getInputStream()));
                    accepted.getOutputStream().write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                            + "Connection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
                    return accepted.getInputStream().read();
                } catch (IOException e) {
                    return -2; // reset: also an end
                }
            });
            gateway.rewrite(Files.readString(gateway.routesFile) + """
                      - name: raw
                        pathPrefix: /raw
                        upstreams: [http://127.0.0.1:%d]
                    """.formatted(server.getLocalPort()));
            Gateway.await("the raw route is loaded", 30_000,
                    () -> ((Map<?, ?>) gateway.connections().get("routes")).get("count").equals(6));
            Socket socket = raw(gateway);
            socket.getOutputStream().write((new String(upgrade("/raw/ws"), StandardCharsets.ISO_8859_1)
                    .replace("\r\n\r\n", "\r\nX-Name: " + utf8 + "\r\n\r\n")).getBytes(StandardCharsets.ISO_8859_1));
            assertThat(readHead(socket.getInputStream())).startsWith("HTTP/1.1 101");
            assertThat(handshake.get(10, TimeUnit.SECONDS)).contains("\r\nX-Name: " + utf8 + "\r\n");
            Gateway.await("the tunnel is counted", 30_000, () -> websockets(gateway).get("open").equals(1));
            socket.setSoLinger(true, 0);
            socket.close(); // reset, no close frame
            assertThat(upstreamEnd.get(60, TimeUnit.SECONDS)).isLessThan(0);
            Gateway.await("no tunnel left", 30_000, () -> websockets(gateway).get("open").equals(0));
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> websockets(Gateway g) {
        return (Map<String, Object>) g.connections().get("websockets");
    }

    static WebSocket open(Gateway g, String path, Listener listener) throws Exception {
        URI uri = URI.create(g.url(path).replace("http://", "ws://"));
        return CLIENT.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10)).buildAsync(uri, listener)
                .get(30, TimeUnit.SECONDS);
    }

    static Socket raw(Gateway g) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(g.pod.identity().podIp(), g.pod.port()), 10_000);
        socket.setSoTimeout(30_000);
        return socket;
    }

    static byte[] upgrade(String path) {
        return ("GET " + path + " HTTP/1.1\r\nHost: gateway\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    static long sum(byte[] bytes) {
        long sum = 0;
        for (byte b : bytes) {
            sum = sum * 31 + b;
        }
        return sum;
    }

    /** Queues what the client receives, whole messages only. */
    static final class Listener implements WebSocket.Listener {
        final BlockingQueue<String> events = new LinkedBlockingQueue<>();
        private final StringBuilder text = new StringBuilder();
        private final ByteArrayOutputStream binary = new ByteArrayOutputStream();

        String next() throws InterruptedException {
            String event = events.poll(30, TimeUnit.SECONDS);
            if (event == null) {
                throw new AssertionError("nothing received in 30 s");
            }
            return event;
        }

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                events.add("text:" + text);
                text.setLength(0);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
            byte[] chunk = new byte[data.remaining()];
            data.get(chunk);
            binary.writeBytes(chunk);
            if (last) {
                byte[] all = binary.toByteArray();
                binary.reset();
                if (all.length <= 16) {
                    StringBuilder hex = new StringBuilder();
                    for (byte b : all) {
                        hex.append(hex.isEmpty() ? "" : " ").append(String.format("%02x", b));
                    }
                    events.add("binary:" + hex);
                } else {
                    events.add("binary-length:" + all.length + ":" + sum(all));
                }
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onPong(WebSocket ws, ByteBuffer message) {
            events.add("pong:" + StandardCharsets.UTF_8.decode(message));
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
            events.add("close:" + statusCode + " " + reason);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            events.add("close:error " + error.getClass().getSimpleName());
        }
    }
}
