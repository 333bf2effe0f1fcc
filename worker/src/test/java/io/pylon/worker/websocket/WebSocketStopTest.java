package io.pylon.worker.websocket;

import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestCertificates;
import io.pylon.worker.testing.TestWebSocketUpstream;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
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
}
