package io.pylon.core.health;

import java.util.Map;
import java.util.Set;

/**
 * Readiness goes DOWN once the pod starts shutting down, so that no new traffic is routed to it.
 *
 * <p>Threading: the stopping thread sets a volatile flag that probe threads read.
 */
public final class ShutdownCheck implements HealthCheck {
    private volatile boolean stopping;

    public void stopping() {
        stopping = true;
    }

    public boolean isStopping() {
        return stopping;
    }

    @Override
    public String name() {
        return "lifecycle";
    }

    @Override
    public Set<Probe> probes() {
        return Set.of(Probe.READINESS);
    }

    @Override
    public CheckResult check() {
        return CheckResult.of(!stopping, Map.of("state", stopping ? "STOPPING" : "RUNNING"));
    }
}
