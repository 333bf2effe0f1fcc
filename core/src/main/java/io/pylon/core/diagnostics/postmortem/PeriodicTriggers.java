package io.pylon.core.diagnostics.postmortem;

import io.pylon.core.health.HealthCheck;
import io.pylon.core.health.HealthRegistry;
import io.pylon.core.health.HealthReport;
import io.pylon.core.health.HealthStatus;
import io.pylon.core.health.MemoryCheck;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The triggers found by looking: a deadlock (new deadlocked threads), the liveness probe turning DOWN, the heap after
 * GC rising above {@code pylon.health.heap-threshold}. Each fires on the change, not on every look while the state
 * lasts (the black box's rate limit is the second line). Everything found in one look makes one capture.
 *
 * <p>Threading: {@link #check()} runs only on the pod's maintenance executor with a fixed delay, never overlapping
 * itself, so the fields below are confined to it.
 */
final class PeriodicTriggers implements Runnable {
    private final BlackBox blackBox;
    private final HealthRegistry health;
    private final MemoryCheck memory;
    private long[] lastDeadlocked = new long[0];
    private boolean livenessDown;
    private boolean heapAbove;

    PeriodicTriggers(BlackBox blackBox, HealthRegistry health, MemoryCheck memory) {
        this.blackBox = blackBox;
        this.health = health;
        this.memory = memory;
    }

    @Override
    public void run() {
        check();
    }

    /** Looks once and writes a capture when something changed for the worse; what it fired, for tests. */
    List<BlackBox.Firing> check() {
        List<BlackBox.Firing> firings = new ArrayList<>();
        // the liveness probe's deadlock check looks (each look stops every thread at a safepoint): its answer is
        // reused rather than a second look every period
        HealthReport liveness = health.probe(HealthCheck.Probe.LIVENESS);
        long[] deadlocked = deadlockedIds(liveness);
        Arrays.sort(deadlocked);
        if (deadlocked.length > 0 && !Arrays.equals(deadlocked, lastDeadlocked)) {
            firings.add(new BlackBox.Firing(Trigger.DEADLOCK, deadlocked.length + " threads deadlocked (ids "
                    + Arrays.stream(deadlocked).mapToObj(String::valueOf).collect(Collectors.joining(", ")) + ")"));
        }
        lastDeadlocked = deadlocked;

        if (!liveness.isUp() && !livenessDown) {
            firings.add(new BlackBox.Firing(Trigger.LIVENESS_DOWN, "liveness DOWN: " + liveness.checks().entrySet()
                    .stream().filter(e -> e.getValue().status() == HealthStatus.DOWN).map(java.util.Map.Entry::getKey)
                    .collect(Collectors.joining(", "))));
        }
        livenessDown = !liveness.isUp();

        double share = memory.retainedShare();
        boolean above = share > memory.threshold();
        if (above && !heapAbove) {
            firings.add(new BlackBox.Firing(Trigger.HEAP_AFTER_GC, String.format(Locale.ROOT,
                    "heap after GC at %.1f%% of the maximum, above the threshold of %.1f%%", share * 100,
                    memory.threshold() * 100)));
        }
        heapAbove = above;

        if (!firings.isEmpty()) {
            blackBox.capture(firings);
        }
        return firings;
    }

    /** The deadlocked thread ids the liveness probe's {@code threads} check reported; none when it did not answer. */
    private static long[] deadlockedIds(HealthReport liveness) {
        io.pylon.core.health.CheckResult threads = liveness.checks().get("threads");
        Object ids = threads == null ? null : threads.details().get("deadlockedThreadIds");
        return ids instanceof long[] found ? found.clone() : new long[0];
    }
}
