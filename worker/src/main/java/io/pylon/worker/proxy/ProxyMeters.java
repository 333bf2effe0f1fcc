package io.pylon.worker.proxy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.pylon.core.metrics.HttpServerMetrics;
import io.pylon.core.metrics.PodMetrics;
import io.pylon.gateway.model.Route;
import io.pylon.gateway.model.Upstream;
import io.pylon.worker.routes.RouteTable;
import org.apache.hc.core5.pool.PoolStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The gateway's meters. Labels are the configured route name and the upstream's origin from the routes file, never
 * the request's path; the label sets grow with the routes the operator configures (meters of routes dropped by a
 * reload stay until the pod restarts).
 * <ul>
 * <li>{@code pylon_worker_proxied_requests_total{route,upstream,status}}: requests an upstream answered, by its
 * status class; requests no upstream answered count with {@code upstream="none"} and the status class of the
 * gateway's own answer (5xx);</li>
 * <li>{@code pylon_worker_upstream_latency_seconds{upstream}}: from sending the request to the response head;</li>
 * <li>{@code pylon_worker_gateway_errors_total{cause}}: 502, 503 and 504 answers by cause (from {@link ProxyStats});</li>
 * <li>{@code pylon_worker_ratelimit_decisions_total{route,decision}}: allowed, limited, cache_unavailable;</li>
 * <li>{@code pylon_worker_upstream_pool_connections{upstream,state}}: leased, available, pending, max per pool.</li>
 * </ul>
 * Thread-safe: called concurrently by request threads; meters are created once per label set in concurrent maps,
 * the pool gauges are refreshed before each scrape. Disabled metrics make every method return at once.
 */
public final class ProxyMeters {
    private static final String[] STATUS_CLASSES = {"1xx", "2xx", "3xx", "4xx", "5xx"};
    private static final String NONE = "none";
    private static final String[] POOL_STATES = {"leased", "available", "pending", "max"};

    private final MeterRegistry registry;
    private final boolean enabled;
    private final Map<String, Counter[]> proxied = new ConcurrentHashMap<>();
    private final Map<String, Timer> latency = new ConcurrentHashMap<>();
    private final Map<String, Counter> decisions = new ConcurrentHashMap<>();
    // written by the scrape hook, read by the pool gauges during the same scrape
    private volatile Map<String, long[]> poolSums = Map.of();

    private ProxyMeters(MeterRegistry registry, boolean enabled) {
        this.registry = registry;
        this.enabled = enabled;
    }

    /** Meters that record nothing (tests, metrics off). */
    public static ProxyMeters disabled() {
        // a composite registry without registries hands out meters that record nothing
        return new ProxyMeters(new io.micrometer.core.instrument.composite.CompositeMeterRegistry(), false);
    }

    /** The gateway's meters on the pod's registry, with the error counts of {@code stats} and the pools' gauges. */
    public static ProxyMeters create(PodMetrics metrics, UpstreamPools pools) {
        if (!metrics.enabled()) {
            return disabled();
        }
        ProxyMeters meters = new ProxyMeters(metrics.registry(), true);
        MultiGauge poolGauge = MultiGauge.builder("pylon.worker.upstream.pool.connections")
                .description("Connections of an upstream's pool: leased, available (idle), pending (waiting for a "
                        + "lease), max").register(metrics.registry());
        metrics.beforeScrape(() -> meters.refreshPools(pools, poolGauge));
        return meters;
    }

    // Rows read the latest sums, so that a row is registered once and only a new or dropped upstream changes the
    // meters (re-registering every row on every scrape made a scrape cost milliseconds).
    private void refreshPools(UpstreamPools pools, MultiGauge gauge) {
        Map<String, long[]> sums = poolSums(pools);
        poolSums = sums;
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        sums.forEach((origin, values) -> {
            for (int i = 0; i < POOL_STATES.length; i++) {
                int state = i;
                rows.add(MultiGauge.Row.of(Tags.of("upstream", origin, "state", POOL_STATES[i]),
                        () -> poolValue(origin, state)));
            }
        });
        gauge.register(rows, false);
    }

    private Number poolValue(String origin, int state) {
        long[] values = poolSums.get(origin);
        return values == null ? Double.NaN : values[state];
    }

    /** Binds the 502/503/504 counts kept by {@code stats}, so that the hot path counts each failure only once. */
    void bindErrors(ProxyStats stats) {
        if (!enabled) {
            return;
        }
        errors(stats, "unreachable", stats.badGateway);
        errors(stats, "timeout", stats.gatewayTimeout);
        errors(stats, "pool_exhausted", stats.poolExhausted);
        errors(stats, "ratelimit_unavailable", stats.rateLimitUnavailable);
        errors(stats, "upstream_aborted", stats.upstreamAborted);
    }

    private void errors(ProxyStats stats, String cause, LongAdder count) {
        FunctionCounter.builder("pylon.worker.gateway.errors", count, LongAdder::sum).tag("cause", cause)
                .description("Requests the gateway answered 502, 503 or 504 itself, by cause").register(registry);
    }

    void answered(RouteTable.Entry entry, Upstream upstream, int status, long nanos) {
        if (!enabled) {
            return;
        }
        RouteMeters meters = entry.attachment(RouteMeters.class, RouteMeters::new);
        int index = meters.indexOf(upstream);
        if (index < 0) { // not one of the route's own upstreams: looked up by name
            proxied(entry.route().name(), upstream.origin(), status).increment();
            latency(upstream.origin()).record(nanos, TimeUnit.NANOSECONDS);
            return;
        }
        meters.proxied(index, status).increment();
        meters.latency(index).record(nanos, TimeUnit.NANOSECONDS);
    }

    void unanswered(RouteTable.Entry entry, int status) {
        if (enabled) {
            RouteMeters meters = entry.attachment(RouteMeters.class, RouteMeters::new);
            meters.proxied(meters.upstreams.size(), status).increment();
        }
    }

    private Timer latency(String origin) {
        Timer timer = latency.get(origin);
        if (timer == null) {
            timer = latency.computeIfAbsent(origin, o -> Timer.builder("pylon.worker.upstream.latency")
                    .description("From sending a request to an upstream to its response head")
                    .tag("upstream", o).serviceLevelObjectives(HttpServerMetrics.LATENCY_BUCKETS).register(registry));
        }
        return timer;
    }

    /**
     * One route's meters, kept with its table entry so that a request reaches them without building a key: by
     * upstream (in the route's order, then "none") and status class. The meters themselves are the registry's,
     * shared by every table that has the route.
     *
     * <p>Threading: request threads fill the arrays' slots lazily; a racing thread registers the same meter again
     * and gets the registry's one back, so any slot value is the right meter.
     */
    private final class RouteMeters {
        private final String route;
        private final List<Upstream> upstreams;
        private final Counter[][] proxied;
        private final Timer[] latencies;

        RouteMeters(Route route) {
            this.route = route.name();
            this.upstreams = route.upstreams();
            this.proxied = new Counter[upstreams.size() + 1][];
            this.latencies = new Timer[upstreams.size()];
        }

        int indexOf(Upstream upstream) {
            for (int i = 0; i < upstreams.size(); i++) {
                if (upstreams.get(i) == upstream) {
                    return i;
                }
            }
            return -1;
        }

        Counter proxied(int index, int status) {
            int statusClass = Math.min(Math.max(status / 100, 1), 5) - 1;
            Counter[] byStatus = proxied[index];
            if (byStatus == null) {
                byStatus = new Counter[STATUS_CLASSES.length];
                proxied[index] = byStatus;
            }
            Counter counter = byStatus[statusClass];
            if (counter == null) {
                counter = ProxyMeters.this.proxied(route, index == upstreams.size() ? NONE
                        : upstreams.get(index).origin(), status);
                byStatus[statusClass] = counter;
            }
            return counter;
        }

        Timer latency(int index) {
            Timer timer = latencies[index];
            if (timer == null) {
                timer = ProxyMeters.this.latency(upstreams.get(index).origin());
                latencies[index] = timer;
            }
            return timer;
        }
    }

    void decided(Route route, String decision) {
        if (!enabled) {
            return;
        }
        String key = route.name() + ' ' + decision;
        Counter counter = decisions.get(key);
        if (counter == null) {
            counter = decisions.computeIfAbsent(key, k -> Counter.builder("pylon.worker.ratelimit.decisions")
                    .description("Rate-limit decisions, by route: allowed, limited, cache_unavailable")
                    .tags("route", route.name(), "decision", decision).register(registry));
        }
        counter.increment();
    }

    private Counter proxied(String route, String upstream, int status) {
        int statusClass = Math.min(Math.max(status / 100, 1), 5) - 1;
        String key = route + ' ' + upstream;
        Counter[] byStatus = proxied.get(key);
        if (byStatus == null) {
            byStatus = proxied.computeIfAbsent(key, k -> new Counter[STATUS_CLASSES.length]);
        }
        Counter counter = byStatus[statusClass];
        if (counter == null) {
            counter = Counter.builder("pylon.worker.proxied.requests")
                    .description("Proxied requests by route, upstream and status class")
                    .tags("route", route, "upstream", upstream, "status", STATUS_CLASSES[statusClass]).register(registry);
            byStatus[statusClass] = counter; // a racing thread gets the same meter back from the registry
        }
        return counter;
    }

    // Per origin: leased, available, pending, max; a retired pool still draining is added to the live one of its origin.
    private static Map<String, long[]> poolSums(UpstreamPools pools) {
        Map<String, long[]> byOrigin = new LinkedHashMap<>();
        for (UpstreamPools.Snapshot snapshot : pools.snapshot()) {
            PoolStats stats = snapshot.stats();
            long[] sums = byOrigin.computeIfAbsent(snapshot.pool().origin(), o -> new long[POOL_STATES.length]);
            sums[0] += stats.getLeased();
            sums[1] += stats.getAvailable();
            sums[2] += stats.getPending();
            sums[3] = Math.max(sums[3], stats.getMax());
        }
        return byOrigin;
    }
}
