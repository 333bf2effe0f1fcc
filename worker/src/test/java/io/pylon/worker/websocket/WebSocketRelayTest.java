package io.pylon.worker.websocket;

import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestWebSocketUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.pylon.worker.websocket.WebSocketTest.raw;
import static io.pylon.worker.websocket.WebSocketTest.readHead;
import static io.pylon.worker.websocket.WebSocketTest.upgrade;
import static io.pylon.worker.websocket.WebSocketTest.websockets;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Plain tunnels relayed by the Worker's selector, seen from raw sockets at both ends: an idle tunnel that then carries
 * more than the sockets buffer both ways at once (the relay's own buffers and its back-pressure), the end of either
 * side passed on, and a client's half-close.
 */
class WebSocketRelayTest {
    static TestWebSocketUpstream upstream;
    static RawUpstream ending;
    static RawUpstream halfClosed;
    static Gateway gateway;

    @BeforeAll
    static void start() throws IOException {
        upstream = new TestWebSocketUpstream();
        ending = new RawUpstream();
        halfClosed = new RawUpstream();
        gateway = Gateway.start("worker-ws-relay", """
                routes:
                  - name: ws
                    pathPrefix: /ws
                    upstreams: [%s]
                  - name: ending
                    pathPrefix: /ending
                    upstreams: [%s]
                  - name: half-closed
                    pathPrefix: /half-closed
                    upstreams: [%s]
                """.formatted(upstream.url(), ending.url(), halfClosed.url()), Map.of());
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        upstream.close();
        ending.close();
        halfClosed.close();
    }

    @Test
    void anIdleTunnelCarriesMoreThanTheSocketsBufferBothWaysAtOnce() throws Exception {
        try (Socket client = new Socket()) {
            client.setReceiveBufferSize(16 * 1024); // no autotuning: the relay must hold back the echo
            client.connect(new InetSocketAddress(gateway.pod.identity().podIp(), gateway.pod.port()), 10_000);
            client.setSoTimeout(30_000);
            client.getOutputStream().write(upgrade("/ws/echo"));
            assertThat(readHead(client.getInputStream())).startsWith("HTTP/1.1 101");
            Gateway.await("the tunnel is relayed by the selector", 30_000,
                    () -> websockets(gateway).get("relayedBySelector").equals(1L));
            Thread.sleep(1_000); // idle: the relay holds no buffer for it

            // 48 binary messages of 500,000 bytes, written while nothing is read for 2 s: the upstream's echo fills
            // the client's socket, the Worker keeps what the client does not take and stops reading the upstream,
            // which stops reading its side, and so on back to the client's writes
            int messages = 48;
            int size = 500_000;
            CompletableFuture<Void> written = CompletableFuture.runAsync(() -> {
                try {
                    OutputStream out = client.getOutputStream();
                    for (int m = 0; m < messages; m++) {
                        out.write(maskedBinaryFrame(payload(m, size)));
                    }
                    out.flush();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            Thread.sleep(2_000);

            DataInputStream in = new DataInputStream(client.getInputStream());
            for (int m = 0; m < messages; m++) {
                byte[] echoed = readFrame(in);
                assertThat(echoed.length).isEqualTo(size);
                assertThat(Arrays.equals(echoed, payload(m, size))).as("message %d", m).isTrue();
            }
            written.get(60, TimeUnit.SECONDS);

            out(client, maskedFrame(0x1, "still there".getBytes(StandardCharsets.UTF_8)));
            assertThat(new String(readFrame(in), StandardCharsets.UTF_8)).isEqualTo("still there");
        }
        Gateway.await("the tunnel is gone", 30_000, () -> websockets(gateway).get("open").equals(0));
    }

    @Test
    void theUpstreamsEndClosesTheClientsConnection() throws Exception {
        try (Socket client = raw(gateway)) {
            client.getOutputStream().write(upgrade("/ending/ws"));
            assertThat(readHead(client.getInputStream())).startsWith("HTTP/1.1 101");
            Socket accepted = ending.accepted.get(30, TimeUnit.SECONDS);
            accepted.getOutputStream().write("last words".getBytes(StandardCharsets.US_ASCII));
            accepted.close();
            assertThat(readToEnd(client.getInputStream())).isEqualTo("last words");
            Gateway.await("no tunnel left", 30_000, () -> websockets(gateway).get("open").equals(0));
        }
    }

    @Test
    void aClientsHalfCloseReachesTheUpstreamWhichMayStillAnswer() throws Exception {
        try (Socket client = raw(gateway)) {
            client.getOutputStream().write(upgrade("/half-closed/ws"));
            assertThat(readHead(client.getInputStream())).startsWith("HTTP/1.1 101");
            Socket accepted = halfClosed.accepted.get(30, TimeUnit.SECONDS);
            client.getOutputStream().write("closing".getBytes(StandardCharsets.US_ASCII));
            client.shutdownOutput();
            // the upstream reads what the client sent, then the end of it
            assertThat(readToEnd(accepted.getInputStream())).isEqualTo("closing");
            accepted.getOutputStream().write("closed too".getBytes(StandardCharsets.US_ASCII));
            accepted.close();
            assertThat(readToEnd(client.getInputStream())).isEqualTo("closed too");
            Gateway.await("no tunnel left", 30_000, () -> websockets(gateway).get("open").equals(0));
        }
    }

    /** An upstream on a raw socket: answers the handshake with 101 and hands the connection to the test. */
    static final class RawUpstream implements AutoCloseable {
        final ServerSocket server = new ServerSocket(0, 10, InetAddress.getByName("127.0.0.1"));
        final CompletableFuture<Socket> accepted = CompletableFuture.supplyAsync(() -> {
            try {
                Socket socket = server.accept();
                socket.setSoTimeout(60_000);
                readHead(socket.getInputStream());
                socket.getOutputStream().write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                        + "Connection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                return socket;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });

        RawUpstream() throws IOException {
        }

        String url() {
            return "http://127.0.0.1:" + server.getLocalPort();
        }

        @Override
        public void close() throws Exception {
            server.close();
            if (accepted.isDone() && !accepted.isCompletedExceptionally()) {
                accepted.get().close();
            }
        }
    }

    static byte[] payload(int message, int size) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 31 + message);
        }
        return bytes;
    }

    static void out(Socket socket, byte[] bytes) throws IOException {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
    }

    static byte[] maskedBinaryFrame(byte[] payload) {
        return maskedFrame(0x2, payload);
    }

    /** One final frame as a client sends it (masked, RFC 6455 5.3). */
    static byte[] maskedFrame(int opcode, byte[] payload) {
        ByteArrayOutputStream frame = new ByteArrayOutputStream(payload.length + 14);
        frame.write(0x80 | opcode);
        if (payload.length < 126) {
            frame.write(0x80 | payload.length);
        } else if (payload.length < 65_536) {
            frame.write(0x80 | 126);
            frame.write(payload.length >>> 8);
            frame.write(payload.length);
        } else {
            frame.write(0x80 | 127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                frame.write((int) ((long) payload.length >>> shift));
            }
        }
        byte[] mask = {0x12, 0x34, 0x56, 0x78};
        frame.writeBytes(mask);
        for (int i = 0; i < payload.length; i++) {
            frame.write(payload[i] ^ mask[i % 4]);
        }
        return frame.toByteArray();
    }

    /** The payload of one unmasked frame, as a server sends it; messages here are one frame each. */
    static byte[] readFrame(DataInputStream in) throws IOException {
        in.readUnsignedByte(); // FIN and opcode
        int length = in.readUnsignedByte() & 0x7f;
        long size = length == 126 ? in.readUnsignedShort() : length == 127 ? in.readLong() : length;
        byte[] payload = new byte[Math.toIntExact(size)];
        in.readFully(payload);
        return payload;
    }

    static String readToEnd(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    }
}
