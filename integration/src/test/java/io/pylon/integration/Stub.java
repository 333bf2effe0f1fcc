package io.pylon.integration;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The world a flow talks to in tests: a real HTTP server on 127.0.47.1 (this test area's own loopback address) with
 * an API to fetch from, webhook receivers that record what they get, a target that never answers, one that answers
 * 10 MB and one whose first call hangs. Thread-safe: concurrent collections.
 */
final class Stub implements AutoCloseable {
    static final String ADDRESS = "127.0.47.1";

    /** One request a receiver got. */
    record Received(String path, Map<String, List<String>> headers, String body) {
        String header(String name) {
            for (Map.Entry<String, List<String>> e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name)) {
                    return e.getValue().get(0);
                }
            }
            return null;
        }
    }

    final ConcurrentLinkedQueue<Received> received = new ConcurrentLinkedQueue<>();
    final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    final CountDownLatch slowEntered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger slowCalls = new AtomicInteger();
    private volatile String rates = "{\"rates\": [{\"code\": \"EUR\", \"value\": 1.1}, {\"code\": \"USD\", \"value\": 1.0}]}";
    private final HttpServer server;

    Stub() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(ADDRESS), 0), 200);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    String url(String path) {
        return "http://" + ADDRESS + ":" + server.getAddress().getPort() + path;
    }

    void setRates(String json) {
        this.rates = json;
    }

    List<Received> at(String path) {
        return received.stream().filter(r -> r.path().equals(path)).toList();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        calls.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
        received.add(new Received(path, Map.copyOf(exchange.getRequestHeaders()), body));
        switch (path) {
            case "/rates" -> send(exchange, 200, rates);
            case "/hang" -> {
                try {
                    release.await(120, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                exchange.close();
            }
            case "/slow" -> {
                if (slowCalls.incrementAndGet() == 1) {
                    slowEntered.countDown();
                    try {
                        release.await(120, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    exchange.close();
                    return;
                }
                send(exchange, 200, "{\"slow\": false}");
            }
            case "/big" -> {
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, 0);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write("{\"items\": [".getBytes(StandardCharsets.US_ASCII));
                    byte[] item = "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\",".getBytes(StandardCharsets.US_ASCII);
                    for (int i = 0; i < 100_000; i++) {
                        out.write(item);
                    }
                    out.write("\"end\"]}".getBytes(StandardCharsets.US_ASCII));
                } catch (IOException e) {
                    // the step read its bound and dropped the connection
                }
            }
            case "/fail" -> send(exchange, 503, "{\"error\": \"down\"}");
            default -> send(exchange, 200, "{\"ok\": true}");
        }
    }

    private static void send(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
    }
}
