package io.pylon.worker.metrics;

import io.pylon.core.testing.Promtool;
import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Worker's meters on a real pod proxying to a real upstream: counts by configured route, upstream and status
 * class, failures by cause, rate-limit decisions, pools, routes reloads; never the request's path.
 */
class WorkerMetricsTest {
    private static TestUpstream ok;
    private static TestUpstream failing;
    private static Gateway gateway;
    private static int refused;

    @BeforeAll
    static void start() {
        ok = TestUpstream.echo("ok");
        failing = TestUpstream.start(exchange -> TestUpstream.send(exchange, 503, "down".getBytes()));
        refused = TestUpstream.refusedPort();
        gateway = Gateway.start("worker-metrics", routes(""), Map.of());
    }

    private static String routes(String extra) {
        return "routes:\n"
                + "  - name: orders\n    pathPrefix: /api/orders\n    upstreams: [" + ok.url() + "]\n"
                + "  - name: flaky\n    pathPrefix: /api/flaky\n    upstreams: [" + failing.url() + "]\n"
                + "  - name: gone\n    pathPrefix: /api/gone\n    upstreams: [http://127.0.0.1:" + refused + "]\n"
                + "  - name: limited\n    pathPrefix: /api/limited\n    upstreams: [" + ok.url() + "]\n"
                + "    rateLimit: {requests: 5, per: second, onCacheUnavailable: deny}\n" + extra;
    }

    @AfterAll
    static void stop() {
        gateway.close();
        ok.close();
        failing.close();
    }

    @Test
    void proxiedRequestsFailuresAndDecisionsAreCountedByRouteNeverByPath() {
        for (int i = 0; i < 6; i++) {
            assertThat(get("/api/orders/secret-order-" + i + "?token=abc").statusCode()).isEqualTo(200);
        }
        for (int i = 0; i < 2; i++) {
            assertThat(get("/api/flaky/x").statusCode()).isEqualTo(503);
        }
        for (int i = 0; i < 3; i++) {
            assertThat(get("/api/gone/x").statusCode()).isEqualTo(502);
        }
        assertThat(get("/api/limited/x").statusCode()).isEqualTo(503); // no data grid: the limit cannot be checked

        String metrics = scrape();
        String upstream = ok.url();
        assertThat(value(metrics, "pylon_worker_proxied_requests_total{route=\"orders\",status=\"2xx\",upstream=\""
                + upstream + "\"}")).isEqualTo(6);
        assertThat(value(metrics, "pylon_worker_proxied_requests_total{route=\"flaky\",status=\"5xx\",upstream=\""
                + failing.url() + "\"}")).isEqualTo(2);
        assertThat(value(metrics, "pylon_worker_proxied_requests_total{route=\"gone\",status=\"5xx\",upstream=\"none\"}"))
                .isEqualTo(3);
        assertThat(value(metrics, "pylon_worker_gateway_errors_total{cause=\"unreachable\"}")).isEqualTo(3);
        assertThat(value(metrics, "pylon_worker_gateway_errors_total{cause=\"ratelimit_unavailable\"}")).isEqualTo(1);
        assertThat(value(metrics, "pylon_worker_ratelimit_decisions_total{decision=\"cache_unavailable\","
                + "route=\"limited\"}")).isEqualTo(1);
        assertThat(value(metrics, "pylon_worker_upstream_latency_seconds_count{upstream=\"" + upstream + "\"}"))
                .isEqualTo(6);
        assertThat(value(metrics, "pylon_worker_upstream_pool_connections{state=\"max\",upstream=\"" + upstream + "\"}"))
                .isEqualTo(200);
        assertThat(value(metrics, "http_server_requests_seconds_count{method=\"GET\",route=\"gateway\",status=\"2xx\"}"))
                .isEqualTo(6);
        assertThat(metrics).doesNotContain("secret-order").doesNotContain("token=abc").doesNotContain("/api/orders");
        Promtool.Result check = Promtool.run(metrics, "check", "metrics");
        assertThat(check.exitCode()).as(check.output()).isZero();
    }

    @Test
    void routesReloadsAndRefusalsAreCounted() {
        double loads = value(scrape(), "pylon_worker_routes_loads_total");
        double failures = value(scrape(), "pylon_worker_routes_reload_failures_total");
        gateway.rewrite("routes: [ {name: broken ");
        Gateway.await("refusal counted", 10_000, () -> value(scrape(), "pylon_worker_routes_reload_failures_total") == failures + 1);
        gateway.rewrite(routes("  - name: extra\n    pathPrefix: /api/extra\n    upstreams: [" + ok.url() + "]\n"));
        Gateway.await("reload counted", 10_000, () -> value(scrape(), "pylon_worker_routes_loads_total") == loads + 1);
        assertThat(value(scrape(), "pylon_worker_routes")).isEqualTo(5);
    }

    private static java.net.http.HttpResponse<String> get(String path) {
        return TestPods.send(HttpRequest.newBuilder(URI.create(gateway.url(path))).build());
    }

    private static String scrape() {
        return TestPods.get(gateway.pod, "/platform/management/metrics").body();
    }

    private static double value(String metrics, String series) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(metrics);
        assertThat(m.find()).as(series + " in\n" + metrics).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
