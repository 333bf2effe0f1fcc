package io.pylon.manager.proxies;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.pylon.core.server.Pod;
import io.pylon.manager.ManagerClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static io.pylon.manager.ManagerClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Importing an OpenAPI document by URL from an allowed host, served by a real HTTP server on loopback: a document that
 * imports, one too large, an answer other than 200, a redirect (not followed), and a server that sends the start of a
 * document and then trickles, which is cut at the fetch's deadline instead of holding the request for as long as it
 * likes.
 */
class OpenApiImportByUrlTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DOCUMENT = """
            openapi: 3.0.3
            info: {title: Inventory, version: "1"}
            servers: [{url: "http://127.0.0.1:4010/inventory"}]
            paths:
              /items: {get: {responses: {"200": {description: ok}}}}
            """;
    private static HttpServer documents;
    private static Pod pod;
    private static ManagerClient manager;
    private static String admin;

    @BeforeAll
    static void start() throws IOException {
        documents = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        documents.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        documents.createContext("/inventory.yaml", exchange -> send(exchange, 200, DOCUMENT.getBytes(StandardCharsets.UTF_8)));
        documents.createContext("/large.yaml", exchange -> send(exchange, 200,
                ("# " + "x".repeat(2 * 1024 * 1024) + "\n" + DOCUMENT).getBytes(StandardCharsets.UTF_8)));
        documents.createContext("/gone.yaml", exchange -> send(exchange, 404, new byte[0]));
        documents.createContext("/moved.yaml", exchange -> {
            exchange.getResponseHeaders().add("Location", "http://169.254.169.254/latest/meta-data");
            send(exchange, 302, new byte[0]);
        });
        documents.createContext("/trickle.yaml", exchange -> {
            exchange.sendResponseHeaders(200, 0); // chunked
            try (OutputStream out = exchange.getResponseBody()) {
                out.write("openapi: 3.0.3\n".getBytes(StandardCharsets.UTF_8));
                out.flush();
                for (int i = 0; i < 60; i++) { // a byte a second: a minute unless the Manager gives up
                    Thread.sleep(1000);
                    out.write('#');
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // the Manager went away
            }
        });
        documents.start();
        pod = ManagerClient.start("manager-import-url", Map.of("pylon.manager.proxies.import-url-hosts", "127.0.0.1"));
        manager = new ManagerClient(pod);
        admin = manager.adminToken();
    }

    @AfterAll
    static void stop() {
        pod.stop();
        documents.stop(0);
    }

    @Test
    void aDocumentFromAnAllowedHostImports() throws Exception {
        HttpResponse<String> imported = importFrom("/inventory.yaml");
        assertThat(imported.statusCode()).as(imported.body()).isEqualTo(201);
        assertThat(json(imported).path("name").asText()).isEqualTo("inventory");
    }

    @Test
    void aDocumentTooLargeIsRefusedNamingTheLimit() throws Exception {
        HttpResponse<String> refused = importFrom("/large.yaml");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("larger than");
    }

    @Test
    void anAnswerOtherThan200AndARedirectAreRefused() throws Exception {
        assertThat(importFrom("/gone.yaml").body()).contains("answered 404");
        HttpResponse<String> moved = importFrom("/moved.yaml");
        assertThat(moved.statusCode()).isEqualTo(400);
        assertThat(moved.body()).contains("answered 302");
    }

    @Test
    void aTricklingServerIsCutAtTheDeadline() throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<String> cut = importFrom("/trickle.yaml");
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertThat(cut.statusCode()).as(cut.body()).isEqualTo(400);
        assertThat(cut.body()).contains("did not send the document within 10 s");
        assertThat(ms).isBetween(9_000L, 20_000L);
    }

    private static HttpResponse<String> importFrom(String path) throws IOException {
        String url = "http://127.0.0.1:" + documents.getAddress().getPort() + path;
        return manager.postJson("/apiops/proxies/import", admin, JSON.writeValueAsString(Map.of("url", url)));
    }

    private static void send(com.sun.net.httpserver.HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
