package io.pylon.worker.websocket;

import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestCertificates;
import io.pylon.worker.testing.TestWebSocketUpstream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stopping Worker tells both ends of each tunnel it goes away (close 1001) instead of holding its stop for the
 * whole grace and then cutting them (1006): clients reconnect at once, through the Service, to a Worker that serves.
 * Plain tunnels (the selector's) and tunnels with a TLS end (two threads) alike.
 */
class WebSocketStopTest {
    @Test
    void stoppingSendsGoingAwayToBothEndsAndDoesNotWaitForTheGrace() throws Exception {
        TestWebSocketUpstream upstream = new TestWebSocketUpstream();
        Gateway gateway = Gateway.start("worker-ws-stop", """
                routes:
                  - name: ws
                    pathPrefix: /ws
                    upstreams: [%s]
                """.formatted(upstream.url()), Map.of("pylon.shutdown.grace", "20s"));
        try {
            WebSocketTest.Listener listener = new WebSocketTest.Listener();
            WebSocket ws = WebSocketTest.open(gateway, "/ws/echo", listener);
            String large = "y".repeat(200_000);
            ws.sendText("hello", true).get(30, TimeUnit.SECONDS);
            assertThat(listener.next()).isEqualTo("text:hello");
            ws.sendText(large, true).get(30, TimeUnit.SECONDS);
            assertThat(listener.next()).isEqualTo("text:" + large);
            stopTellsBothEndsTheyGoAway(gateway, listener, upstream);
        } finally {
            gateway.close();
            upstream.close();
        }
    }

    /** The stop, with a tunnel open: both ends get 1001, and the stop is not held for the grace (20 s). */
    private static void stopTellsBothEndsTheyGoAway(Gateway gateway, WebSocketTest.Listener listener,
                                                    TestWebSocketUpstream upstream) throws InterruptedException {
        long start = System.nanoTime();
        gateway.close();
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(listener.next()).isEqualTo("close:1001 Going Away");
        assertThat(upstream.closes.poll(10, TimeUnit.SECONDS)).isEqualTo("1001 Going Away");
        assertThat(took).as("the stop is not held for the 20 s grace").isLessThan(5_000);
    }

    @Test
    void aTunnelWithATlsEndIsToldTheSame() throws Exception {
        TestCertificates.Issued ca = TestCertificates.authority("Stop CA");
        TestCertificates.Issued leaf = TestCertificates.leaf("worker", ca);
        Path secret = Files.createTempDirectory("pylon-ws-stop-tls");
        Files.writeString(secret.resolve("tls.crt"), leaf.certificatePem());
        Files.writeString(secret.resolve("tls.key"), leaf.keyPem());
        TestWebSocketUpstream upstream = new TestWebSocketUpstream();
        Gateway gateway = Gateway.start("worker-wss-stop", """
                routes:
                  - name: ws
                    pathPrefix: /ws
                    upstreams: [%s]
                """.formatted(upstream.url()), Map.of("pylon.shutdown.grace", "20s",
                "pylon.worker.tls.certificate-file", secret.resolve("tls.crt").toString(),
                "pylon.worker.tls.key-file", secret.resolve("tls.key").toString()));
        try {
            WebSocketTest.Listener listener = new WebSocketTest.Listener();
            HttpClient client = HttpClient.newBuilder().sslContext(TestCertificates.trusting(ca)).build();
            WebSocket ws = client.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
                    .buildAsync(URI.create("wss://localhost:" + gateway.pod.port() + "/ws/echo"), listener)
                    .get(30, TimeUnit.SECONDS);
            String large = "z".repeat(200_000);
            ws.sendText(large, true).get(30, TimeUnit.SECONDS);
            assertThat(listener.next()).isEqualTo("text:" + large);
            stopTellsBothEndsTheyGoAway(gateway, listener, upstream);
        } finally {
            gateway.close();
            upstream.close();
            TestPods.deleteTree(secret);
        }
    }

    /**
     * A client stopped in the middle of a frame when the server stops: it is still told the tunnel goes away (what the
     * upstream sends ends a frame), the upstream is not (a close frame would land inside the client's frame), and the
     * tunnel is held for the grace, no longer: then both connections are closed. Plain and TLS tunnels alike.
     */
    @ParameterizedTest(name = "tls {0}")
    @ValueSource(booleans = {false, true})
    void aClientStoppedMidFrameIsToldAndCutAtTheGrace(boolean tls) throws Exception {
        TestCertificates.Issued ca = TestCertificates.authority("Mid-frame CA");
        TestCertificates.Issued leaf = TestCertificates.leafFor(ca, "localhost");
        Path secret = Files.createTempDirectory("pylon-ws-midframe");
        Files.writeString(secret.resolve("tls.crt"), leaf.certificatePem());
        Files.writeString(secret.resolve("tls.key"), leaf.keyPem());
        Map<String, String> settings = new java.util.HashMap<>(Map.of("pylon.shutdown.grace", "3s"));
        if (tls) {
            settings.put("pylon.worker.tls.certificate-file", secret.resolve("tls.crt").toString());
            settings.put("pylon.worker.tls.key-file", secret.resolve("tls.key").toString());
        }
        WebSocketRelayTest.RawUpstream upstream = new WebSocketRelayTest.RawUpstream();
        Gateway gateway = Gateway.start("worker-ws-midframe-" + tls, """
                routes:
                  - name: ws
                    pathPrefix: /ws
                    upstreams: [%s]
                """.formatted(upstream.url()), settings);
        Socket client = tls
                ? TestCertificates.trusting(ca).getSocketFactory().createSocket("localhost", gateway.pod.port())
                : WebSocketTest.raw(gateway);
        try (client) {
            client.setSoTimeout(20_000);
            WebSocketRelayTest.out(client, WebSocketTest.upgrade("/ws/echo"));
            InputStream in = client.getInputStream();
            assertThat(WebSocketTest.readHead(in)).startsWith("HTTP/1.1 101");
            // a masked text frame announcing 1,000 bytes, of which 10 are sent
            byte[] started = {(byte) 0x81, (byte) (0x80 | 126), 0x03, (byte) 0xE8, 1, 2, 3, 4, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};
            WebSocketRelayTest.out(client, started);
            Socket atUpstream = upstream.accepted.get(10, TimeUnit.SECONDS);
            InputStream upstreamIn = atUpstream.getInputStream();
            assertThat(upstreamIn.readNBytes(started.length)).isEqualTo(started);

            long start = System.nanoTime();
            Thread stop = Thread.ofPlatform().start(gateway::close);
            byte[] close = in.readNBytes(14);
            assertThat(close[0] & 0xFF).as("a close frame").isEqualTo(0x88);
            assertThat(((close[2] & 0xFF) << 8) | (close[3] & 0xFF)).isEqualTo(1001);
            assertThat(new String(close, 4, 10, StandardCharsets.US_ASCII)).isEqualTo("Going Away");
            stop.join(20_000);
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            assertThat(stop.isAlive()).as("the stop ended").isFalse();
            assertThat(took).as("held for the 3 s grace, no longer").isBetween(2_500L, 8_000L);
            assertThat(readsToTheEnd(in)).as("the client's connection is closed").isEqualTo(0);
            assertThat(readsToTheEnd(upstreamIn)).as("the upstream's is closed, with nothing more sent").isEqualTo(0);
        } finally {
            gateway.close();
            upstream.close();
            TestPods.deleteTree(secret);
        }
    }

    /** How many bytes come before the connection's end (or reset); -1 when it does not end within the timeout. */
    private static int readsToTheEnd(InputStream in) {
        int bytes = 0;
        try {
            while (in.read() >= 0) {
                bytes++;
            }
            return bytes;
        } catch (java.net.SocketTimeoutException e) {
            return -1;
        } catch (java.io.IOException e) {
            return bytes;
        }
    }
}
