package io.pylon.worker.routes;

import io.pylon.core.config.Settings;
import io.pylon.core.server.PodServer;
import io.pylon.core.testing.TestPods;
import io.pylon.worker.WorkerModule;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Routes reloaded from the file while traffic flows; invalid files refused at start and at reload. */
class RouteReloadTest {
    static TestUpstream blue;
    static TestUpstream green;

    @BeforeAll
    static void start() {
        blue = TestUpstream.echo("blue");
        green = TestUpstream.echo("green");
    }

    @AfterAll
    static void stop() {
        blue.close();
        green.close();
    }

    static String routes(TestUpstream upstream, String extraPrefix) {
        return """
                routes:
                  - {name: app, pathPrefix: /app, upstreams: [%s]}
                  - {name: extra, pathPrefix: %s, upstreams: [%s]}
                """.formatted(upstream.url(), extraPrefix, upstream.url());
    }

    @Test
    void reloadUnderTrafficLosesNoRequest() throws Exception {
        try (Gateway gateway = Gateway.start("reload-test", routes(blue, "/x0"), Map.of());
             HttpClient client = HttpClient.newHttpClient()) {
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicInteger sent = new AtomicInteger();
            Map<String, Integer> failures = new ConcurrentHashMap<>();
            Map<String, Integer> served = new ConcurrentHashMap<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                threads.add(Thread.ofVirtual().start(() -> {
                    while (running.get()) {
                        try {
                            HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                                    URI.create(gateway.url("/app/ping"))).build(), HttpResponse.BodyHandlers.ofString());
                            sent.incrementAndGet();
                            if (response.statusCode() == 200) {
                                served.merge(response.body().split(" ")[0], 1, Integer::sum);
                            } else {
                                failures.merge(String.valueOf(response.statusCode()), 1, Integer::sum);
                            }
                        } catch (Exception e) {
                            failures.merge(e.getClass().getSimpleName(), 1, Integer::sum);
                        }
                    }
                }));
            }
            for (int i = 1; i <= 10; i++) {
                gateway.rewrite(routes(i % 2 == 0 ? blue : green, "/x" + i));
                int expected = i;
                Gateway.await("reload " + i, 5_000, () -> TestPods.get(gateway.pod, "/x" + expected + "/q").statusCode() == 200);
            }
            running.set(false);
            for (Thread thread : threads) {
                thread.join();
            }
            assertThat(failures).isEmpty();
            assertThat(sent.get()).isGreaterThan(50);
            assertThat(served.keySet()).containsExactlyInAnyOrder("blue", "green");
            // the pool of an upstream that was dropped is retired, and every lease came back
            assertThat(gateway.leased()).isZero();
        }
    }

    @Test
    void invalidFileAtReloadIsRefusedAndTheRoutesInForceKeepServing() {
        try (Gateway gateway = Gateway.start("invalid-reload-test", routes(blue, "/x0"), Map.of())) {
            gateway.rewrite("""
                    routes:
                      - {name: app, pathPrefix: /app, upstreams: [%s], responseTimeout: forever}
                    """.formatted(green.url()));
            Gateway.await("the refusal to be reported", 5_000, () -> routesState(gateway).get("lastError") != null);
            assertThat((String) routesState(gateway).get("lastError")).contains("'app'", "responseTimeout");
            assertThat(TestPods.get(gateway.pod, "/app/1").body()).startsWith("blue ");
            assertThat(TestPods.get(gateway.pod, "/x0/1").statusCode()).isEqualTo(200);

            gateway.rewrite(routes(green, "/x1"));
            Gateway.await("the fixed file to load", 5_000, () -> TestPods.get(gateway.pod, "/x1/q").statusCode() == 200);
            assertThat(TestPods.get(gateway.pod, "/app/1").body()).startsWith("green ");
            assertThat(routesState(gateway).get("lastError")).isNull();
        }
    }

    @Test
    void invalidFileAtStartStopsThePodWithTheRouteAndField() {
        var file = Gateway.writeTemp("""
                routes:
                  - {name: app, pathPrefix: /platform/x, upstreams: [http://127.0.0.1:1]}
                """);
        Map<String, String> settings = TestPods.defaults("invalid-start-test");
        settings.put("pylon.worker.routes-file", file.toString());
        assertThatThrownBy(() -> PodServer.start(new WorkerModule(), Settings.of(settings)))
                .hasMessageContaining("pylon.worker.routes-file")
                .hasMessageContaining("'app'")
                .hasMessageContaining("pathPrefix");
        TestPods.deleteTree(file.getParent());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> routesState(Gateway gateway) {
        return (Map<String, Object>) gateway.connections().get("routes");
    }
}
