package io.pylon.worker.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.gateway.model.RenderedBundle;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Worker pod following a Manager that misbehaves (a real HTTP server on loopback answering what each test
 * scripts): a truncated bundle, a bundle with an invalid proxy, a Manager that hangs mid-answer. Nothing good is ever
 * replaced by something bad, and each refusal is reported in the next poll.
 */
class HostileManagerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the fake Manager answers to the next polls. */
    interface Answer {
        void send(HttpExchange exchange) throws IOException;
    }

    HttpServer server;
    TestUpstream blue;
    final AtomicReference<Answer> answer = new AtomicReference<>();
    final ConcurrentLinkedQueue<Map<String, List<String>>> polls = new ConcurrentLinkedQueue<>();
    final CountDownLatch release = new CountDownLatch(1);
    Pod worker;

    @BeforeEach
    void start() throws IOException {
        blue = TestUpstream.echo("blue");
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/apiops/gateway/bundle", exchange -> {
            polls.add(Map.copyOf(exchange.getRequestHeaders()));
            String known = exchange.getRequestHeaders().getFirst("If-None-Match");
            Answer now = answer.get();
            if (now == null) {
                exchange.sendResponseHeaders(503, -1);
                exchange.close();
                return;
            }
            now.send(exchange);
        });
        server.start();
    }

    @AfterEach
    void stop() throws Exception {
        release.countDown();
        if (worker != null) {
            worker.stop();
        }
        server.stop(0);
        blue.close();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    RenderedBundle bundle(long version, String prefix, String upstream) throws IOException {
        JsonNode proxy = JSON.readTree("{\"name\":\"p\",\"pathPrefix\":\"" + prefix + "\",\"upstreams\":[\"" + upstream + "\"]}");
        return RenderedBundle.render(version, List.of(proxy));
    }

    static Answer serve(byte[] body, String etag, long version) {
        return exchange -> {
            String known = exchange.getRequestHeaders().getFirst("If-None-Match");
            exchange.getResponseHeaders().add("ETag", "\"" + etag + "\"");
            exchange.getResponseHeaders().add("X-Pylon-Bundle-Version", Long.toString(version));
            if (("\"" + etag + "\"").equals(known)) {
                sleepQuietly(300); // a long-poll that sees no change
                exchange.sendResponseHeaders(304, -1);
                exchange.close();
                return;
            }
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        };
    }

    static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    JsonNode config() throws IOException {
        return JSON.readTree(TestPods.get(worker, "/platform/diagnostics/config?internal=true", "Authorization",
                TestPods.ENVIRONMENT_ID).body()).path("config");
    }

    boolean reported(long rejectedVersion) {
        return polls.stream().anyMatch(h -> String.valueOf(rejectedVersion).equals(first(h, "X-pylon-rejected-version")));
    }

    static String first(Map<String, List<String>> headers, String name) {
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name)) {
                return e.getValue().getFirst();
            }
        }
        return null;
    }

    @Test
    void truncatedCorruptAndInvalidBundlesAreRefusedAndReported() throws Exception {
        RenderedBundle good = bundle(1, "/api", blue.url());
        answer.set(serve(good.json(), good.sha256(), 1));
        worker = ControlPlane.worker("gw-hostile", url(), Map.of("pylon.worker.config-poll-wait", "1s"));
        ControlPlane.await("version 1 applied", () -> TestPods.get(worker, "/api/x").statusCode() == 200);

        // truncated: the bytes do not match the hash the Manager named
        RenderedBundle second = bundle(2, "/api2", blue.url());
        answer.set(serve(Arrays.copyOf(second.json(), second.json().length / 2), second.sha256(), 2));
        ControlPlane.await("truncation reported", () -> reported(2));
        assertThat(TestPods.get(worker, "/api/x").body()).isEqualTo("blue GET /api/x");
        assertThat(config().path("rejection").asText()).contains("do not match its hash");
        assertThat(config().path("appliedVersion").asLong()).isEqualTo(1);

        // corrupt but hashed as sent: not JSON
        byte[] garbage = "{\"version\":3,\"proxies\":[{".getBytes(StandardCharsets.UTF_8);
        answer.set(serve(garbage, io.pylon.gateway.model.CanonicalJson.sha256(garbage), 3));
        ControlPlane.await("corruption reported", () -> reported(3));
        assertThat(TestPods.get(worker, "/api/x").statusCode()).isEqualTo(200);

        // a bundle with an invalid proxy, correctly hashed
        JsonNode bad = JSON.readTree("{\"name\":\"bad\",\"pathPrefix\":\"/bad\",\"upstreams\":[\"ftp://x\"]}");
        RenderedBundle invalid = RenderedBundle.render(4, List.of(bad));
        answer.set(serve(invalid.json(), invalid.sha256(), 4));
        ControlPlane.await("invalid proxy reported", () -> reported(4));
        assertThat(config().path("rejection").asText()).contains("'bad'", "upstreams[0]");
        assertThat(TestPods.get(worker, "/api/x").body()).isEqualTo("blue GET /api/x");
        assertThat(TestPods.get(worker, "/bad/x").statusCode()).isEqualTo(404);
        String rejection = polls.stream().map(h -> first(h, "X-pylon-rejection")).filter(r -> r != null)
                .reduce((a, b) -> b).orElse("");
        assertThat(java.net.URLDecoder.decode(rejection, StandardCharsets.UTF_8)).contains("upstreams[0]");

        // the good version after all that is applied
        RenderedBundle fixed = bundle(5, "/api5", blue.url());
        answer.set(serve(fixed.json(), fixed.sha256(), 5));
        ControlPlane.await("version 5 applied", () -> TestPods.get(worker, "/api5/x").statusCode() == 200);
        assertThat(TestPods.get(worker, "/api/x").statusCode()).isEqualTo(404);
    }

    @Test
    void aManagerThatHangsMidAnswerCostsOnePollNotTheConfiguration() throws Exception {
        RenderedBundle good = bundle(1, "/api", blue.url());
        answer.set(serve(good.json(), good.sha256(), 1));
        worker = ControlPlane.worker("gw-hang", url(), Map.of("pylon.worker.config-poll-wait", "1s",
                "pylon.worker.config-manager-timeout", "1s"));
        ControlPlane.await("version 1 applied", () -> TestPods.get(worker, "/api/x").statusCode() == 200);

        RenderedBundle second = bundle(2, "/api2", blue.url());
        answer.set(exchange -> {
            exchange.getResponseHeaders().add("ETag", "\"" + second.sha256() + "\"");
            exchange.sendResponseHeaders(200, second.json().length);
            OutputStream out = exchange.getResponseBody();
            out.write(second.json(), 0, 10);
            out.flush();
            try {
                release.await(); // hang, headers and ten bytes sent
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        ControlPlane.await("a failed poll", () -> {
            try {
                return config().path("lastError").asText().contains("broke off")
                        || config().path("lastError").asText().contains("did not answer");
            } catch (IOException e) {
                return false;
            }
        });
        assertThat(config().path("appliedVersion").asLong()).isEqualTo(1);
        assertThat(TestPods.get(worker, "/api/x").body()).isEqualTo("blue GET /api/x");
        assertThat(TestPods.get(worker, "/platform/management/health/ready").statusCode()).isEqualTo(200);
    }

    @Test
    void aManagerReplicaThatIsStoppingIsNotAFailure() throws Exception {
        RenderedBundle good = bundle(1, "/api", blue.url());
        answer.set(serve(good.json(), good.sha256(), 1));
        worker = ControlPlane.worker("gw-replica-stops", url(), Map.of("pylon.worker.config-poll-wait", "1s"));
        ControlPlane.await("version 1 applied", () -> TestPods.get(worker, "/api/x").statusCode() == 200);

        // what a Manager answers while it stops: the Worker polls again after its back-off, without an error
        int before = polls.size();
        byte[] stopping = "{\"error\":\"stopping\",\"error_description\":\"This Manager is stopping; poll again.\"}"
                .getBytes(StandardCharsets.UTF_8);
        answer.set(exchange -> {
            exchange.getResponseHeaders().add("Retry-After", "1");
            exchange.sendResponseHeaders(503, stopping.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(stopping);
            }
        });
        ControlPlane.await("polled again after a 503 stopping", () -> polls.size() >= before + 3);
        assertThat(config().path("lastPollOutcome").asText()).isEqualTo("manager stopping");
        assertThat(config().path("lastError").isNull()).as(config().toString()).isTrue();
        assertThat(config().path("pollFailures").asLong()).isZero();
        assertThat(TestPods.get(worker, "/api/x").body()).isEqualTo("blue GET /api/x");

        RenderedBundle next = bundle(2, "/api2", blue.url());
        answer.set(serve(next.json(), next.sha256(), 2));
        ControlPlane.await("version 2 from the replica that serves", () -> TestPods.get(worker, "/api2/x").statusCode() == 200);
    }

    @Test
    void aWriteCutShortByKillLeavesTheOldCopyWhichIsServed() throws Exception {
        // the state a kill -9 between the temporary file's write and its rename leaves: the old copy and a torn temp
        Path data = Files.createTempDirectory("pylon-gw-killed");
        RenderedBundle old = bundle(7, "/old", blue.url());
        LastKnownGood disk = new LastKnownGood(data);
        disk.write(old.json());
        Path torn = data.resolve("gateway").resolve("bundle.json.123.tmp");
        Files.write(torn, Arrays.copyOf(bundle(8, "/new", blue.url()).json(), 20));
        worker = ControlPlane.worker("gw-killed", url(), Map.of("pylon.data.dir", data.toString()));
        ControlPlane.await("disk copy served", () -> TestPods.get(worker, "/old/x").statusCode() == 200);
        assertThat(config().path("source").asText()).isEqualTo("disk");
        assertThat(config().path("appliedVersion").asLong()).isEqualTo(7);
        assertThat(Files.exists(torn)).isFalse();
    }
}
