package io.pylon.worker.connections;

import io.pylon.core.health.CheckResult;
import io.pylon.core.health.HealthCheck;
import io.pylon.worker.ratelimit.GridRateLimiter;

import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * {@code checks.cache}: the Cache client's state and whether rate limits run degraded. It stays UP (and in no
 * probe): Kubernetes probes call the overall health, and restarting or unrouting every Worker because the Cache is
 * down would stop all traffic, while each rate-limited route already says whether to allow or deny meanwhile.
 */
public final class CacheCheck implements HealthCheck {
    private final GridRateLimiter rateLimiter;
    private final BooleanSupplier anyRouteLimited;

    public CacheCheck(GridRateLimiter rateLimiter, BooleanSupplier anyRouteLimited) {
        this.rateLimiter = rateLimiter;
        this.anyRouteLimited = anyRouteLimited;
    }

    @Override
    public String name() {
        return "cache";
    }

    @Override
    public Set<Probe> probes() {
        return Set.of();
    }

    @Override
    public CheckResult check() {
        Map<String, Object> described = rateLimiter.describe();
        Object state = described.get("state");
        boolean limited = anyRouteLimited.getAsBoolean();
        boolean degraded = limited && (rateLimiter.isDegraded() || !"CONNECTED".equals(state));
        return CheckResult.up(Map.of("state", String.valueOf(state), "rateLimitedRoutes", limited, "degraded", degraded));
    }
}
