package io.pylon.distribution.e2e;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A real HTTP peer on 127.0.0.1 in front of the Manager that records every request line (method, path and query)
 * it passes on, so a test can count what one CLI command asks of the Manager.
 *
 * <p>Thread-safe: requests are handled on virtual threads and recorded in a copy-on-write list.
 */
final class CountingProxy implements AutoCloseable {
    private final HttpServer server;
    private final HttpClient client = HttpClient.newHttpClient();
    private final String target;
    private final List<String> requests = new CopyOnWriteArrayList<>();

    CountingProxy(String target) throws IOException {
        this.target = target;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::forward);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Every request so far as {@code GET /path?query}, in arrival order. */
    List<String> requests() {
        return List.copyOf(requests);
    }

    void clear() {
        requests.clear();
    }

    private void forward(HttpExchange exchange) throws IOException {
        String pathAndQuery = exchange.getRequestURI().getRawPath()
                + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery());
        requests.add(exchange.getRequestMethod() + " " + pathAndQuery);
        try (exchange; InputStream in = exchange.getRequestBody()) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target + pathAndQuery))
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(in.readAllBytes()));
            for (String header : List.of("Authorization", "Content-Type", "Accept")) {
                String value = exchange.getRequestHeaders().getFirst(header);
                if (value != null) {
                    request.header(header, value);
                }
            }
            HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            response.headers().firstValue("Content-Type").ifPresent(v -> exchange.getResponseHeaders().set("Content-Type", v));
            byte[] body = response.body();
            exchange.sendResponseHeaders(response.statusCode(), body.length == 0 ? -1 : body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        client.close();
    }
}
