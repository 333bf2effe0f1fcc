package io.pylon.core.server;

import io.pylon.core.health.CheckResult;
import io.pylon.core.health.HealthCheck;

import java.util.Map;
import java.util.Set;

/** Liveness: DOWN while the listener is dead and could not be restarted, so that Kubernetes restarts the pod. */
final class ListenerCheck implements HealthCheck {
    private final PodListener listener;
    private final ConnectionTimeouts timeouts;
    private final int maxConnections;

    ListenerCheck(PodListener listener, ConnectionTimeouts timeouts, int maxConnections) {
        this.listener = listener;
        this.timeouts = timeouts;
        this.maxConnections = maxConnections;
    }

    @Override
    public String name() {
        return "listener";
    }

    @Override
    public Set<Probe> probes() {
        return Set.of(Probe.LIVENESS);
    }

    @Override
    public CheckResult check() {
        long[] closed = timeouts.closedByTimeout();
        return CheckResult.of(listener.isAccepting(), Map.of(
                "clientConnections", timeouts.open(),
                "maxConnections", maxConnections,
                "restarts", listener.restarts(),
                "closedIdle", closed[0],
                "closedSlowHeaders", closed[1],
                "closedStalledBody", closed[2],
                "closedSlowReader", closed[4],
                "lingering", timeouts.lingering(),
                "lingeringCut", closed[3]));
    }
}
