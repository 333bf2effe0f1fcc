package io.pylon.worker.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.pylon.core.testing.ChildPods;
import io.pylon.core.testing.TestPods;
import io.pylon.gateway.model.RenderedBundle;
import io.pylon.worker.testing.TestUpstream;
import io.pylon.worker.testing.WorkerChildPod;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real Worker process whose data folder is a full disk (a tmpfs of 2 MiB) when the Manager hands it a bundle of
 * 3 MB: it serves the new bundle, says why its disk copy was not written (the disk's own words, not an exception's
 * class name), and the failed write leaves no temporary file behind, so the next bundle that fits is written.
 */
class FullDiskCopyTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String POD = "worker-full-disk";

    private static HttpServer manager;
    private static TestUpstream blue;
    private static ChildPods pods;
    private static final AtomicReference<RenderedBundle> SERVED = new AtomicReference<>();

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(ChildPods.canMountTmpfs(), "this machine does not allow a tmpfs in an unprivileged user namespace "
                + "(unshare --user --map-root-user --mount), which a really full disk needs");
        blue = TestUpstream.echo("blue");
        SERVED.set(RenderedBundle.render(1, proxies(1, 1)));
        manager = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        manager.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        manager.createContext("/apiops/gateway/bundle", exchange -> {
            RenderedBundle bundle = SERVED.get();
            String known = exchange.getRequestHeaders().getFirst("If-None-Match");
            if (known != null && known.equals("\"" + bundle.sha256() + "\"")) {
                exchange.sendResponseHeaders(304, -1);
                exchange.close();
                return;
            }
            exchange.getResponseHeaders().add("ETag", "\"" + bundle.sha256() + "\"");
            exchange.getResponseHeaders().add("X-Pylon-Bundle-Version", Long.toString(bundle.version()));
            exchange.sendResponseHeaders(200, bundle.json().length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bundle.json());
            }
        });
        manager.start();
        pods = ChildPods.withTmpfsDataDirs(List.of(POD), Map.of(POD, List.of("pylon.worker.config-source=manager",
                        "pylon.worker.manager-url=http://127.0.0.1:" + manager.getAddress().getPort(),
                        "pylon.worker.config-manager-timeout=5s",
                        // nothing else may take the disk's room meanwhile: a capture would, on a slow machine
                        "pylon.diagnostics.postmortem.enabled=false")),
                Map.of(POD, 2), WorkerChildPod.class.getName());
    }

    @AfterAll
    static void stop() {
        if (pods != null) {
            pods.close();
        }
        if (manager != null) {
            manager.stop(0);
        }
        if (blue != null) {
            blue.close();
        }
    }

    private static List<JsonNode> proxies(int count, int descriptionLength) throws IOException {
        List<JsonNode> proxies = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            proxies.add(JSON.readTree("{\"name\":\"p" + i + "\",\"pathPrefix\":\"/p" + i + "\",\"description\":\""
                    + "x".repeat(descriptionLength) + "\",\"upstreams\":[\"" + blue.url() + "\"]}"));
        }
        return proxies;
    }

    @Test
    void aBundleTheDiskCannotHoldIsServedAndTheReasonSaid() throws Exception {
        JsonNode first = await("the first bundle is applied and written", c -> c.path("appliedVersion").asLong() == 1);
        assertThat(first.path("lastError").isNull()).as(first.toString()).isTrue();

        SERVED.set(RenderedBundle.render(2, proxies(1500, 2000))); // 3 MB on a disk of 2 MiB
        JsonNode full = await("the large bundle is applied", c -> c.path("appliedVersion").asLong() == 2
                && !c.path("lastError").isNull());
        assertThat(full.path("lastError").asText())
                .isEqualTo("The disk copy could not be written (No space left on device)");
        assertThat(get("/p1499/x").body()).isEqualTo("blue GET /p1499/x");

        // the failed write's temporary file filled the disk; it is gone, so a bundle that fits is written again
        SERVED.set(RenderedBundle.render(3, proxies(2, 1)));
        // the version is in force before the poll that applied it clears the error and writes the copy: wait for both
        JsonNode again = await("the small bundle is applied and written",
                c -> c.path("appliedVersion").asLong() == 3 && c.path("lastError").isNull());
        assertThat(again.path("lastError").isNull()).as("%s; output:%n%s", again, String.join("\n", pods.output(POD)))
                .isTrue();
        assertThat(get("/p1/x").body()).isEqualTo("blue GET /p1/x");
        assertThat(pods.output(POD)).filteredOn(line -> line.contains("\tat ") || line.contains("SEVERE")).isEmpty();
    }

    private static JsonNode await(String what, Predicate<JsonNode> done) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        JsonNode config = null;
        while (System.nanoTime() < deadline) {
            config = JSON.readTree(get("/platform/diagnostics/config?internal=true").body()).path("config");
            if (done.test(config)) {
                return config;
            }
            Thread.sleep(100);
        }
        throw new AssertionError(what + " within 60 s; last config: " + config + "; output:\n"
                + String.join("\n", pods.output(POD)));
    }

    private static HttpResponse<String> get(String path) {
        return TestPods.send(HttpRequest.newBuilder(URI.create(pods.baseUrl(POD) + path))
                .header("Authorization", TestPods.ENVIRONMENT_ID).timeout(Duration.ofSeconds(30)).build());
    }
}
