package io.pylon.core.diagnostics;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryUsage;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.RuntimeMXBean;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code jvm}: memory (heap, non-heap, every pool, buffer pools), collectors, classes, CPU, uptime, runtime. */
final class JvmSection implements DiagnosticSection {
    private final RuntimeMXBean runtime = ManagementFactory.getRuntimeMXBean();
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans();
    private final List<BufferPoolMXBean> bufferPools = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class);
    private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
    private final ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();
    private final CompilationMXBean compilation = ManagementFactory.getCompilationMXBean();
    private final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();

    @Override
    public String name() {
        return "jvm";
    }

    @Override
    public Object collect() {
        Map<String, Object> jvm = new LinkedHashMap<>();
        jvm.put("runtime", runtime());
        jvm.put("uptime", runtime.getUptime());
        jvm.put("startTime", runtime.getStartTime());
        jvm.put("startedAt", Instant.ofEpochMilli(runtime.getStartTime()).toString());
        jvm.put("memory", memory());
        jvm.put("gc", gc());
        jvm.put("classes", Map.of("loaded", classes.getLoadedClassCount(),
                "totalLoaded", classes.getTotalLoadedClassCount(), "unloaded", classes.getUnloadedClassCount()));
        jvm.put("cpu", cpu());
        if (compilation != null) {
            Map<String, Object> jit = new LinkedHashMap<>();
            jit.put("name", compilation.getName());
            jit.put("totalCompilationTime", compilation.isCompilationTimeMonitoringSupported()
                    ? compilation.getTotalCompilationTime() : -1);
            jvm.put("compilation", jit);
        }
        return jvm;
    }

    private Map<String, Object> runtime() {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("name", System.getProperty("java.runtime.name"));
        info.put("vendor", runtime.getVmVendor());
        info.put("version", Runtime.version().toString());
        info.put("vmName", runtime.getVmName());
        info.put("vmVersion", runtime.getVmVersion());
        info.put("pid", runtime.getPid());
        return info;
    }

    private Map<String, Object> memory() {
        Map<String, Object> mem = new LinkedHashMap<>();
        mem.put("heap", usage(memory.getHeapMemoryUsage()));
        mem.put("nonHeap", usage(memory.getNonHeapMemoryUsage()));
        mem.put("objectPendingFinalizationCount", memory.getObjectPendingFinalizationCount());
        List<Map<String, Object>> poolList = new ArrayList<>(pools.size());
        for (MemoryPoolMXBean pool : pools) {
            if (!pool.isValid()) {
                continue;
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", pool.getName());
            entry.put("type", pool.getType().name());
            entry.put("usage", usage(pool.getUsage()));
            entry.put("peakUsage", usage(pool.getPeakUsage()));
            MemoryUsage afterGc = pool.getCollectionUsage();
            if (afterGc != null) {
                entry.put("collectionUsage", usage(afterGc));
            }
            poolList.add(entry);
        }
        mem.put("pools", poolList);
        List<Map<String, Object>> buffers = new ArrayList<>(bufferPools.size());
        for (BufferPoolMXBean pool : bufferPools) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", pool.getName());
            entry.put("count", pool.getCount());
            entry.put("memoryUsed", pool.getMemoryUsed());
            entry.put("totalCapacity", pool.getTotalCapacity());
            buffers.add(entry);
        }
        mem.put("bufferPools", buffers);
        return mem;
    }

    private List<Map<String, Object>> gc() {
        List<Map<String, Object>> list = new ArrayList<>(collectors.size());
        for (GarbageCollectorMXBean gc : collectors) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", gc.getName());
            entry.put("collectionCount", gc.getCollectionCount());
            entry.put("collectionTime", gc.getCollectionTime());
            entry.put("memoryPools", List.of(gc.getMemoryPoolNames()));
            list.add(entry);
        }
        return list;
    }

    private Map<String, Object> cpu() {
        Map<String, Object> cpu = new LinkedHashMap<>();
        cpu.put("availableProcessors", os.getAvailableProcessors());
        cpu.put("systemLoadAverage", os.getSystemLoadAverage());
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            CpuLoad.Sample load = CpuLoad.process().current();
            cpu.put("processCpuLoad", load.process());
            cpu.put("systemCpuLoad", load.system());
            cpu.put("processCpuTime", sun.getProcessCpuTime() / 1_000_000);
        }
        return cpu;
    }

    static Map<String, Object> usage(MemoryUsage usage) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("init", usage.getInit());
        map.put("used", usage.getUsed());
        map.put("committed", usage.getCommitted());
        map.put("max", usage.getMax());
        return map;
    }
}
