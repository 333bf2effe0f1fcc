package io.pylon.distribution.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pylon.core.testing.Promtool;
import io.pylon.core.testing.TestPods;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus server (Debian's {@code prometheus} binary) as an OS process on a loopback address, with its own
 * configuration and storage in a temporary directory; queried over its HTTP API. Stopped (and its directory deleted)
 * by {@link #close}.
 */
final class PrometheusServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Path dir;
    private final String url;

    private PrometheusServer(Process process, Path dir, String url) {
        this.process = process;
        this.dir = dir;
        this.url = url;
    }

    /** Starts Prometheus with {@code config} (prometheus.yml) and the extra files beside it; waits until it is ready. */
    static PrometheusServer start(String host, String config, java.util.Map<String, String> files) throws IOException {
        Path dir = Files.createTempDirectory("pylon-prometheus");
        Files.writeString(dir.resolve("prometheus.yml"), config);
        for (var file : files.entrySet()) {
            Files.writeString(dir.resolve(file.getKey()), file.getValue());
        }
        int port = freePort(host);
        String listen = host + ":" + port;
        Process process = new ProcessBuilder(List.of(Promtool.binary("prometheus").toString(),
                "--config.file=" + dir.resolve("prometheus.yml"), "--web.listen-address=" + listen,
                "--storage.tsdb.path=" + dir.resolve("data"), "--log.level=warn"))
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        PrometheusServer server = new PrometheusServer(process, dir, "http://" + listen);
        try {
            server.awaitReady(Duration.ofSeconds(60));
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private void awaitReady(Duration timeout) {
        long until = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < until) {
            if (!process.isAlive()) {
                throw new IllegalStateException("prometheus exited: " + log());
            }
            try {
                HttpResponse<String> res = TestPods.client().send(HttpRequest.newBuilder(URI.create(url + "/-/ready"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                if (res.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            sleep(200);
        }
        throw new IllegalStateException("prometheus not ready within " + timeout + ": " + log());
    }

    /** The result vector of an instant query. */
    JsonNode query(String promql) {
        HttpResponse<String> res = TestPods.send(HttpRequest.newBuilder(URI.create(url + "/api/v1/query?query="
                + URLEncoder.encode(promql, StandardCharsets.UTF_8))).timeout(Duration.ofSeconds(10)).build());
        try {
            JsonNode body = JSON.readTree(res.body());
            if (res.statusCode() != 200 || !"success".equals(body.path("status").asText())) {
                throw new IllegalStateException("query " + promql + " failed: " + res.body());
            }
            return body.path("data").path("result");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The value of a query whose result is one sample; empty when it has none. */
    OptionalDouble value(String promql) {
        JsonNode result = query(promql);
        if (result.isEmpty()) {
            return OptionalDouble.empty();
        }
        if (result.size() > 1) {
            throw new IllegalStateException("query " + promql + " has " + result.size() + " series: " + result);
        }
        return OptionalDouble.of(Double.parseDouble(result.get(0).path("value").get(1).asText()));
    }

    /** Polls the query until it equals {@code expected}; the last value seen (empty if none) otherwise. */
    OptionalDouble awaitValue(String promql, double expected, Duration timeout) {
        long until = System.nanoTime() + timeout.toNanos();
        OptionalDouble last = OptionalDouble.empty();
        while (System.nanoTime() < until) {
            last = value(promql);
            if (last.isPresent() && last.getAsDouble() == expected) {
                return last;
            }
            sleep(500);
        }
        return last;
    }

    /** The alerts Prometheus has now, pending and firing ({@code /api/v1/alerts}). */
    JsonNode alerts() {
        HttpResponse<String> res = TestPods.send(HttpRequest.newBuilder(URI.create(url + "/api/v1/alerts"))
                .timeout(Duration.ofSeconds(10)).build());
        try {
            return JSON.readTree(res.body()).path("data").path("alerts");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    String log() {
        try {
            String log = Files.readString(dir.resolve("prometheus.log"));
            return log.length() > 4000 ? log.substring(log.length() - 4000) : log;
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static int freePort(String host) throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName(host))) {
            return socket.getLocalPort();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        TestPods.deleteTree(dir);
    }
}
