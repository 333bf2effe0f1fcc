package io.pylon.distribution.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Prometheus (Debian's binary, an OS process on 127.0.20.1) scrapes a Manager, two Workers and two Cache pods
 * every second, with the alert rules of deploy/prometheus (their {@code for:} shortened to one second, the
 * expressions as shipped). After known traffic (proxied requests, failed sign-ins, a broadcast while a Worker is
 * stopped) PromQL over its HTTP API returns exactly those counts, and alerts fire for the stopped pod.
 */
class MetricsPrometheusEndToEndTest {
    private static final String HOST = "127.0.20.1";
    private static final int PROXIED = 37;
    private static final int FAILED_SIGN_INS = 7;
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static HttpServer upstream;
    private static Path routesFile;
    private static LoopbackPlatform platform;
    private static PrometheusServer prometheus;

    @BeforeAll
    static void start() throws IOException {
        upstream = HttpServer.create(new InetSocketAddress(HOST, 0), 0);
        upstream.createContext("/", exchange -> {
            byte[] body = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        upstream.start();
        routesFile = Files.createTempFile("pylon-metrics-routes", ".yaml");
        Files.writeString(routesFile, "routes:\n  - name: orders\n    pathPrefix: /api/orders\n    upstreams:\n"
                + "      - http://" + HOST + ":" + upstream.getAddress().getPort() + "\n");
        platform = new LoopbackPlatform(2, 2, false, "127.0.20.",
                Map.of("pylon.worker.routes-file", routesFile.toString()));
        prometheus = PrometheusServer.start(HOST, config(), Map.of("pylon-rules.yml", rulesWithShortFor()));
    }

    @AfterAll
    static void stop() throws IOException {
        if (prometheus != null) {
            prometheus.close();
        }
        if (platform != null) {
            platform.close();
        }
        if (upstream != null) {
            upstream.stop(0);
        }
        Files.deleteIfExists(routesFile);
    }

    @Test
    void prometheusSeesExactlyTheTrafficAndAlertsOnAStoppedPod() {
        assertThat(prometheus.awaitValue("count(up{job=\"pylon\"} == 1)", 5, WAIT)).as(prometheus.log()).hasValue(5);
        assertThat(prometheus.value("count(pylon_build_info{module=\"worker\"})")).hasValue(2);

        Pod worker0 = platform.workers.get("worker-0");
        for (int i = 0; i < PROXIED; i++) {
            HttpResponse<String> res = TestPods.get(worker0, "/api/orders/" + i);
            assertThat(res.statusCode()).isEqualTo(200);
        }
        for (int i = 0; i < FAILED_SIGN_INS; i++) {
            HttpResponse<String> res = TestPods.send(HttpRequest.newBuilder(URI.create(platform.managerUrl()
                            + "/apiops/auth/token"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&client_id=ghost-" + i
                            + "&client_secret=not-the-password")).build());
            assertThat(res.statusCode()).isEqualTo(401);
        }

        String proxied = "sum(pylon_worker_proxied_requests_total{route=\"orders\"})";
        assertThat(prometheus.awaitValue(proxied, PROXIED, WAIT)).hasValue(PROXIED);
        assertThat(prometheus.value("sum(pylon_worker_proxied_requests_total{route=\"orders\",pod=\"worker-0\","
                + "status=\"2xx\"})")).hasValue(PROXIED);
        String failures = "sum(pylon_manager_signin_failures_total)";
        assertThat(prometheus.awaitValue(failures, FAILED_SIGN_INS, WAIT)).hasValue(FAILED_SIGN_INS);
        assertThat(prometheus.value("pylon_manager_signin_failures_total{reason=\"unknown-user\"}"))
                .hasValue(FAILED_SIGN_INS);
        assertThat(prometheus.value("pylon_manager_tokens_issued_total")).hasValue(1); // LoopbackPlatform's admin
        assertThat(prometheus.value("sum(pylon_worker_upstream_pool_connections{pod=\"worker-0\",state=\"max\"})"))
                .hasValue(200);
        assertThat(prometheus.awaitValue("min(pylon_grid_members)", 2, WAIT)).hasValue(2);

        platform.workers.remove("worker-1").stop();
        HttpResponse<String> broadcast = TestPods.get(worker0, "/platform/diagnostics/jvm",
                "Authorization", TestPods.ENVIRONMENT_ID);
        assertThat(broadcast.statusCode()).isEqualTo(200);
        assertThat(broadcast.body()).contains("\"worker-1\"");

        assertThat(prometheus.awaitValue("pylon_broadcast_pods_failed_total{pod=\"worker-0\",cause=\"unreachable\"}",
                1, WAIT)).hasValue(1);
        assertThat(prometheus.value("pylon_broadcast_pods_asked_total{pod=\"worker-0\"}")).hasValue(2);
        assertThat(prometheus.value("pylon_broadcast_duration_seconds_count{pod=\"worker-0\"}")).hasValue(1);
        assertThat(prometheus.value("sum(pylon_broadcast_pods_failed_total{pod=\"worker-0\"})")).hasValue(1);
        assertThat(prometheus.awaitValue("up{pod=\"worker-1\"}", 0, WAIT)).hasValue(0);

        JsonNode podDown = awaitFiring("PylonPodDown");
        assertThat(podDown.path("labels").path("pod").asText()).isEqualTo("worker-1");
        assertThat(podDown.path("annotations").path("summary").asText())
                .isEqualTo("Pylon worker pod worker-1 does not answer scrapes");
        JsonNode broadcastFailing = awaitFiring("PylonBroadcastPodsFailing");
        assertThat(broadcastFailing.path("labels").path("pod").asText()).isEqualTo("worker-0");
        assertThat(broadcastFailing.path("labels").path("cause").asText()).isEqualTo("unreachable");
        assertThat(firing("PylonPodDown")).as("only the stopped pod is down").hasSize(1);
    }

    private static JsonNode awaitFiring(String alert) {
        long until = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < until) {
            List<JsonNode> firing = firing(alert);
            if (!firing.isEmpty()) {
                return firing.get(0);
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError(alert + " did not fire within " + WAIT + "; alerts: " + prometheus.alerts());
    }

    private static List<JsonNode> firing(String alert) {
        List<JsonNode> firing = new ArrayList<>();
        for (JsonNode a : prometheus.alerts()) {
            if (alert.equals(a.path("labels").path("alertname").asText()) && "firing".equals(a.path("state").asText())) {
                firing.add(a);
            }
        }
        return firing;
    }

    private static String config() {
        StringBuilder targets = new StringBuilder();
        target(targets, "manager", "manager-0", platform.manager);
        platform.workers.forEach((name, pod) -> target(targets, "worker", name, pod));
        platform.caches.forEach((name, pod) -> target(targets, "cache", name, pod));
        return "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files:\n  - pylon-rules.yml\n"
                + "scrape_configs:\n  - job_name: pylon\n    metrics_path: /platform/management/metrics\n"
                + "    static_configs:\n" + targets;
    }

    private static void target(StringBuilder targets, String module, String name, Pod pod) {
        targets.append("      - targets: ['").append(pod.identity().podIp()).append(':').append(pod.port())
                .append("']\n        labels: {module: ").append(module).append(", pod: ").append(name).append("}\n");
    }

    // The shipped rules with every `for:` at one second, so that the test does not wait minutes.
    private static String rulesWithShortFor() throws IOException {
        String rules = Files.readString(Path.of("..", "deploy", "prometheus", "pylon-rules.yml"));
        String shortened = rules.replaceAll("(?m)^(\\s+for: )\\S+$", "$11s");
        assertThat(shortened).isNotEqualTo(rules);
        return shortened;
    }
}
