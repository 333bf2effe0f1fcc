package io.pylon.distribution.durability;

import com.sun.net.httpserver.HttpServer;
import io.pylon.core.testing.KeptAliveClients;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

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

        ConcurrentLinkedQueue<String> failed = new ConcurrentLinkedQueue<>();
        KeptAliveClients clients = KeptAliveClients.start(CLIENTS, ADDRESS, port, get("/bytes"),
                (sent, head, bodyLength) -> expectWhole("/bytes", head, bodyLength, failed));
        long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (clients.answered() < 20L * CLIENTS && System.nanoTime() < waitUntil) {
            Thread.sleep(100);
        }
        assertThat(clients.answered()).as("answers before SIGTERM; log:\n" + Files.readString(log)).isPositive();

        ConcurrentLinkedQueue<String> slowOutcomes = new ConcurrentLinkedQueue<>();
        List<Thread> slow = new ArrayList<>();
        for (int i = 0; i < SLOW; i++) {
            slow.add(Thread.ofPlatform().start(() -> {
                try (Socket socket = new Socket(ADDRESS, port)) {
                    socket.setSoTimeout(20_000);
                    socket.getOutputStream().write(get("/slow"));
                    KeptAliveClients.Response response = KeptAliveClients.readSized(socket.getInputStream());
                    expectWhole("/slow", response.head(), response.bodyLength(), failed);
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
        clients.mark();
        assertThat(worker.terminate(30)).as("the Worker exits within its grace after SIGTERM").isTrue();
        clients.stop();
        for (Thread thread : slow) {
            thread.join();
        }

        String output = Files.readString(log);
        assertThat(clients.failed()).as("requests cut; Worker log:\n" + output).isEmpty();
        assertThat(failed).as("answers other than 200 with the whole body").isEmpty();
        assertThat(slowOutcomes).as("the requests in flight at SIGTERM").containsOnly("answered").hasSize(SLOW);
        assertThat(clients.refused()).as("connects refused after the listener closed").isPositive();
        String[] lines = output.strip().split("\n");
        String last = lines[lines.length - 1];
        assertThat(last).contains("stopped after finishing");
        long finished = Long.parseLong(last.replaceAll(".*finishing (\\d+) requests.*", "$1"));
        assertThat(finished).as("requests the pod finished, against answers read").isEqualTo(clients.answered() + SLOW);
        assertThat(output).as("the Worker's log").doesNotContain("SEVERE").doesNotContain("Exception");
    }

    private static byte[] get(String path) {
        return ("GET " + path + " HTTP/1.1\r\nHost: api.example\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** Records in {@code failed} an answer other than 200 with the whole body. */
    private static void expectWhole(String path, String head, int bodyLength, ConcurrentLinkedQueue<String> failed) {
        if (!head.startsWith("HTTP/1.1 200 ") || bodyLength != BODY) {
            failed.add(path + ": " + head.lines().findFirst().orElse("") + ", " + bodyLength + " bytes");
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
