package io.pylon.worker.connections;

import io.pylon.core.health.CheckResult;
import io.pylon.core.health.HealthCheck;
import io.pylon.worker.proxy.UpstreamPool;
import io.pylon.worker.proxy.UpstreamPools;
import org.apache.hc.core5.pool.PoolStats;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code checks.connections}: the same upstream totals as the {@code connections} section ({@code activeConnections}
 * is {@code connections.active}). Always UP: an upstream that is down is the upstream's problem, and taking the
 * Worker out of service for it would turn one broken route into a broken gateway.
 */
public final class ConnectionsCheck implements HealthCheck {
    private final UpstreamPools pools;
    private final ServerTraffic server;

    public ConnectionsCheck(UpstreamPools pools, ServerTraffic server) {
        this.pools = pools;
        this.server = server;
    }

    @Override
    public String name() {
        return "connections";
    }

    @Override
    public Set<Probe> probes() {
        return Set.of();
    }

    @Override
    public CheckResult check() {
        long leased = 0;
        long available = 0;
        long pending = 0;
        int down = 0;
        for (UpstreamPool pool : pools.all()) {
            PoolStats stats = pool.stats();
            leased += stats.getLeased();
            available += stats.getAvailable();
            pending += stats.getPending();
            if (!pool.isHealthy()) {
                down++;
            }
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("activeConnections", leased);
        details.put("idleConnections", available);
        details.put("pendingConnections", pending);
        details.put("upstreamsDown", down);
        details.put("requestsInFlight", server.requestsInFlight());
        return CheckResult.up(details);
    }
}
