package io.pylon.worker.keys;

import com.sun.net.httpserver.HttpServer;
import io.pylon.core.testing.EndlessAnswer;
import io.pylon.worker.config.ManagerContact;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Manager that sends the head of its key-poll answer and part of the body, then stalls with the connection open
 * (a frozen pod, a dropped network path): the poll ends at its bound and the next one is made, instead of the key
 * updates (and so every revocation) stopping for good. A Manager that sends a key set without end is cut at the bound
 * of one: the Worker holds at most 64 MiB of it and keeps the key set in force.
 */
class KeyFollowerStallTest {
    @Test
    void aPollWhoseAnswerStallsMidBodyEndsAtItsBound() throws Exception {
        HttpServer manager = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        manager.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        manager.createContext("/apiops/gateway/keys", exchange -> {
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write("{\"version\": 7, \"keys\": [".getBytes(StandardCharsets.UTF_8));
                out.flush();
                Thread.sleep(60_000);
            } catch (Exception e) {
                // the Worker gave up on it
            }
        });
        manager.start();
        URI uri = URI.create("http://127.0.0.1:" + manager.getAddress().getPort());
        try (KeyFollower follower = new KeyFollower(uri, "0123456789abcdef01234567", new KeySet(),
                Duration.ofMillis(200), Duration.ofMillis(800), new ManagerContact(uri))) {
            long t0 = System.nanoTime();
            assertThat(follower.pollOnce(Duration.ofMillis(200))).isFalse();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isBetween(900L, 5_000L);
            assertThat(follower.describe().get("keyPollError")).asString().contains("cannot be reached");
        } finally {
            manager.stop(0);
        }
    }

    @Test
    void aKeySetSentWithoutEndIsCutAtItsBound() throws Exception {
        HttpServer manager = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        manager.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        manager.createContext("/apiops/gateway/keys", exchange -> EndlessAnswer.send(exchange,
                "{\"version\": 7, \"keys\": [".getBytes(StandardCharsets.UTF_8), () -> { }));
        manager.start();
        URI uri = URI.create("http://127.0.0.1:" + manager.getAddress().getPort());
        try (KeyFollower follower = new KeyFollower(uri, "0123456789abcdef01234567", new KeySet(),
                Duration.ofMillis(200), Duration.ofSeconds(30), new ManagerContact(uri))) {
            long t0 = System.nanoTime();
            assertThat(follower.pollOnce(Duration.ofMillis(200))).isFalse();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(10_000L);
            assertThat(follower.describe().get("keyPollError")).isEqualTo("The Manager's key set is larger than 64 MiB");
        } finally {
            manager.stop(0);
        }
    }
}
