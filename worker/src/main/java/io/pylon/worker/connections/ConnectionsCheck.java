package io.pylon.worker.connections;

import io.pylon.core.health.CheckResult;
import io.pylon.core.health.HealthCheck;
import io.pylon.worker.proxy.UpstreamPools;

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
        UpstreamPools.Totals totals = pools.totals();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("activeConnections", totals.leased());
        details.put("idleConnections", totals.available());
        details.put("pendingConnections", totals.pending());
        details.put("upstreamsDown", totals.unhealthy());
        details.put("requestsInFlight", server.requestsInFlight());
        return CheckResult.up(details);
    }
}
