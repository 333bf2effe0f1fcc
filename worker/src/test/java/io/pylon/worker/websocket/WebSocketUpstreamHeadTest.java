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

    /**
     * The handshake gets a request identifier of the gateway's: the upstream's request carries it in place of the
     * client's, and the client's 101 carries it in place of the upstream's.
     */
    @Test
    void theHandshakeCarriesTheGatewaysRequestIdBothWays() throws Exception {
        CompletableFuture<String> seen = new CompletableFuture<>();
        String head = answerTo("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "X-Request-Id: upstream-own\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n", seen,
                "X-Request-Id: forged\r\n");
        String id = field(seen.get(), "X-Request-Id");
        assertThat(id).hasSize(36).isNotEqualTo("forged");
        assertThat(head).startsWith("HTTP/1.1 101").doesNotContain("upstream-own");
        assertThat(field(head, "X-Request-Id")).isEqualTo(id);
    }

    /** The gateway's own answer to a handshake it cannot forward names the request in its body as in its head. */
    @Test
    void theGatewaysOwnAnswerCarriesTheRequestIdInItsBody() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            closed = s.getLocalPort();
        }
        try (Gateway gateway = Gateway.start("worker-ws-down", """
                routes:
                  - {name: down, pathPrefix: /down, websocket: true, upstreams: [http://127.0.0.1:%d]}
                """.formatted(closed), Map.of());
             Socket socket = WebSocketTest.raw(gateway)) {
            socket.getOutputStream().write(WebSocketTest.upgrade("/down/ws"));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(answer).startsWith("HTTP/1.1 502");
            String id = field(answer.substring(0, answer.indexOf("\r\n\r\n")), "X-Request-Id");
            assertThat(answer.substring(answer.indexOf("\r\n\r\n") + 4))
                    .startsWith("{\"error\":\"bad_gateway\"").endsWith(",\"request_id\":\"" + id + "\"}");
        }
    }

    /** The value of the one field {@code name} in {@code head}; fails when there are more. */
    private static String field(String head, String name) {
        var values = head.lines().filter(l -> l.regionMatches(true, 0, name + ":", 0, name.length() + 1))
                .map(l -> l.substring(name.length() + 1).strip()).toList();
        assertThat(values).as(name + " in " + head).hasSize(1);
        return values.getFirst();
    }

    private static String answerTo(String upstreamHead) throws Exception {
        return answerTo(upstreamHead, new CompletableFuture<>(), "");
    }

    /**
     * The head of the Worker's answer to an upgrade whose upstream answers {@code upstreamHead}.
     *
     * @param seen  completed with the head of the request the upstream received
     * @param extra header lines the client adds to its upgrade
     */
    private static String answerTo(String upstreamHead, CompletableFuture<String> seen, String extra) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 10, InetAddress.getByName("127.0.0.1"))) {
            CompletableFuture.runAsync(() -> {
                try (Socket accepted = server.accept()) {
                    seen.complete(WebSocketTest.readHead(accepted.getInputStream()));
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
                byte[] upgrade = WebSocketTest.upgrade("/raw/ws");
                if (!extra.isEmpty()) { // before the blank line that ends the head
                    String text = new String(upgrade, StandardCharsets.ISO_8859_1);
                    upgrade = (text.substring(0, text.length() - 2) + extra + "\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1);
                }
                socket.getOutputStream().write(upgrade);
                return WebSocketTest.readHead(socket.getInputStream());
            }
        }
    }
}
