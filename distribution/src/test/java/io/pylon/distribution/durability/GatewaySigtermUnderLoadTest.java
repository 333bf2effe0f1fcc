package io.pylon.distribution.durability;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SIGTERM on a Worker process ({@code pylon run worker}) while it proxies: 16 kept-alive clients fetch a 16 KiB + 1
 * body in a loop (each reconnecting when an answer says {@code Connection: close}, as wrk does) and four requests wait
 * on an upstream that answers after 3 s. Every request sent on an open connection is answered whole with 200 (none
 * cut, none failed by an upstream pool closed under it), the slow ones too, only connects after the listener closed
 * are refused, the process exits within the grace, and its last line counts every answer the clients read.
 */
@EnabledOnOs(OS.LINUX)
class GatewaySigtermUnderLoadTest {
    private static final String ADDRESS = "127.0.14.3";
    private static final int CLIENTS = 16;
    private static final int SLOW = 4;
    private static final int BODY = 16 * 1024 + 1;

    private HttpServer upstream;
    private WorkerProcess worker;

    @AfterEach
    void stop() {
        if (worker != null) {
            worker.close();
        }
        if (upstream != null) {
            upstream.stop(0);
        }
    }

    @Test
    void inFlightAndKeptAliveRequestsAreAnsweredWholeAndNoneIsCut(@TempDir Path dir) throws Exception {
        AtomicInteger slowStarted = new AtomicInteger();
        byte[] body = new byte[BODY];
        upstream = HttpServer.create(new InetSocketAddress(ADDRESS, 0), 64);
        upstream.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        upstream.createContext("/bytes", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        upstream.createContext("/slow", exchange -> {
            exchange.getRequestBody().readAllBytes();
            slowStarted.incrementAndGet();
            sleep(3000);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        upstream.start();
        Path routes = dir.resolve("routes.yaml");
        Files.writeString(routes, "routes:\n  - {name: api, pathPrefix: /, upstreams: [http://" + ADDRESS + ":"
                + upstream.getAddress().getPort() + "]}\n");
        worker = WorkerProcess.start(dir, ADDRESS, routes, java.util.Map.of());
        Path log = worker.out;
        int port = worker.port;

        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong answered = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        AtomicLong sigtermAt = new AtomicLong(Long.MAX_VALUE);
        ConcurrentLinkedQueue<String> failed = new ConcurrentLinkedQueue<>();
        List<Thread> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            clients.add(Thread.ofPlatform().start(() -> {
                Socket socket = null;
                while (running.get()) {
                    try {
                        if (socket == null) {
                            socket = new Socket(ADDRESS, port);
                            socket.setSoTimeout(20_000);
                        }
                    } catch (ConnectException e) {
                        refused.incrementAndGet(); // after the listener closed: expected
                        sleep(5);
                        continue;
                    } catch (IOException e) {
                        failed.add("connect: " + e);
                        continue;
                    }
                    long sent = System.nanoTime();
                    try {
                        boolean close = exchange(socket, "/bytes", failed);
                        answered.incrementAndGet();
                        if (close) {
                            socket.close();
                            socket = null;
                        }
                    } catch (IOException e) {
                        failed.add(TimeUnit.NANOSECONDS.toMillis(sent - sigtermAt.get()) + " ms after SIGTERM: " + e);
                        closeQuietly(socket);
                        socket = null;
                    }
                }
                closeQuietly(socket);
            }));
        }
        long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (answered.get() < 20L * CLIENTS && System.nanoTime() < waitUntil) {
            Thread.sleep(100);
        }
        assertThat(answered.get()).as("answers before SIGTERM; log:\n" + Files.readString(log)).isPositive();

        ConcurrentLinkedQueue<String> slowOutcomes = new ConcurrentLinkedQueue<>();
        List<Thread> slow = new ArrayList<>();
        for (int i = 0; i < SLOW; i++) {
            slow.add(Thread.ofPlatform().start(() -> {
                try (Socket socket = new Socket(ADDRESS, port)) {
                    socket.setSoTimeout(20_000);
                    exchange(socket, "/slow", failed);
                    slowOutcomes.add("answered");
                } catch (IOException e) {
                    slowOutcomes.add("failed: " + e);
                }
            }));
        }
        waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (slowStarted.get() < SLOW && System.nanoTime() < waitUntil) {
            Thread.sleep(10);
        }
        assertThat(slowStarted.get()).as("slow requests at the upstream").isEqualTo(SLOW);
        sigtermAt.set(System.nanoTime());
        assertThat(worker.terminate(30)).as("the Worker exits within its grace after SIGTERM").isTrue();
        running.set(false);
        for (Thread thread : slow) {
            thread.join();
        }
        for (Thread client : clients) {
            client.join();
        }

        String output = Files.readString(log);
        assertThat(failed).as("requests failed or cut; Worker log:\n" + output).isEmpty();
        assertThat(slowOutcomes).as("the requests in flight at SIGTERM").containsOnly("answered").hasSize(SLOW);
        assertThat(refused.get()).as("connects refused after the listener closed").isPositive();
        String[] lines = output.strip().split("\n");
        String last = lines[lines.length - 1];
        assertThat(last).contains("stopped after finishing");
        long finished = Long.parseLong(last.replaceAll(".*finishing (\\d+) requests.*", "$1"));
        assertThat(finished).as("requests the pod finished, against answers read").isEqualTo(answered.get() + SLOW);
        assertThat(output).as("the Worker's log").doesNotContain("SEVERE").doesNotContain("Exception");
    }

    /**
     * Sends a GET and reads its answer whole; a status other than 200 or a short body is recorded in {@code failed}.
     * Returns whether the answer said {@code Connection: close}. EOF before the answer's end throws.
     */
    private static boolean exchange(Socket socket, String path, ConcurrentLinkedQueue<String> failed)
            throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(("GET " + path + " HTTP/1.1\r\nHost: api.example\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream(); // unbuffered on purpose: never reads past the response
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed before an answer (" + head.size() + " bytes of headers)");
            }
            head.write(b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String text = head.toString(StandardCharsets.US_ASCII);
        int length = Integer.parseInt(text.replaceAll("(?is).*content-length: *(\\d+).*", "$1"));
        if (in.readNBytes(length).length != length) {
            throw new IOException("connection closed in the middle of an answer");
        }
        if (!text.startsWith("HTTP/1.1 200 ") || length != BODY) {
            failed.add(path + ": " + text.lines().findFirst().orElse("") + ", " + length + " bytes");
        }
        return text.toLowerCase(Locale.ROOT).contains("connection: close");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Socket socket) {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing after a failure
            }
        }
    }
}
