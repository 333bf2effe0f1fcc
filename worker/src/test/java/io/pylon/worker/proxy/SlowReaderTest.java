package io.pylon.worker.proxy;

import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that asks the gateway for a large answer and reads none of it held the connection, its thread and an
 * upstream connection for as long as it liked. The send timeout (nginx's send_timeout) closes it once a write has
 * waited that long, and the upstream connection goes back (dropped: the answer was cut).
 */
class SlowReaderTest {
    static TestUpstream upstream;
    static Gateway gateway;

    @BeforeAll
    static void start() {
        upstream = TestUpstream.start(exchange -> {
            long length = 512L << 20;
            exchange.sendResponseHeaders(200, length);
            byte[] piece = new byte[64 * 1024];
            try (OutputStream out = exchange.getResponseBody()) {
                for (long sent = 0; sent < length; sent += piece.length) {
                    out.write(piece);
                }
            } catch (IOException e) {
                // the gateway dropped the connection
            }
        });
        gateway = Gateway.start("worker-slow-reader", """
                routes:
                  - {name: big, pathPrefix: /big, upstreams: [%s]}
                """.formatted(upstream.url()), Map.of("pylon.server.send-timeout", "1s"));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void aClientThatReadsNothingIsClosedAfterTheSendTimeoutAndFreesItsUpstreamConnection() throws Exception {
        try (Socket client = new Socket()) {
            client.setReceiveBufferSize(16 * 1024);
            client.connect(new InetSocketAddress("127.0.0.1", gateway.pod.port()));
            client.getOutputStream().write("GET /big/file HTTP/1.1\r\nHost: pod\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            long t0 = System.nanoTime();
            Gateway.await("the upstream connection leased", 10_000, () -> gateway.leased() == 1);
            Gateway.await("the upstream connection returned", 15_000, () -> gateway.leased() == 0);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(ms).isGreaterThan(900L);
            // what the client can still read is what the buffers held, then the end
            client.setSoTimeout(10_000);
            InputStream in = client.getInputStream();
            byte[] buffer = new byte[1 << 16];
            long read = 0;
            try {
                int n;
                while ((n = in.read(buffer)) > 0) {
                    read += n;
                }
            } catch (java.net.SocketException reset) {
                // closed with unread bytes on the pod's side: a reset
            }
            assertThat(read).isLessThan(512L << 20);
        }
        assertThat(io.pylon.core.testing.TestPods.get(gateway.pod, "/platform/management/health").body())
                .contains("\"closedSlowReader\":1");
    }
}
