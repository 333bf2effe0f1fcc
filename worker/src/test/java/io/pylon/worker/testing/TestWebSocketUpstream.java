package io.pylon.worker.testing;

import io.helidon.common.buffers.BufferData;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.websocket.WsRouting;
import io.helidon.websocket.WsListener;
import io.helidon.websocket.WsSession;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real WebSocket server (Helidon's websocket module) behind the gateway: {@code /ws/echo} echoes text and binary
 * messages, answers pings, and closes with code 4002 when told "close-me"; {@code /refuse} is plain HTTP answering
 * 403 (so an upgrade there is refused). Every close the server sees is queued as "code reason".
 */
public final class TestWebSocketUpstream implements AutoCloseable {
    public final BlockingQueue<String> closes = new LinkedBlockingQueue<>();
    public final AtomicInteger open = new AtomicInteger();
    private final WebServer server;

    public TestWebSocketUpstream() {
        this(null);
    }

    /** @param tls null: plain; else the server speaks TLS with this context (wss upstreams) */
    public TestWebSocketUpstream(javax.net.ssl.SSLContext tls) {
        var builder = WebServer.builder();
        if (tls != null) {
            builder.tls(io.helidon.common.tls.Tls.builder().sslContext(tls).build());
        }
        server = builder
                .host("127.0.0.1")
                .port(0)
                .shutdownHook(false)
                .routing(r -> r.get("/refuse", (req, res) -> res.status(Status.FORBIDDEN_403)
                        .header("Content-Type", "application/json").send("{\"refused\":true}")))
                .addRouting(WsRouting.builder().endpoint("/ws/echo", Echo::new))
                .build()
                .start();
    }

    /** One per connection: the text of a message sent in fragments is gathered here. */
    private final class Echo implements WsListener {
        private final StringBuilder text = new StringBuilder();

        @Override
        public void onOpen(WsSession session) {
            open.incrementAndGet();
        }

        @Override
        public void onMessage(WsSession session, String part, boolean last) {
            text.append(part);
            if (!last) {
                return;
            }
            String message = text.toString();
            text.setLength(0);
            if (message.equals("close-me")) {
                session.close(4002, "asked to");
            } else {
                session.send(message, true);
            }
        }

        @Override
        public void onMessage(WsSession session, BufferData buffer, boolean last) {
            session.send(buffer, last);
        }

        @Override
        public void onPing(WsSession session, BufferData buffer) {
            session.pong(buffer);
        }

        @Override
        public void onClose(WsSession session, int status, String reason) {
            open.decrementAndGet();
            closes.add(status + " " + reason);
        }

        @Override
        public void onError(WsSession session, Throwable t) {
            open.decrementAndGet();
            closes.add("error " + t.getClass().getSimpleName());
        }
    }

    public String url() {
        return "http://127.0.0.1:" + server.port();
    }

    public int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.stop();
    }
}
