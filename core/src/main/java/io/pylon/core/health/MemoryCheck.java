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
        long max = heap.getMax() > 0 ? heap.getMax() : heap.getCommitted();
        long afterGc = 0;
        boolean collected = false;
        for (MemoryPoolMXBean pool : heapPools) {
            MemoryUsage usage = pool.getCollectionUsage();
            if (usage != null && usage.getUsed() > 0) {
                collected = true;
                afterGc += usage.getUsed();
            }
        }
        long retained = collected ? afterGc : heap.getUsed();
        double ratio = max > 0 ? (double) retained / max : 0;
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("heapUsed", heap.getUsed());
        details.put("heapMax", heap.getMax());
        details.put("heapUsedAfterGc", retained);
        details.put("ratio", Math.round(ratio * 1000) / 1000.0);
        details.put("threshold", threshold);
        return CheckResult.of(ratio <= threshold, details);
    }
}
