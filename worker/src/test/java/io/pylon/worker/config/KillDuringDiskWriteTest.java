package io.pylon.worker.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.pylon.core.testing.ChildPods;
import io.pylon.core.testing.TestPods;
import io.pylon.gateway.model.CanonicalJson;
import io.pylon.gateway.model.RenderedBundle;
import io.pylon.worker.testing.TestUpstream;
import io.pylon.worker.testing.WorkerChildPod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kill -9 of a real Worker process (its own JVM) while it writes its last-known-good copy: a Manager on loopback
 * hands it a new 1.5 MB bundle on every poll, so the Worker applies and writes one copy after another; the test
 * watches the data folder and sends SIGKILL the moment a temporary file of a write exists. After each kill the copy
 * on disk is a complete bundle the Manager served (its SHA-256 is one the Manager sent), and the Worker restarted with
 * the Manager down serves it.
 */
class KillDuringDiskWriteTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String POD = "worker-lkg";
    private static final int ROUNDS = 6;

    HttpServer manager;
    TestUpstream blue;
    ChildPods pods;
    final AtomicBoolean managerDown = new AtomicBoolean();
    final AtomicLong nextVersion = new AtomicLong(1);
    final Map<Long, String> served = new ConcurrentHashMap<>();
    List<JsonNode> proxies;

    @BeforeEach
    void start() throws IOException {
        blue = TestUpstream.echo("blue");
        proxies = new ArrayList<>();
        String description = "x".repeat(2000);
        for (int i = 0; i < 600; i++) {
            proxies.add(JSON.readTree("{\"name\":\"p" + i + "\",\"pathPrefix\":\"/p" + i + "\",\"description\":\""
                    + description + "\",\"upstreams\":[\"" + blue.url() + "\"]}"));
        }
        manager = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        manager.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        // every poll gets a newer version at once: the Worker writes its disk copy back to back
        manager.createContext("/apiops/gateway/bundle", exchange -> {
            if (managerDown.get()) {
                exchange.sendResponseHeaders(503, -1);
                exchange.close();
                return;
            }
            long version = nextVersion.getAndIncrement();
            RenderedBundle bundle = RenderedBundle.render(version, proxies);
            served.put(version, bundle.sha256());
            exchange.getResponseHeaders().add("ETag", "\"" + bundle.sha256() + "\"");
            exchange.getResponseHeaders().add("X-Pylon-Bundle-Version", Long.toString(version));
            exchange.sendResponseHeaders(200, bundle.json().length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bundle.json());
            }
        });
        manager.start();
    }

    @AfterEach
    void stop() {
        if (pods != null) {
            pods.close();
        }
        manager.stop(0);
        blue.close();
    }

    @Test
    void aWorkerKilledWhileWritingItsDiskCopyRestartsFromACompleteBundle() throws Exception {
        String managerUrl = "http://127.0.0.1:" + manager.getAddress().getPort();
        pods = new ChildPods(List.of(POD), Map.of(POD, List.of("pylon.worker.config-source=manager",
                "pylon.worker.manager-url=" + managerUrl, "pylon.worker.config-manager-timeout=5s")),
                Map.of(), WorkerChildPod.class.getName(), List.of());
        Path folder = Path.of(pods.dataDir(POD)).resolve("gateway");
        int cutMidWrite = 0;
        for (int round = 1; round <= ROUNDS; round++) {
            managerDown.set(false);
            if (round > 1) {
                pods.restart(POD);
            }
            // a copy written whole before (a kill during the very first write leaves no copy, which is also right:
            // the Worker then starts unconfigured), then the kill in the middle of a later write
            awaitTemporaryFile(folder, folder.resolve("bundle.json"));
            pods.kill(POD);
            if (temporaryFiles(folder) > 0) {
                cutMidWrite++;
            }

            byte[] copy = Files.readAllBytes(folder.resolve("bundle.json"));
            long version = JSON.readTree(copy).path("version").asLong();
            assertThat(served.get(version)).as("round %d: the disk copy (version %d) is a bundle the Manager sent, whole",
                    round, version).isEqualTo(CanonicalJson.sha256(copy));

            managerDown.set(true);
            pods.restart(POD);
            awaitReady();
            JsonNode config = config();
            assertThat(config.path("source").asText()).isEqualTo("disk");
            assertThat(config.path("appliedVersion").asLong()).isEqualTo(version);
            assertThat(config.path("routeCount").asInt()).isEqualTo(600);
            assertThat(get("/p599/x").body()).isEqualTo("blue GET /p599/x");
            assertThat(temporaryFiles(folder)).as("left-over temporary files are removed at start").isZero();
            pods.kill(POD);
        }
        System.out.println("kill -9 rounds: " + ROUNDS + ", cut mid-write: " + cutMidWrite);
        // the kill landed between the temporary file's creation and its rename in at least one round (in most: a
        // write of 1.5 MB with fsync takes milliseconds, the kill follows the file's appearance within one)
        assertThat(cutMidWrite).as("rounds whose kill cut a write short").isPositive();
    }

    private static long temporaryFiles(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".tmp")).count();
        }
    }

    // polls the folder as fast as it can: a write's temporary file lives for a few milliseconds
    private static void awaitTemporaryFile(Path folder, Path copy) throws IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!Files.exists(copy) || temporaryFiles(folder) == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the Worker wrote no disk copy within 60 s");
            }
            Thread.onSpinWait();
        }
    }

    private void awaitReady() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (get("/platform/management/health/ready").statusCode() != 200) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the restarted Worker did not become ready from its disk copy; its output:\n"
                        + String.join("\n", pods.output(POD)));
            }
            Thread.sleep(100);
        }
    }

    private JsonNode config() throws IOException {
        return JSON.readTree(get("/platform/diagnostics/config?internal=true").body()).path("config");
    }

    private HttpResponse<String> get(String path) {
        return TestPods.send(HttpRequest.newBuilder(URI.create(pods.baseUrl(POD) + path))
                .header("Authorization", TestPods.ENVIRONMENT_ID).timeout(Duration.ofSeconds(30)).build());
    }
}
