package io.pylon.worker.proxy;

import io.pylon.gateway.model.InvalidProxyException;
import io.pylon.gateway.model.Route;
import io.pylon.gateway.model.UpstreamTls;
import io.pylon.worker.routes.RouteTable;
import io.pylon.gateway.model.Upstream;
import org.apache.hc.core5.pool.PoolStats;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.lang.System.Logger.Level;
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
 * One {@link UpstreamPool} per upstream origin in the routes, TLS setting and protocol it is reached with
 * ({@link PoolKey}: an {@code https://} upstream named by proxies with different {@code upstreamTls} settings gets a
 * pool for each, bounded by the number of distinct settings a bundle may hold; one named over HTTP/1.1 and HTTP/2 gets
 * one of each). When a reload drops an origin its pool is retired, not
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
    private final Map<PoolKey, UpstreamPool> pools = new ConcurrentHashMap<>();
    private final List<Retired> retired = new CopyOnWriteArrayList<>();
    private final Map<PoolKey, Set<String>> routesByPool = new ConcurrentHashMap<>();
    private final UpstreamTlsContexts tls = new UpstreamTlsContexts();
    private volatile Set<PoolKey> inUse = Set.of();

    /**
     * What a pool is for: an origin, reached with a TLS setting ({@link UpstreamTls#DEFAULTS} for plain ones), over
     * HTTP/2 or HTTP/1.1.
     */
    public record PoolKey(String origin, UpstreamTls tls, boolean http2) {
    }

    private record Retired(UpstreamPool pool, long since) {
    }

    public UpstreamPools(UpstreamPool.PoolSettings settings, Duration idleTimeout, Duration failureCooldown) {
        this.settings = settings;
        this.idleTimeout = idleTimeout;
        this.failureCooldown = failureCooldown;
    }

    /** The pool of a route's upstream with the route's TLS setting; created on first use (an older table's route may
     * still name a retired one). */
    public UpstreamPool pool(Upstream upstream, Route route) {
        return pool(upstream, route.forwarding().upstreamTls(), route.forwarding().upstreamHttp2());
    }

    /** The pool of an upstream reached the default way. */
    public UpstreamPool pool(Upstream upstream) {
        return pool(upstream, UpstreamTls.DEFAULTS);
    }

    /** The HTTP/1.1 pool of an upstream reached with {@code tls}. */
    public UpstreamPool pool(Upstream upstream, UpstreamTls tls) {
        return pool(upstream, tls, false);
    }

    /** The pool of an upstream reached with {@code tls}, over HTTP/2 or HTTP/1.1. */
    public UpstreamPool pool(Upstream upstream, UpstreamTls tls, boolean http2) {
        PoolKey key = new PoolKey(upstream.origin(), upstream.scheme().equals("https") ? tls : UpstreamTls.DEFAULTS,
                http2);
        UpstreamPool pool = pools.get(key);
        return pool != null ? pool : pools.computeIfAbsent(key,
                k -> new UpstreamPool(upstream, settings, this.tls.get(k.tls()), k.http2()));
    }

    /** The TLS context of a setting, null for the default one: for connections made outside the pools. */
    @Nullable UpstreamTlsContext tls(UpstreamTls settings) {
        return tls.get(settings);
    }

    /**
     * Brings the pools in line with a new route table: loads the TLS files it names, pools for new origins and
     * settings, retirement for dropped ones.
     *
     * @throws InvalidProxyException when a proxy's TLS files cannot be used: nothing changes, the table must not be
     *                               applied
     */
    public synchronized void sync(RouteTable table) throws InvalidProxyException {
        tls.prepare(table);
        Set<PoolKey> next = new HashSet<>();
        Map<PoolKey, Set<String>> names = new LinkedHashMap<>();
        for (Route route : table.routes()) {
            for (Upstream upstream : route.upstreams()) {
                UpstreamPool pool = pool(upstream, route);
                next.add(pool.key());
                names.computeIfAbsent(pool.key(), o -> new java.util.TreeSet<>()).add(route.name());
            }
        }
        inUse = Set.copyOf(next);
        routesByPool.clear();
        routesByPool.putAll(names);
        retireUnused();
    }

    /** Periodic: the TLS files of the routes in force are read again; a valid change serves new connections. */
    public void reloadTlsFiles() {
        tls.reloadIfChanged();
    }

    private void retireUnused() {
        for (Map.Entry<PoolKey, UpstreamPool> entry : pools.entrySet()) {
            if (!inUse.contains(entry.getKey()) && pools.remove(entry.getKey(), entry.getValue())) {
                retired.add(new Retired(entry.getValue(), System.nanoTime()));
            }
        }
    }

    /** Marks {@code pool}'s upstream failed for the cool-down, and says so (with what failed) when it was healthy. */
    void failed(UpstreamPool pool, IOException cause) {
        boolean wasHealthy = pool.isHealthy();
        pool.markFailed(failureCooldown);
        if (wasHealthy) {
            LOG.log(Level.WARNING, "Upstream " + pool.origin() + " failed (" + reason(cause)
                    + "); skipped by round robin for up to " + failureCooldown.toMillis() + " ms");
        }
    }

    // the exception's class and message, as nginx says "connect() failed (111: Connection refused)"
    private static String reason(IOException cause) {
        String message = cause.getMessage();
        String reason = cause.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
        return reason.length() <= 200 ? reason : reason.substring(0, 200) + "...";
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
            int timeout = (int) Math.min(Integer.MAX_VALUE, settings.connectTimeout().toMillis());
            socket.connect(UpstreamDns.INSTANCE.address(upstream.host(), upstream.port(), Timeout.ofMilliseconds(timeout)),
                    timeout);
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

    /** Names of the routes using a pool (empty for a retired pool). */
    public Set<String> routesOf(UpstreamPool pool) {
        return routesByPool.getOrDefault(pool.key(), Set.of());
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
