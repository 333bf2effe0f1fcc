package io.pylon.core.server;

import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;

/** The listener watch on a real server: a listener that accepts but never answers turns liveness DOWN. */
class PodListenerTest {
    private static final String BIND = "127.0.0.1";

    @Test
    void aListenerThatAcceptsButDoesNotAnswerIsNotLive() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        IntFunction<WebServer> servers = port -> WebServer.builder().host(BIND).port(port).shutdownHook(false)
                .routing(HttpRouting.builder()
                        .get("/answers", (req, res) -> res.send("ok"))
                        .get("/hangs", (req, res) -> {
                            release.await(); // a hung connection path: the kernel still completes handshakes
                            res.send("late");
                        }))
                .build();
        WebServer server = servers.apply(0).start();
        try {
            PodListener live = new PodListener(server, servers, BIND, "/answers", javax.net.SocketFactory.getDefault());
            live.check();
            assertThat(live.isAccepting()).isTrue();

            PodListener hung = new PodListener(server, servers, BIND, "/hangs", javax.net.SocketFactory.getDefault());
            hung.check();
            assertThat(hung.isAccepting()).as("one unanswered probe is not enough").isTrue();
            long t0 = System.nanoTime();
            while (hung.isAccepting() && System.nanoTime() - t0 < PodListener.SILENCE_BEFORE_DOWN.toNanos() * 3) {
                hung.check();
            }
            assertThat(hung.isAccepting()).as("liveness of a listener that does not answer").isFalse();
            assertThat(hung.restarts()).as("a listener that accepts is not restarted").isZero();
            release.countDown();
            hung.check();
            assertThat(hung.isAccepting()).as("live again once it answers").isTrue();
        } finally {
            release.countDown();
            server.stop();
        }
    }

    @Test
    void theWatchsOwnRequestsAreNotCountedAsFinished() throws Exception {
        PodTraffic traffic = new PodTraffic(new Http2Connections());
        HttpRouting.Builder routing = HttpRouting.builder();
        traffic.install(routing);
        routing.get("/answers", (req, res) -> res.send("ok"));
        IntFunction<WebServer> servers = port -> WebServer.builder().host(BIND).port(port).shutdownHook(false)
                .routing(routing).build();
        WebServer server = servers.apply(0).start();
        try {
            PodListener listener = new PodListener(server, servers, BIND, "/answers", javax.net.SocketFactory.getDefault());
            listener.check();
            listener.check();
            assertThat(listener.isAccepting()).isTrue();
            assertThat(traffic.finished()).isZero();
        } finally {
            server.stop();
        }
    }
}
