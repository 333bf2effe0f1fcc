package io.pylon.worker.proxy;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pylon.core.version.BuildInfo;
import io.pylon.core.metrics.PodMetrics;
import io.pylon.gateway.model.Policies;
import io.pylon.gateway.model.Route;
import io.pylon.gateway.model.Upstream;
import io.pylon.worker.routes.RouteTable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The per-route counts behind {@code pylon_worker_proxied_requests_total}: the series and values a scrape shows, kept
 * across route table swaps, with a series only for what was counted.
 */
class ProxyMetersTest {
    private static final Upstream FIRST = new Upstream("http", "127.0.0.1", 1, "", null, 1);
    private static final Upstream SECOND = new Upstream("http", "127.0.0.1", 2, "", null, 1);

    private final PodMetrics metrics = PodMetrics.create(true, "worker", BuildInfo.load());
    private final UpstreamPools pools = new UpstreamPools(
            new UpstreamPool.PoolSettings(10, 10, Duration.ofSeconds(2), Duration.ofSeconds(2)),
            Duration.ofSeconds(30), Duration.ofSeconds(30));
    private final ProxyMeters meters = ProxyMeters.create(metrics, pools);

    @AfterEach
    void close() throws Exception {
        pools.close();
        metrics.close();
    }

    @Test
    void countsByRouteUpstreamAndStatusClassSurviveATableSwap() {
        RouteTable table = table(route("orders", FIRST, SECOND), route("idle", FIRST));
        meters.prepare(table);
        RouteTable.Entry orders = entry(table, "orders");
        for (int i = 0; i < 3; i++) {
            meters.answered(orders, orders.route().upstreams().get(0), 200, 1_000_000);
        }
        meters.answered(orders, orders.route().upstreams().get(1), 503, 2_000_000);
        meters.unanswered(orders, 502);

        RouteTable next = table(route("orders", FIRST, SECOND));
        meters.prepare(next);
        RouteTable.Entry again = entry(next, "orders");
        meters.answered(again, again.route().upstreams().get(0), 204, 1_000_000);
        meters.answered(again, FIRST, 404, 1_000_000); // an upstream object of no route: found by its labels
        Upstream elsewhere = new Upstream("http", "127.0.0.1", 3, "", null, 1); // an origin no route names
        meters.answered(again, elsewhere, 200, 1_000_000);

        String scraped = scrape();
        assertThat(value(scraped, "pylon_worker_proxied_requests_total{route=\"orders\",status=\"2xx\",upstream=\""
                + FIRST.origin() + "\"}")).isEqualTo(4);
        assertThat(value(scraped, "pylon_worker_proxied_requests_total{route=\"orders\",status=\"4xx\",upstream=\""
                + FIRST.origin() + "\"}")).isEqualTo(1);
        assertThat(value(scraped, "pylon_worker_proxied_requests_total{route=\"orders\",status=\"5xx\",upstream=\""
                + SECOND.origin() + "\"}")).isEqualTo(1);
        assertThat(value(scraped, "pylon_worker_proxied_requests_total{route=\"orders\",status=\"5xx\",upstream=\"none\"}"))
                .isEqualTo(1);
        assertThat(value(scraped, "pylon_worker_upstream_latency_seconds_count{upstream=\"" + FIRST.origin() + "\"}"))
                .isEqualTo(5);
        assertThat(value(scraped, "pylon_worker_proxied_requests_total{route=\"orders\",status=\"2xx\",upstream=\""
                + elsewhere.origin() + "\"}")).isEqualTo(1);
        assertThat(value(scraped, "pylon_worker_upstream_latency_seconds_count{upstream=\"" + elsewhere.origin() + "\"}"))
                .isEqualTo(1);
        assertThat(scraped).contains("# TYPE pylon_worker_proxied_requests_total counter")
                .doesNotContain("route=\"idle\"") // prepared, never counted: no series
                .doesNotContain("status=\"3xx\"");
    }

    @Test
    void concurrentRequestsLoseNoCountAndRegisterEachSeriesOnce() throws Exception {
        List<Route> routes = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            routes.add(route("r" + i, FIRST));
        }
        RouteTable table = table(routes.toArray(Route[]::new));
        int threads = 4;
        int perThread = 3_000;
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < perThread; i++) {
                        RouteTable.Entry entry = table.entries().get(i % table.entries().size());
                        meters.answered(entry, entry.route().upstreams().get(0), 200, 1000);
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : done) {
                f.get();
            }
        }
        String scraped = scrape();
        double total = 0;
        for (int i = 0; i < 300; i++) {
            total += value(scraped, "pylon_worker_proxied_requests_total{route=\"r" + i + "\",status=\"2xx\",upstream=\""
                    + FIRST.origin() + "\"}");
        }
        assertThat(total).isEqualTo(threads * perThread);
        assertThat(Pattern.compile("(?m)^pylon_worker_proxied_requests_total\\{").matcher(scraped).results().count())
                .isEqualTo(300);
    }

    private static Route route(String name, Upstream... upstreams) {
        return new Route(name, "/" + name, Set.of(), null, List.of(upstreams), false, Duration.ofSeconds(1),
                Duration.ofSeconds(5), null, Policies.NONE);
    }

    private static RouteTable table(Route... routes) {
        return new RouteTable(List.of(routes));
    }

    private static RouteTable.Entry entry(RouteTable table, String name) {
        return table.entries().stream().filter(e -> e.route().name().equals(name)).findFirst().orElseThrow();
    }

    private String scrape() {
        return ((PrometheusMeterRegistry) metrics.registry()).scrape();
    }

    private static double value(String metrics, String series) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(metrics);
        assertThat(m.find()).as(series + " in\n" + metrics).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
