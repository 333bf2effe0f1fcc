package io.pylon.core.health;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Deadlocked threads (monitors and ownable synchronizers). A deadlock never heals by itself: a liveness failure. */
public final class DeadlockCheck implements HealthCheck {
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    @Override
    public String name() {
        return "threads";
    }

    @Override
    public Set<Probe> probes() {
        return Set.of(Probe.LIVENESS);
    }

    @Override
    public CheckResult check() {
        long[] ids = threads.findDeadlockedThreads();
        int deadlocked = ids == null ? 0 : ids.length;
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("deadlocks", deadlocked);
        details.put("threadCount", threads.getThreadCount());
        if (ids != null) {
            details.put("deadlockedThreadIds", ids);
        }
        return CheckResult.of(deadlocked == 0, details);
    }
}
