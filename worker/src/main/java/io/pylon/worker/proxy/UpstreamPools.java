package io.pylon.worker.proxy;

import io.pylon.gateway.model.Route;
import io.pylon.worker.routes.RouteTable;
import io.pylon.gateway.model.Upstream;
import org.apache.hc.core5.pool.PoolStats;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

/**
 * One {@link UpstreamPool} per upstream origin in the routes. When a reload drops an origin its pool is retired, not
 * closed: requests still using it finish, and it is closed once it has no leased connection left. Periodic work
 * ({@link #maintain}, run on the maintenance executor) evicts idle connections, closes drained retired pools and
 * probes upstreams that failed, so they come back before their cool-down ends.
 *
 * <p>Threading: request threads look pools up concurrently in a concurrent map; {@link #sync} (on a routes reload),
 * {@link #maintain} (maintenance executor) and {@link #close} hold this object's monitor, so they never run at once.
 * The set of origins in use is an immutable value in a volatile field; retired pools are a copy-on-write list.
 */
public final class UpstreamPools implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(UpstreamPools.class.getName());
    // A retired pool may have been handed to a request a moment before it was retired; wait this long before
    // trusting "no leased connection" to mean nobody will lease one.
    private static final long RETIRE_GRACE_NANOS = Duration.ofSeconds(5).toNanos();

    private final UpstreamPool.PoolSettings settings;
    private final Duration idleTimeout;
    private final Duration failureCooldown;
    private final Map<String, UpstreamPool> pools = new ConcurrentHashMap<>();
    private final List<Retired> retired = new CopyOnWriteArrayList<>();
    private final Map<String, Set<String>> routesByOrigin = new ConcurrentHashMap<>();
    private volatile Set<String> origins = Set.of();

    private record Retired(UpstreamPool pool, long since) {
    }

    public UpstreamPools(UpstreamPool.PoolSettings settings, Duration idleTimeout, Duration failureCooldown) {
        this.settings = settings;
        this.idleTimeout = idleTimeout;
        this.failureCooldown = failureCooldown;
    }

    /** The pool of an upstream; created on first use (a route of an older table may still name a retired origin). */
    public UpstreamPool pool(Upstream upstream) {
        UpstreamPool pool = pools.get(upstream.origin());
        return pool != null ? pool : pools.computeIfAbsent(upstream.origin(), o -> new UpstreamPool(upstream, settings));
    }

    /** Brings the pools in line with a new route table: pools for new origins, retirement for dropped ones. */
    public synchronized void sync(RouteTable table) {
        Set<String> next = new HashSet<>();
        Map<String, Set<String>> names = new LinkedHashMap<>();
        for (Route route : table.routes()) {
            for (Upstream upstream : route.upstreams()) {
                next.add(upstream.origin());
                names.computeIfAbsent(upstream.origin(), o -> new java.util.TreeSet<>()).add(route.name());
                pool(upstream);
            }
        }
        origins = Set.copyOf(next);
        routesByOrigin.clear();
        routesByOrigin.putAll(names);
        retireUnused();
    }

    private void retireUnused() {
        for (Map.Entry<String, UpstreamPool> entry : pools.entrySet()) {
            if (!origins.contains(entry.getKey()) && pools.remove(entry.getKey(), entry.getValue())) {
                retired.add(new Retired(entry.getValue(), System.nanoTime()));
            }
        }
    }

    void failed(UpstreamPool pool) {
        boolean wasHealthy = pool.isHealthy();
        pool.markFailed(failureCooldown);
        if (wasHealthy) {
            LOG.log(Level.WARNING, "Upstream " + pool.origin() + " failed; skipped by round robin for up to "
                    + failureCooldown.toMillis() + " ms");
        }
    }

    /** Periodic: evicts idle connections, closes drained retired pools, probes failed upstreams on {@code async}. */
    public synchronized void maintain(ExecutorService async) {
        retireUnused();
        for (UpstreamPool pool : pools.values()) {
            pool.evict(idleTimeout);
            if (!pool.isHealthy()) {
                probeLater(pool, async);
            } else if (pool.failedRecently()) {
                pool.markHealthy();
            }
        }
        long now = System.nanoTime();
        for (Retired r : retired) {
            r.pool().evict(idleTimeout);
            PoolStats stats = r.pool().stats();
            if (now - r.since() > RETIRE_GRACE_NANOS && stats.getLeased() == 0 && stats.getPending() == 0) {
                retired.remove(r);
                r.pool().close();
            }
        }
    }

    private void probeLater(UpstreamPool pool, ExecutorService async) {
        try {
            async.execute(() -> probe(pool));
        } catch (RejectedExecutionException e) {
            // the async pool is saturated: the cool-down still ends on its own
        }
    }

    private void probe(UpstreamPool pool) {
        Upstream upstream = pool.upstream();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(upstream.host(), upstream.port()),
                    (int) Math.min(Integer.MAX_VALUE, settings.connectTimeout().toMillis()));
            pool.markHealthy();
            LOG.log(Level.INFO, "Upstream " + pool.origin() + " accepts connections again");
        } catch (IOException e) {
            // still down; the next round probes again
        }
    }

    /** Every pool in use, then the retired ones still draining. */
    public List<UpstreamPool> all() {
        List<UpstreamPool> all = new ArrayList<>(pools.values());
        all.sort(java.util.Comparator.comparing(UpstreamPool::origin));
        for (Retired r : retired) {
            all.add(r.pool());
        }
        return all;
    }

    /** Sums over every pool, retired ones included: what {@code connections.active/idle} and health report. */
    public record Totals(long leased, long available, long pending, int unhealthy) {
    }

    /** One pool with its statistics, read once. */
    public record Snapshot(UpstreamPool pool, PoolStats stats) {
    }

    public List<Snapshot> snapshot() {
        return all().stream().map(pool -> new Snapshot(pool, pool.stats())).toList();
    }

    public Totals totals() {
        return totals(snapshot());
    }

    public static Totals totals(List<Snapshot> snapshot) {
        long leased = 0;
        long available = 0;
        long pending = 0;
        int unhealthy = 0;
        for (Snapshot entry : snapshot) {
            leased += entry.stats().getLeased();
            available += entry.stats().getAvailable();
            pending += entry.stats().getPending();
            if (!entry.pool().isHealthy()) {
                unhealthy++;
            }
        }
        return new Totals(leased, available, pending, unhealthy);
    }

    /** Names of the routes using an origin (empty for a retired pool). */
    public Set<String> routesOf(@Nullable String origin) {
        return routesByOrigin.getOrDefault(origin, Set.of());
    }

    @Override
    public synchronized void close() {
        for (UpstreamPool pool : pools.values()) {
            pool.close();
        }
        for (Retired r : retired) {
            r.pool().close();
        }
        pools.clear();
        retired.clear();
    }
}
