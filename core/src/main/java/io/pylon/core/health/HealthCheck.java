package io.pylon.core.health;

import java.util.Set;

/**
 * One health check. It runs with a timeout on the pod's async executor; one that throws or overruns counts as DOWN.
 * Liveness checks must depend on nothing outside the process (Kubernetes restarts a pod whose liveness fails).
 */
public interface HealthCheck {

    enum Probe {
        /** Part of {@code /health/live}: the process itself is broken and should be restarted. */
        LIVENESS,
        /** Part of {@code /health/ready}: the pod should not receive traffic now. */
        READINESS
    }

    /** Key of the check in {@code checks}: {@code memory}, {@code threads}, {@code database}... */
    String name();

    /** Which probes the check is part of. Every check is part of the overall health. */
    Set<Probe> probes();

    CheckResult check() throws Exception;
}
