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
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

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
 * A proxied request's meters need no lookup and no key: each route table entry holds its route's slot numbers
 * (resolved by {@link #prepare} when a table is built), a request adds one to a slot of a flat {@link RouteCounts}
 * and records into its origin's timer by index; a count's meter is registered on the slot's first use.
 *
 * <p>Threading: called concurrently by request threads; slots and timers are given out under locks (table builds,
 * a route's first use), counted without; the rate-limit counters are created once per label set in concurrent
 * maps; the pool gauges are refreshed before each scrape. Disabled metrics make every method return at once.
 */
public final class ProxyMeters {
    private static final String[] STATUS_CLASSES = {"1xx", "2xx", "3xx", "4xx", "5xx"};
    private static final String NONE = "none";
    private static final String[] POOL_STATES = {"leased", "available", "pending", "max"};

    private final MeterRegistry registry;
    private final boolean enabled;
    // counts by route and upstream label, five slots (status classes) each; meters read them at scrape time
    private final RouteCounts proxiedCounts = new RouteCounts(STATUS_CLASSES.length);
    // latency timers by origin, in a growing array that routes index (written under this object's monitor)
    private final Map<String, Integer> timerIds = new HashMap<>();
    private volatile Timer[] timers = new Timer[0];
    private final Map<String, Map<String, Counter>> decisions = new ConcurrentHashMap<>();
    // written by the scrape hook, read by the pool gauges during the same scrape
    private volatile Map<String, long[]> poolSums = Map.of();
    // one instance: a method reference made per request is an allocation the JIT does not always remove
    private final Function<Route, int[]> slotsOf = this::slots;

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

    /** Resolves the meters of every route of {@code table} before it serves, so that no request does. */
    public void prepare(RouteTable table) {
        if (enabled) {
            table.entries().forEach(entry -> entry.attachment(int[].class, slotsOf));
        }
    }

    void answered(RouteTable.Entry entry, Upstream upstream, int status, long nanos) {
        if (!enabled) {
            return;
        }
        int[] slots = entry.attachment(int[].class, slotsOf);
        String route = entry.route().name();
        int index = indexOf(entry.route().upstreams(), upstream);
        if (index < 0) { // not one of the route's own upstreams: resolved by name
            count(proxiedCounts.group(new Series(route, upstream.origin())), route, upstream.origin(), status);
            int timer = timerId(upstream.origin()); // before reading the array, which it may grow
            timers[timer].record(nanos, TimeUnit.NANOSECONDS);
            return;
        }
        count(slots[2 * index], route, upstream.origin(), status);
        timers[slots[2 * index + 1]].record(nanos, TimeUnit.NANOSECONDS);
    }

    void unanswered(RouteTable.Entry entry, int status) {
        if (enabled) {
            int[] slots = entry.attachment(int[].class, slotsOf);
            count(slots[slots.length - 1], entry.route().name(), NONE, status);
        }
    }

    private static int indexOf(List<Upstream> upstreams, Upstream upstream) {
        for (int i = 0; i < upstreams.size(); i++) {
            if (upstreams.get(i) == upstream) {
                return i;
            }
        }
        return -1;
    }

    /** Adds one to the status class's slot of a group; the slot's meter is registered on its first count. */
    private void count(int group, String route, String upstream, int status) {
        int statusClass = Math.min(Math.max(status / 100, 1), 5) - 1;
        int slot = group + statusClass;
        if (proxiedCounts.add(slot) == 0) {
            FunctionCounter.builder("pylon.worker.proxied.requests", proxiedCounts, counts -> counts.get(slot))
                    .description("Proxied requests by route, upstream and status class")
                    .tags("route", route, "upstream", upstream, "status", STATUS_CLASSES[statusClass])
                    .register(registry);
        }
    }

    /**
     * A route's slots: for each of its upstreams, in the route's order, the first slot of its counts by status class
     * and the index of its origin's latency timer; last, the first slot of its counts with {@code upstream="none"}.
     * Only numbers into shared storage, the same whichever thread makes them.
     */
    private int[] slots(Route route) {
        List<Upstream> upstreams = route.upstreams();
        int[] slots = new int[2 * upstreams.size() + 1];
        for (int i = 0; i < upstreams.size(); i++) {
            String origin = upstreams.get(i).origin();
            slots[2 * i] = proxiedCounts.group(new Series(route.name(), origin));
            slots[2 * i + 1] = timerId(origin);
        }
        slots[slots.length - 1] = proxiedCounts.group(new Series(route.name(), NONE));
        return slots;
    }

    /** The label values of one route's counts by status class. */
    private record Series(String route, String upstream) {
    }

    private synchronized int timerId(String origin) {
        Integer known = timerIds.get(origin);
        if (known != null) {
            return known;
        }
        Timer timer = Timer.builder("pylon.worker.upstream.latency")
                .description("From sending a request to an upstream to its response head")
                .tag("upstream", origin).serviceLevelObjectives(HttpServerMetrics.LATENCY_BUCKETS).register(registry);
        Timer[] grown = Arrays.copyOf(timers, timers.length + 1);
        grown[timers.length] = timer;
        timers = grown;
        timerIds.put(origin, timers.length - 1);
        return timers.length - 1;
    }

    void decided(Route route, String decision) {
        if (!enabled) {
            return;
        }
        // by decision (a handful of constants), then by route name: no key built per request
        Map<String, Counter> byRoute = decisions.computeIfAbsent(decision, d -> new ConcurrentHashMap<>());
        Counter counter = byRoute.get(route.name());
        if (counter == null) {
            counter = byRoute.computeIfAbsent(route.name(), name -> Counter.builder("pylon.worker.ratelimit.decisions")
                    .description("Rate-limit decisions, by route: allowed, limited, cache_unavailable")
                    .tags("route", name, "decision", decision).register(registry));
        }
        counter.increment();
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
