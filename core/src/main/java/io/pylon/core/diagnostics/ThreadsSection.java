package io.pylon.core.diagnostics;

import io.pylon.core.pod.IoPollers;
import io.pylon.core.pod.PodExecutors;
import org.jspecify.annotations.Nullable;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadPoolExecutor;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * {@code threads}: counts, a count per state, the module's executor pools (read at each call, so pools registered
 * later show up), the virtual thread scheduler where the JDK exposes it with the kind of its I/O pollers, and the
 * deadlocked threads.
 */
final class ThreadsSection implements DiagnosticSection {
    private static final String[] SCHEDULER_ATTRIBUTES = {
            "Parallelism", "PoolSize", "MountedVirtualThreadCount", "QueuedVirtualThreadCount"};

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final PodExecutors executors;

    ThreadsSection(PodExecutors executors) {
        this.executors = executors;
    }

    @Override
    public String name() {
        return "threads";
    }

    @Override
    public Object collect() {
        Map<String, Object> section = new LinkedHashMap<>();
        long[] deadlocked = threads.findDeadlockedThreads();
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("threadCount", threads.getThreadCount());
        summary.put("peakThreadCount", threads.getPeakThreadCount());
        summary.put("daemonThreadCount", threads.getDaemonThreadCount());
        summary.put("totalStartedThreadCount", threads.getTotalStartedThreadCount());
        summary.put("deadlockedThreadCount", deadlocked == null ? 0 : deadlocked.length);
        section.put("summary", summary);
        ThreadInfo[] all = threads.getThreadInfo(threads.getAllThreadIds());
        section.put("states", states(all));
        section.put("executorPools", pools());
        Map<String, Object> virtual = virtualThreads();
        String pollers = ioPollers(all);
        if (pollers != null) {
            virtual = virtual == null ? new LinkedHashMap<>() : virtual;
            virtual.put("ioPollers", pollers);
        }
        if (virtual != null) {
            section.put("virtualThreadScheduler", virtual);
        }
        section.put("deadlockedThreads", deadlocked == null ? List.of() : describe(deadlocked));
        return section;
    }

    private static Map<Thread.State, Integer> states(@Nullable ThreadInfo[] all) {
        Map<Thread.State, Integer> counts = new EnumMap<>(Thread.State.class);
        for (Thread.State state : Thread.State.values()) {
            counts.put(state, 0);
        }
        for (ThreadInfo info : all) {
            if (info != null) {
                counts.merge(info.getThreadState(), 1, Integer::sum);
            }
        }
        return counts;
    }

    /** The kind of the JDK's I/O pollers among {@code all} ({@link IoPollers}); null before any runs. */
    private static @Nullable String ioPollers(@Nullable ThreadInfo[] all) {
        for (ThreadInfo info : all) {
            String kind = info == null ? null : IoPollers.kindOf(info.getThreadName());
            if (kind != null) {
                return kind;
            }
        }
        return null;
    }

    private Map<String, Object> pools() {
        Map<String, Object> pools = new LinkedHashMap<>();
        executors.pools().forEach((name, pool) -> pools.put(name, pool(pool)));
        return pools;
    }

    private static Map<String, Object> pool(ThreadPoolExecutor pool) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("poolSize", pool.getPoolSize());
        map.put("activeCount", pool.getActiveCount());
        map.put("queueSize", pool.getQueue().size());
        map.put("rejectedTaskCount", PodExecutors.rejectedCount(pool));
        map.put("corePoolSize", pool.getCorePoolSize());
        map.put("maximumPoolSize", pool.getMaximumPoolSize());
        map.put("largestPoolSize", pool.getLargestPoolSize());
        map.put("queueRemainingCapacity", pool.getQueue().remainingCapacity());
        map.put("completedTaskCount", pool.getCompletedTaskCount());
        return map;
    }

    private List<Map<String, Object>> describe(long[] ids) {
        List<Map<String, Object>> list = new ArrayList<>(ids.length);
        for (ThreadInfo info : threads.getThreadInfo(ids, 0)) {
            if (info == null) {
                continue;
            }
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("id", info.getThreadId());
            map.put("name", info.getThreadName());
            map.put("state", info.getThreadState().name());
            map.put("lockName", info.getLockName());
            map.put("lockOwnerId", info.getLockOwnerId());
            map.put("lockOwnerName", info.getLockOwnerName());
            list.add(map);
        }
        return list;
    }

    // JDK 24+ exposes jdk.management:type=VirtualThreadScheduler; read by name so the core also runs on JDK 21.
    private @Nullable Map<String, Object> virtualThreads() {
        if (Scheduler.NAME == null) {
            return null;
        }
        try {
            AttributeList values = Scheduler.SERVER.getAttributes(Scheduler.NAME, SCHEDULER_ATTRIBUTES);
            Map<String, Object> map = new LinkedHashMap<>();
            for (Attribute attribute : values.asList()) {
                String name = attribute.getName();
                map.put(Character.toLowerCase(name.charAt(0)) + name.substring(1), attribute.getValue());
            }
            return map;
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * Looked up on the first {@code threads} call, not at start-up: the platform MBean server registers every
     * platform MXBean when first asked for, about 0.2 s of a pod's start without a class-data-sharing archive.
     */
    private static final class Scheduler {
        static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();
        static final @Nullable ObjectName NAME = lookup();

        private static @Nullable ObjectName lookup() {
            try {
                ObjectName name = new ObjectName("jdk.management:type=VirtualThreadScheduler");
                return SERVER.isRegistered(name) ? name : null;
            } catch (Exception e) {
                return null;
            }
        }
    }
}
