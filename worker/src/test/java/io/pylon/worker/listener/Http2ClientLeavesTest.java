package io.pylon.worker.listener;

import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.LogCapture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An HTTP/2 client that leaves while its request waits on the upstream (it resets the stream, or closes the
 * connection): the Worker closes the upstream connection at once, as nginx does, instead of holding it until the
 * upstream answers or the response timeout (30 s here) ends it; the same goes while a slow answer is being relayed.
 * Nothing is logged (the upstream did not fail), and the client's connection serves its other streams.
 */
class Http2ClientLeavesTest {
    private static final int CANCEL = 0x8;
    private static ServerSocket upstream;
    private static Gateway gateway;
    // for each upstream connection: the request line it got, then "closed" when the gateway closed it
    private static final BlockingQueue<String> EVENTS = new LinkedBlockingQueue<>();

    @BeforeAll
    static void start() throws IOException {
        upstream = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!upstream.isClosed()) {
                try {
                    Socket socket = upstream.accept();
                    Thread.ofVirtual().start(() -> serve(socket));
                } catch (IOException e) {
                    return;
                }
            }
        });
        gateway = Gateway.start("worker-h2-leaves", """
                routes:
                  - {name: api, pathPrefix: /api, upstreams: ["http://127.0.0.1:%d"]}
                """.formatted(upstream.getLocalPort()), Map.of());
    }

    @AfterAll
    static void stop() throws IOException {
        gateway.close();
        upstream.close();
    }

    @BeforeEach
    void clear() {
        EVENTS.clear();
    }

    /**
     * Reads one request head; {@code /api/quick} is answered at once, {@code /api/part} gets a head and part of a
     * chunked body, anything else nothing. Then the connection waits for the gateway to close it.
     */
    private static void serve(Socket socket) {
        try (socket) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            while (true) {
                String head = readHead(in);
                if (head == null) {
                    break;
                }
                String line = head.substring(0, head.indexOf('\r'));
                EVENTS.add(line);
                if (line.startsWith("GET /api/quick ")) {
                    out.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nquick".getBytes(StandardCharsets.US_ASCII));
                } else if (line.startsWith("GET /api/part ")) {
                    out.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\npart1\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                }
                out.flush();
            }
        } catch (IOException e) {
            // a reset counts as the close
        }
        EVENTS.add("closed");
    }

    private static long clientAborted() {
        return ((Number) ((Map<?, ?>) gateway.connections().get("proxy")).get("clientAborted")).longValue();
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.append((char) b);
        }
        return head.toString();
    }

    @Test
    void aStreamResetWhileTheUpstreamIsSilentClosesTheUpstreamConnection() throws Exception {
        assertAResetClosesTheUpstreamConnection("/api/silent", 0);
    }

    @Test
    void aClosedConnectionClosesTheUpstreamConnectionsOfItsStreams() throws Exception {
        try (LogCapture warnings = LogCapture.open(Level.WARNING)) {
            try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
                client.headers(1, "GET", "/api/silent-a", true);
                client.headers(3, "GET", "/api/silent-b", true);
                assertThat(EVENTS.poll(10, TimeUnit.SECONDS)).startsWith("GET /api/silent-");
                assertThat(EVENTS.poll(10, TimeUnit.SECONDS)).startsWith("GET /api/silent-");
            }
            assertThat(EVENTS.poll(3, TimeUnit.SECONDS)).as("an upstream connection closed").isEqualTo("closed");
            assertThat(EVENTS.poll(3, TimeUnit.SECONDS)).as("the other one").isEqualTo("closed");
            Gateway.await("the pool holds no leased connection", 5_000, () -> gateway.leased() == 0);
            assertThat(warnings.lines()).isEmpty();
        }
    }

    /**
     * A reset read together with its request's headers is seen (by the listener's frame scan) before Helidon starts
     * the request: the request still departs as it starts, and never reaches the upstream.
     */
    @Test
    void aStreamResetInTheSameWriteAsItsHeadersNeverReachesTheUpstream() throws Exception {
        try (RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            for (int stream = 1; stream <= 19; stream += 2) {
                client.headersAndReset(stream, "GET", "/api/silent-" + stream, CANCEL);
            }
            client.headers(21, "GET", "/api/quick", true);
            assertThat(client.answer(21)).isEqualTo("quick");
            Thread.sleep(500); // time for any of the reset requests to reach the upstream
        }
        assertThat(EVENTS.stream().filter(e -> e.startsWith("GET ")).toList()).containsExactly("GET /api/quick HTTP/1.1");
    }

    @Test
    void aStreamResetWhileASlowAnswerIsRelayedClosesTheUpstreamConnection() throws Exception {
        // the head and the first chunk are relayed in the 300 ms before the reset; the rest never comes
        assertAResetClosesTheUpstreamConnection("/api/part", 300);
    }

    private static void assertAResetClosesTheUpstreamConnection(String path, long resetAfterMillis) throws Exception {
        try (LogCapture warnings = LogCapture.open(Level.WARNING);
             RawHttp2 client = RawHttp2.connect(gateway.pod.port())) {
            long aborted = clientAborted();
            client.headers(1, "GET", path, true);
            assertThat(EVENTS.poll(10, TimeUnit.SECONDS)).isEqualTo("GET " + path + " HTTP/1.1");
            Thread.sleep(resetAfterMillis);
            client.reset(1, CANCEL);
            assertThat(EVENTS.poll(3, TimeUnit.SECONDS)).as("the upstream connection closed").isEqualTo("closed");
            client.headers(3, "GET", "/api/quick", true);
            assertThat(client.answer(3)).isEqualTo("quick");
            assertThat(clientAborted()).as("counted as the client's leaving").isEqualTo(aborted + 1);
            assertThat(warnings.lines()).isEmpty();
        }
        Gateway.await("the pool holds no leased connection", 5_000, () -> gateway.leased() == 0);
    }
}
