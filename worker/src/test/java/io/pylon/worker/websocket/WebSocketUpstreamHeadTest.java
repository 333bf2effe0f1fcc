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
        try (ServerSocket server = new ServerSocket(0, 10, InetAddress.getByName("127.0.0.1"))) {
            CompletableFuture.runAsync(() -> {
                try (Socket accepted = server.accept()) {
                    WebSocketTest.readHead(accepted.getInputStream());
                    accepted.getOutputStream().write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                            + "Connection: Upgrade\r\nX-A\rSet-Cookie: forged=1\r\n"
                            + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
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
                String head = WebSocketTest.readHead(socket.getInputStream());
                assertThat(head).startsWith("HTTP/1.1 502").doesNotContain("forged");
            }
        }
    }
}
