package io.pylon.worker.websocket;

import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestWebSocketUpstream;
import org.junit.jupiter.api.Test;

import java.net.http.WebSocket;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stopping Worker tells both ends of each tunnel it goes away (close 1001) instead of holding its stop for the
 * whole grace and then cutting them (1006): clients reconnect at once, through the Service, to a Worker that serves.
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

            long start = System.nanoTime();
            gateway.close();
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            assertThat(listener.next()).isEqualTo("close:1001 Going Away");
            assertThat(upstream.closes.poll(10, TimeUnit.SECONDS)).isEqualTo("1001 Going Away");
            assertThat(took).as("the stop is not held for the 20 s grace").isLessThan(5_000);
        } finally {
            gateway.close();
            upstream.close();
        }
    }
}
