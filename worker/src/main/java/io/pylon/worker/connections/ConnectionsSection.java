package io.pylon.worker.connections;

import org.jspecify.annotations.Nullable;

import io.pylon.core.diagnostics.DiagnosticSection;
import io.pylon.core.http.OpenClientConnections;
import io.pylon.worker.listener.ListenerTls;
import io.pylon.worker.proxy.ProxyStats;
import io.pylon.worker.proxy.ResponseTimeouts;
import io.pylon.worker.proxy.UpstreamPool;
import io.pylon.worker.proxy.UpstreamPools;
import io.pylon.worker.proxy.WebSocketTunnels;
import io.pylon.worker.ratelimit.GridRateLimiter;
import io.pylon.worker.routes.RoutesFile;
import org.apache.hc.core5.pool.PoolStats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * {@code connections}: the upstream pools straight from HttpClient's pool statistics ({@code active} and {@code idle}
 * are their leased and available totals), the server side, the proxied requests in flight, the proxy's outcomes, the
 * Cache client and the routes file.
 */
public final class ConnectionsSection implements DiagnosticSection {
    private final UpstreamPools pools;
    private final ServerTraffic server;
    private final ProxyStats proxy;
    private final GridRateLimiter rateLimiter;
    private final RoutesFile routes;
    private final @Nullable ListenerTls tls;
    private final WebSocketTunnels tunnels;
    private final ResponseTimeouts exchanges;

    /**
     * @param tls       the listener's TLS, null when it is plain
     * @param exchanges the proxied requests in flight
     */
    public ConnectionsSection(UpstreamPools pools, ServerTraffic server, ProxyStats proxy, GridRateLimiter rateLimiter,
                              RoutesFile routes, @Nullable ListenerTls tls, WebSocketTunnels tunnels,
                              ResponseTimeouts exchanges) {
        this.exchanges = exchanges;
        this.tls = tls;
        this.tunnels = tunnels;
        this.pools = pools;
        this.server = server;
        this.proxy = proxy;
        this.rateLimiter = rateLimiter;
        this.routes = routes;
    }

    @Override
    public String name() {
        return "connections";
    }

    @Override
    public Map<String, Object> collect() {
        List<Map<String, Object>> poolList = new ArrayList<>();
        List<UpstreamPools.Snapshot> snapshot = pools.snapshot();
        for (UpstreamPools.Snapshot pooled : snapshot) {
            UpstreamPool pool = pooled.pool();
            PoolStats stats = pooled.stats();
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", pool.origin());
            entry.put("leased", stats.getLeased());
            entry.put("available", stats.getAvailable());
            entry.put("pending", stats.getPending());
            entry.put("maxTotal", stats.getMax());
            entry.put("maxPerRoute", pool.maxPerRoute());
            entry.put("healthy", pool.isHealthy());
            entry.put("failures", pool.failures());
            entry.put("routes", List.copyOf(pools.routesOf(pool)));
            entry.put("tls", pool.tls() == null ? null : pool.tls().describe());
            poolList.add(entry);
        }
        UpstreamPools.Totals totals = UpstreamPools.totals(snapshot);
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("active", totals.leased());
        map.put("idle", totals.available());
        map.put("pending", totals.pending());
        map.put("pools", poolList);
        map.put("server", server());
        map.put("exchanges", exchanges.describe());
        map.put("websockets", tunnels.describe());
        map.put("proxy", proxy.describe());
        map.put("cache", rateLimiter.describe());
        map.put("routes", routes.describe());
        map.put("tls", tls == null ? null : tls.describe());
        return map;
    }

    private Map<String, Object> server() {
        Map<String, Object> map = new LinkedHashMap<>();
        int port = server.port();
        OptionalInt open = OpenClientConnections.count(port);
        map.put("port", port == 0 ? null : port);
        map.put("openConnections", open.isPresent() ? open.getAsInt() : null);
        map.put("requestsInFlight", server.requestsInFlight());
        map.put("requestsAccepted", server.requestsAccepted());
        return map;
    }
}
