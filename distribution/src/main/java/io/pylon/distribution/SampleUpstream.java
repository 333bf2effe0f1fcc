package io.pylon.distribution;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The upstream of {@code pylon up}'s sample API: a tiny echo on loopback, run by the {@code pylon up} process itself,
 * answering {@code {"service": "sample", "method", "path", "query"}} so the README's first call through a Worker has
 * something to reach, and a {@link WebhookInbox} under {@code /hooks/} for flows to post to. Port {@link #PORT} when
 * free, another otherwise. Requests are answered on one thread; only the inbox keeps anything between them.
 */
final class SampleUpstream implements AutoCloseable {
    static final int PORT = 8099;

    private final HttpServer server;

    private SampleUpstream(HttpServer server) {
        this.server = server;
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
        server.start();
        return new SampleUpstream(server);
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
    }
}
