package io.pylon.worker.config;

import io.pylon.core.health.CheckResult;
import io.pylon.core.health.HealthCheck;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code checks.config} (readiness): DOWN until the pod has a configuration in force (from the Manager, its disk copy
 * or the grid), so that no traffic reaches a gateway that would answer every path with an error.
 */
public final class ConfigCheck implements HealthCheck {
    private final GatewayConfig config;

    public ConfigCheck(GatewayConfig config) {
        this.config = config;
    }

    @Override
    public String name() {
        return "config";
    }

    @Override
    public Set<Probe> probes() {
        return Set.of(Probe.READINESS);
    }

    @Override
    public CheckResult check() {
        GatewayConfig.Applied applied = config.applied();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("appliedVersion", applied == null ? null : applied.version());
        details.put("source", applied == null ? null : applied.source());
        return CheckResult.of(applied != null, details);
    }
}
