package io.pylon.core.health;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Heap pressure: the share of the maximum heap still in use after the last garbage collection (what a collection
 * could not free). DOWN above the threshold. Before any collection ran, the current use counts.
 */
public final class MemoryCheck implements HealthCheck {
    private final double threshold;
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final List<MemoryPoolMXBean> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP).toList();

    public MemoryCheck(double threshold) {
        this.threshold = threshold;
    }

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public Set<Probe> probes() {
        return Set.of(Probe.READINESS);
    }

    @Override
    public CheckResult check() {
        MemoryUsage heap = memory.getHeapMemoryUsage();
        long retained = retained(heap);
        double ratio = ratio(heap, retained);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("heapUsed", heap.getUsed());
        details.put("heapMax", heap.getMax());
        details.put("heapUsedAfterGc", retained);
        details.put("ratio", Math.round(ratio * 1000) / 1000.0);
        details.put("threshold", threshold);
        return CheckResult.of(ratio <= threshold, details);
    }

    /** The share of the maximum heap in use after the last collection (the current use before any), 0 to 1. */
    public double retainedShare() {
        MemoryUsage heap = memory.getHeapMemoryUsage();
        return ratio(heap, retained(heap));
    }

    public double threshold() {
        return threshold;
    }

    private long retained(MemoryUsage heap) {
        long afterGc = 0;
        boolean collected = false;
        for (MemoryPoolMXBean pool : heapPools) {
            MemoryUsage usage = pool.getCollectionUsage();
            if (usage != null && usage.getUsed() > 0) {
                collected = true;
                afterGc += usage.getUsed();
            }
        }
        return collected ? afterGc : heap.getUsed();
    }

    private static double ratio(MemoryUsage heap, long retained) {
        long max = heap.getMax() > 0 ? heap.getMax() : heap.getCommitted();
        return max > 0 ? (double) retained / max : 0;
    }
}
