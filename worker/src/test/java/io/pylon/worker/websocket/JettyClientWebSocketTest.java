package io.pylon.worker.websocket;

import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestWebSocketUpstream;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.client.WebSocketClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The same tunnel with an independent client: Jetty 12's WebSocket client (its own framing and masking code). */
class JettyClientWebSocketTest {
    static TestWebSocketUpstream upstream;
    static Gateway gateway;
    static WebSocketClient client;

    @BeforeAll
    static void start() throws Exception {
        upstream = new TestWebSocketUpstream();
        gateway = Gateway.start("worker-ws-jetty", """
                routes:
                  - name: ws
                    pathPrefix: /ws
                    upstreams: [%s]
                """.formatted(upstream.url()), Map.of());
        client = new WebSocketClient();
        client.setMaxBinaryMessageSize(1 << 20); // its default, 64 KiB, is below the message sent
        client.start();
    }

    @AfterAll
    static void stop() throws Exception {
        client.stop();
        gateway.close();
        upstream.close();
    }

    @Test
    void textBinaryPingAndCloseThroughTheWorker() throws Exception {
        Endpoint endpoint = new Endpoint();
        Session session = client.connect(endpoint, URI.create(gateway.url("/ws/echo").replace("http://", "ws://")))
                .get(30, TimeUnit.SECONDS);

        session.sendText("from jetty", Callback.NOOP);
        assertThat(endpoint.next()).isEqualTo("text:from jetty");

        byte[] large = new byte[200_000];
        for (int i = 0; i < large.length; i++) {
            large[i] = (byte) (i % 251);
        }
        session.sendBinary(ByteBuffer.wrap(large), Callback.NOOP);
        assertThat(endpoint.next()).isEqualTo("binary:" + large.length + ":" + WebSocketTest.sum(large));

        session.sendPing(ByteBuffer.wrap("ping?".getBytes(StandardCharsets.UTF_8)), Callback.NOOP);
        assertThat(endpoint.next()).isEqualTo("pong:ping?");

        session.sendText("close-me", Callback.NOOP);
        assertThat(endpoint.next()).isEqualTo("close:4002 asked to");
        Gateway.await("the tunnel is gone", 30_000,
                () -> WebSocketTest.websockets(gateway).get("open").equals(0));
    }

    /** Queues what the client receives. */
    public static final class Endpoint implements Session.Listener.AutoDemanding {
        final BlockingQueue<String> events = new LinkedBlockingQueue<>();

        String next() throws InterruptedException {
            String event = events.poll(30, TimeUnit.SECONDS);
            if (event == null) {
                throw new AssertionError("nothing received in 30 s");
            }
            return event;
        }

        @Override
        public void onWebSocketText(String message) {
            events.add("text:" + message);
        }

        @Override
        public void onWebSocketBinary(ByteBuffer payload, Callback callback) {
            byte[] bytes = new byte[payload.remaining()];
            payload.get(bytes);
            events.add("binary:" + bytes.length + ":" + WebSocketTest.sum(bytes));
            callback.succeed();
        }

        @Override
        public void onWebSocketPong(ByteBuffer payload) {
            events.add("pong:" + StandardCharsets.UTF_8.decode(payload));
        }

        @Override
        public void onWebSocketClose(int statusCode, String reason) {
            events.add("close:" + statusCode + " " + reason);
        }

        @Override
        public void onWebSocketError(Throwable cause) {
            events.add("error:" + cause.getClass().getSimpleName());
        }
    }
}
