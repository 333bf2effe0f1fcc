package io.pylon.core.health;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Readiness goes DOWN once the pod starts shutting down, so that no new traffic is routed to it.
 *
 * <p>Threading: the stopping thread sets a volatile flag that probe threads read, then runs the actions modules
 * registered (a copy-on-write list) on its own thread.
 */
public final class ShutdownCheck implements HealthCheck {
    private static final Logger LOG = Logger.getLogger(ShutdownCheck.class.getName());

    private volatile boolean stopping;
    private final List<Runnable> onStopping = new CopyOnWriteArrayList<>();

    public void stopping() {
        stopping = true;
        for (Runnable action : onStopping) {
            try {
                action.run();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "An action on stopping failed: " + e);
            }
        }
    }

    /** Runs {@code action} when the pod starts stopping, before it waits for its requests to finish. */
    public void onStopping(Runnable action) {
        onStopping.add(action);
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
