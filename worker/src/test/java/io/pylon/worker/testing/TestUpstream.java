package io.pylon.worker.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;

/** A real HTTP server on loopback standing in for a service behind the gateway. */
public final class TestUpstream implements AutoCloseable {
    private final HttpServer server;

    private TestUpstream(HttpServer server) {
        this.server = server;
    }

    public static TestUpstream start(HttpHandler handler) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 100);
            server.createContext("/", handler);
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            server.start();
            return new TestUpstream(server);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Answers 200 with "name method path?query" and the request headers as {@code x-seen-<name>} headers. */
    public static TestUpstream echo(String name) {
        return start(exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            for (Map.Entry<String, List<String>> header : new TreeMap<>(exchange.getRequestHeaders()).entrySet()) {
                exchange.getResponseHeaders().put("X-Seen-" + header.getKey(), header.getValue());
            }
            String uri = exchange.getRequestURI().getRawPath()
                    + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery());
            exchange.getResponseHeaders().add("X-Body-Length", String.valueOf(body.length));
            byte[] out = (name + " " + exchange.getRequestMethod() + " " + uri).getBytes(StandardCharsets.UTF_8);
            send(exchange, 200, out);
        });
    }

    public static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : (body.length == 0 ? -1 : body.length));
        if (!head) {
            exchange.getResponseBody().write(body);
        }
        exchange.close();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** A loopback port nothing listens on: connections to it are refused. */
    public static int refusedPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
