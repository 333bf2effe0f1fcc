package io.pylon.integration.step;

import io.pylon.integration.egress.EgressGuard;
import io.pylon.integration.egress.GuardedDnsResolver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A server a flow calls that sends an endless response head: the step fails within a moment, naming the bound, and
 * the connection is dropped; the server had sent little more than the bound. A large head within it is read whole.
 */
class HttpCallerBoundsTest {
    private ServerSocket server;
    private ScheduledExecutorService deadlines;
    private HttpCaller caller;
    private final CompletableFuture<Long> sentWhenDropped = new CompletableFuture<>();

    @BeforeEach
    void start() throws IOException {
        server = new ServerSocket(0, 10, InetAddress.getByName("127.0.0.1"));
        deadlines = Executors.newSingleThreadScheduledExecutor();
        caller = new HttpCaller(new GuardedDnsResolver(EgressGuard.of(List.of("127.0.0.1"))), deadlines, 4);
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    Thread.ofVirtual().start(() -> serve(socket));
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    @AfterEach
    void stop() throws IOException {
        caller.close();
        deadlines.shutdownNow();
        server.close();
    }

    @Test
    void anEndlessHeaderLineFailsTheStepInsteadOfFillingTheHeap() throws Exception {
        long start = System.nanoTime();
        assertThatThrownBy(() -> caller.call("GET", url("/endless"), Map.of(), null, Duration.ofSeconds(30), 1024))
                .isInstanceOf(StepFailure.class).hasMessageContaining("Maximum line length limit exceeded");

        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);
        assertThat(sentWhenDropped.get(10, TimeUnit.SECONDS)).isBetween(16L * 1024, 16L * 1024 * 1024);
    }

    @Test
    void endlessHeaderFieldsFailTheStep() {
        assertThatThrownBy(() -> caller.call("GET", url("/fields"), Map.of(), null, Duration.ofSeconds(30), 1024))
                .isInstanceOf(StepFailure.class).hasMessageContaining("Maximum header count exceeded");
    }

    @Test
    void aLargeHeadWithinTheBoundsIsReadWhole() {
        HttpReply reply = caller.call("GET", url("/large"), Map.of(), null, Duration.ofSeconds(30), 1024);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.headers().get("x-large")).hasSize(12 * 1024);
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.getLocalPort() + path;
    }

    private void serve(Socket socket) {
        long sent = 0;
        try (socket) {
            InputStream in = socket.getInputStream();
            StringBuilder head = new StringBuilder();
            while (!head.toString().endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    return;
                }
                head.append((char) b);
            }
            String path = head.toString().split(" ")[1];
            OutputStream out = socket.getOutputStream();
            if (path.equals("/large")) {
                out.write(("HTTP/1.1 200 OK\r\nX-Large: " + "b".repeat(12 * 1024) + "\r\nContent-Length: 2\r\n"
                        + "Connection: close\r\n\r\nok").getBytes(StandardCharsets.ISO_8859_1));
                return;
            }
            byte[] again = (path.equals("/endless") ? "a".repeat(8192) : "X-Field: 1\r\n".repeat(500))
                    .getBytes(StandardCharsets.ISO_8859_1);
            out.write((path.equals("/endless") ? "HTTP/1.1 200 OK\r\nX-Endless: " : "HTTP/1.1 200 OK\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                out.write(again);
                sent += again.length;
            }
        } catch (IOException e) {
            sentWhenDropped.complete(sent);
        }
    }
}
