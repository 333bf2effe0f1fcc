package io.pylon.distribution;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The upstream of {@code pylon up}'s sample API: a tiny echo on loopback, run by the {@code pylon up} process itself,
 * answering {@code {"service": "sample", "method", "path", "query"}} so the README's first call through a Worker has
 * something to reach, and a {@link WebhookInbox} under {@code /hooks/} for flows to post to. Port {@link #PORT} when
 * free, another otherwise. Requests are answered on {@link #THREADS} virtual threads, so a client that sends slowly
 * holds one of them, not the sample; only the inbox keeps anything between requests.
 */
final class SampleUpstream implements AutoCloseable {
    static final int PORT = 8099;
    static final int THREADS = 8;

    private final HttpServer server;
    private final ExecutorService threads;

    private SampleUpstream(HttpServer server, ExecutorService threads) {
        this.server = server;
        this.threads = threads;
    }

    static SampleUpstream start(String host) throws IOException {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(host), PORT), 50);
        } catch (IOException e) {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(host), 0), 50);
        }
        WebhookInbox inbox = new WebhookInbox();
        server.createContext(WebhookInbox.PREFIX, inbox::handle);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readNBytes(64 * 1024);
            String query = exchange.getRequestURI().getRawQuery();
            String body = "{\"service\":\"sample\",\"method\":\"" + exchange.getRequestMethod() + "\",\"path\":\""
                    + json(exchange.getRequestURI().getRawPath()) + "\",\"query\":"
                    + (query == null ? "null" : "\"" + json(query) + "\"") + "}\n";
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, exchange.getRequestMethod().equals("HEAD") ? -1 : bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                if (!exchange.getRequestMethod().equals("HEAD")) {
                    out.write(bytes);
                }
            }
        });
        ExecutorService threads = Executors.newFixedThreadPool(THREADS, Thread.ofVirtual().name("sample-", 0).factory());
        server.setExecutor(threads);
        server.start();
        return new SampleUpstream(server, threads);
    }

    String url() {
        InetSocketAddress address = server.getAddress();
        return "http://" + address.getAddress().getHostAddress() + ":" + address.getPort();
    }

    private static String json(String text) {
        StringBuilder out = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
