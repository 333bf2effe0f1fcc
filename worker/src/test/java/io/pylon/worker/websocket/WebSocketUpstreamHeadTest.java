package io.pylon.worker.websocket;

import io.pylon.worker.testing.Gateway;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The upstream's answer to a WebSocket handshake is written to the client field by field, as it came: one with a bare
 * CR in a field name (a forged {@code Set-Cookie} behind it; HttpCore's parser keeps a name's bytes, where it turns a
 * value's control characters into spaces) is answered 502, and nothing of it reaches the client.
 */
class WebSocketUpstreamHeadTest {
    @Test
    void aSwitchWithAControlCharacterInAFieldIsA502() throws Exception {
        String head = answerTo("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "X-A\rSet-Cookie: forged=1\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n");
        assertThat(head).startsWith("HTTP/1.1 502").doesNotContain("forged");
    }

    /** A reason phrase with a bare CR would reach the client as a line of its own: the standard phrase goes instead. */
    @Test
    void aRefusalWithAControlCharacterInItsReasonPhraseGetsTheStandardOne() throws Exception {
        String head = answerTo("HTTP/1.1 403 No\rSet-Cookie: forged=1\r\nContent-Length: 0\r\n\r\n");
        assertThat(head).startsWith("HTTP/1.1 403 Forbidden\r\n").doesNotContain("forged");
    }

    /** The head of the Worker's answer to an upgrade whose upstream answers {@code upstreamHead}. */
    private static String answerTo(String upstreamHead) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 10, InetAddress.getByName("127.0.0.1"))) {
            CompletableFuture.runAsync(() -> {
                try (Socket accepted = server.accept()) {
                    WebSocketTest.readHead(accepted.getInputStream());
                    accepted.getOutputStream().write(upstreamHead.getBytes(StandardCharsets.ISO_8859_1));
                    accepted.getInputStream().read();
                } catch (IOException e) {
                    // the Worker went away
                }
            });
            try (Gateway gateway = Gateway.start("worker-ws-head", """
                    routes:
                      - name: raw
                        pathPrefix: /raw
                        websocket: true
                        upstreams: [http://127.0.0.1:%d]
                    """.formatted(server.getLocalPort()), Map.of());
                 Socket socket = WebSocketTest.raw(gateway)) {
                socket.getOutputStream().write(WebSocketTest.upgrade("/raw/ws"));
                return WebSocketTest.readHead(socket.getInputStream());
            }
        }
    }
}
