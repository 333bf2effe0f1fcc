package io.pylon.core.diagnostics;

import io.pylon.core.health.HealthRegistry;
import io.pylon.core.health.HealthReport;
import io.pylon.core.health.HealthStatus;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.RuntimeMXBean;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code health}: the pod's status, uptime and start time, basic system information, and its checks: every check of
 * the health registry (memory, threads with deadlocks, the module's own) plus {@code diskSpace} of the dump directory,
 * and the build it runs ({@code build}: version, commit, dirty), which {@code compare} checks for drift.
 */
final class HealthSection implements DiagnosticSection {
    private final HealthRegistry registry;
    private final DumpDirectory dumps;
    private final RuntimeMXBean runtime = ManagementFactory.getRuntimeMXBean();
    private final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    // Resolved once: a slow resolver must not slow every health answer.
    private final String hostname = io.pylon.core.pod.LocalHost.name();
    private final Map<String, Object> build = build(io.pylon.core.version.BuildInfo.load());

    HealthSection(HealthRegistry registry, DumpDirectory dumps) {
        this.registry = registry;
        this.dumps = dumps;
    }

    @Override
    public String name() {
        return "health";
    }

    @Override
    public Object collect() {
        HealthReport report = registry.all();
        Map<String, Object> checks = report.checksAsMap();
        Map<String, Object> disk = dumps.diskSpace();
        checks.put("diskSpace", disk);
        boolean up = report.status() == HealthStatus.UP && HealthStatus.UP.name().equals(disk.get("status"));

        Map<String, Object> health = new LinkedHashMap<>();
        health.put("status", up ? HealthStatus.UP.name() : HealthStatus.DOWN.name());
        health.put("uptime", runtime.getUptime());
        health.put("startTime", Instant.ofEpochMilli(runtime.getStartTime()).toString());
        health.put("system", system());
        health.put("build", build);
        health.put("checks", checks);
        return health;
    }

    private static Map<String, Object> build(io.pylon.core.version.BuildInfo info) {
        Map<String, Object> build = new LinkedHashMap<>();
        build.put("version", info.version());
        build.put("commit", info.commit());
        build.put("dirty", info.dirty());
        return java.util.Collections.unmodifiableMap(build);
    }

    private Map<String, Object> system() {
        Map<String, Object> system = new LinkedHashMap<>();
        system.put("hostname", hostname);
        system.put("os", os.getName());
        system.put("osVersion", os.getVersion());
        system.put("arch", os.getArch());
        system.put("availableProcessors", os.getAvailableProcessors());
        system.put("systemLoadAverage", os.getSystemLoadAverage());
        system.put("javaVersion", Runtime.version().toString());
        system.put("javaVendor", System.getProperty("java.vendor"));
        system.put("pid", runtime.getPid());
        return system;
    }
}
