package io.pylon.distribution.durability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code pylon run worker} with {@code PYLON_WORKER_ACCESS_LOG=true}: each proxied request's JSON line on standard
 * output beside the pod's text log lines (an answered one, a refused one, one whose upstream is down, and two the pod
 * refused before routing), the path without its query, so a key sent in the query never reaches the log; platform
 * paths are not in it.
 */
class GatewayAccessLogTest {
    private static final String ADDRESS = "127.0.14.4";

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

    /** Writes {@code request} on a connection of its own and reads the answer to the connection's end. */
    private static String exchange(int port, String request) throws java.io.IOException {
        try (java.net.Socket socket = new java.net.Socket(ADDRESS, port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
        }
    }

    private static String header(String answer, String name) {
        for (String line : answer.substring(0, answer.indexOf("\r\n\r\n")).split("\r\n")) {
            if (line.regionMatches(true, 0, name + ":", 0, name.length() + 1)) {
                return line.substring(name.length() + 1).trim();
            }
        }
        throw new AssertionError("no " + name + " in " + answer);
    }

    @Test
    void eachProxiedRequestIsAJsonLineOnStandardOutputWithoutItsQuery(@TempDir Path dir) throws Exception {
        upstream = HttpServer.create(new InetSocketAddress(ADDRESS, 0), 16);
        upstream.createContext("/", exchange -> {
            byte[] body = "hello".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        upstream.start();
        int closed;
        try (ServerSocket free = new ServerSocket(0, 1, java.net.InetAddress.getByName(ADDRESS))) {
            closed = free.getLocalPort(); // nothing listens there once it is closed
        }
        Path routes = dir.resolve("routes.yaml");
        Files.writeString(routes, "routes:\n"
                + "  - {name: api, pathPrefix: /api, upstreams: [http://" + ADDRESS + ":" + upstream.getAddress().getPort() + "]}\n"
                + "  - {name: down, pathPrefix: /down, upstreams: [http://" + ADDRESS + ":" + closed + "]}\n");
        worker = WorkerProcess.start(dir, ADDRESS, routes, Map.of("PYLON_WORKER_ACCESS_LOG", "true"));

        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String base = "http://" + ADDRESS + ":" + worker.port;
        List<Integer> statuses = new ArrayList<>();
        List<String> requestIds = new ArrayList<>();
        for (String path : List.of("/api/orders/7?api_key=s3cr3t-key&x=1", "/nowhere", "/down/x",
                "/platform/management/health")) {
            HttpResponse<Void> response = client.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                    HttpResponse.BodyHandlers.discarding());
            statuses.add(response.statusCode());
            response.headers().firstValue("X-Request-Id").ifPresent(requestIds::add);
        }
        assertThat(statuses).containsExactly(200, 404, 502, 200);
        // refused before routing: a request line that does not parse, a header block past the pod's limit
        String malformed = exchange(worker.port, "garbage\r\n\r\n");
        String oversized = exchange(worker.port, "GET /api/orders?api_key=s3cr3t-key HTTP/1.1\r\nHost: h\r\n"
                + "Cookie: " + "c".repeat(20 * 1024) + "\r\nConnection: close\r\n\r\n");
        assertThat(worker.terminate(30)).isTrue();

        String out = Files.readString(worker.out);
        List<JsonNode> lines = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (String line : out.split("\n")) {
            if (line.startsWith("{")) {
                lines.add(json.readTree(line));
            } else {
                assertThat(line).as("a line that is not JSON is a log line").matches("^\\d{4}-\\d\\d-\\d\\dT.*");
            }
        }
        assertThat(lines).extracting(l -> l.get("path").asText() + " " + l.get("status").asInt())
                .containsExactly("/api/orders/7 200", "/nowhere 404", "/down/x 502", "null 400", "/api/orders 431");
        requestIds.add(header(malformed, "X-Request-Id"));
        requestIds.add(header(oversized, "X-Request-Id"));
        assertThat(lines).as("each line names the X-Request-Id its client got")
                .extracting(l -> l.get("requestId").asText())
                .containsExactlyElementsOf(requestIds).hasSize(5);
        JsonNode refused = lines.get(3);
        assertThat(refused.get("method").isNull()).as("nothing of the request was read").isTrue();
        assertThat(refused.get("ms").isNull()).isTrue();
        assertThat(refused.get("bytes").asLong()).as("what its client got").isEqualTo(malformed.length());
        assertThat(lines.get(4).get("host").asText()).isEqualTo("h");
        assertThat(lines.get(4).get("bytes").asLong()).isEqualTo(oversized.length());
        JsonNode first = lines.getFirst();
        assertThat(first.get("method").asText()).isEqualTo("GET");
        assertThat(first.get("protocol").asText()).isEqualTo("HTTP/1.1");
        assertThat(first.get("client").asText()).startsWith("127.");
        assertThat(first.get("host").asText()).isEqualTo(ADDRESS + ":" + worker.port);
        assertThat(first.get("bytes").asLong()).isGreaterThan(5);
        assertThat(first.get("ms").asDouble()).isGreaterThanOrEqualTo(0);
        assertThat(java.time.Instant.parse(first.get("time").asText())).isBefore(java.time.Instant.now());
        assertThat(out + Files.readString(worker.err)).as("the key in the query").doesNotContain("s3cr3t-key");
    }
}
