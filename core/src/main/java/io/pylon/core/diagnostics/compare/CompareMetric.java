package io.pylon.core.diagnostics.compare;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Iterator;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * The numbers {@code compare} reads from each pod's answer (its {@code jvm}, {@code threads}, {@code health},
 * {@code connections} on a Worker, {@code datagrid} on a Cache), each with the smallest distance from the median that
 * counts as different: without it, pods that differ by a thread or a megabyte would stand out whenever the others are
 * nearly equal (a tiny MAD makes any difference a large score). A metric a pod does not report (another module's
 * section, a section that failed, a CPU load the JVM cannot read) leaves that pod out of that metric only.
 */
public enum CompareMetric {
    HEAP_AFTER_GC("heapAfterGc", "heap after GC", "bytes", 32.0 * 1024 * 1024, CompareMetric::heapAfterGc),
    HEAP_USED("heapUsed", "heap used", "bytes", 64.0 * 1024 * 1024, a -> number(a, "jvm", "memory", "heap", "used")),
    GC_TIME_RATE("gcTimeRate", "GC time per second of uptime", "ms/s", 20, CompareMetric::gcTimeRate),
    CPU_LOAD("cpuLoad", "process CPU load", "fraction", 0.1, a -> nonNegative(number(a, "jvm", "cpu", "processCpuLoad"))),
    UPTIME("uptime", "uptime", "ms", 5 * 60_000, a -> number(a, "jvm", "uptime")),
    THREADS("threadCount", "live threads", "threads", 10, a -> number(a, "threads", "summary", "threadCount")),
    RUNNABLE("threadsRunnable", "RUNNABLE threads", "threads", 5, a -> number(a, "threads", "states", "RUNNABLE")),
    BLOCKED("threadsBlocked", "BLOCKED threads", "threads", 5, a -> number(a, "threads", "states", "BLOCKED")),
    WAITING("threadsWaiting", "WAITING threads", "threads", 10, a -> number(a, "threads", "states", "WAITING")),
    TIMED_WAITING("threadsTimedWaiting", "TIMED_WAITING threads", "threads", 10,
            a -> number(a, "threads", "states", "TIMED_WAITING")),
    DEADLOCKED("deadlockedThreads", "deadlocked threads", "threads", 1,
            a -> number(a, "threads", "summary", "deadlockedThreadCount")),
    POOL_PENDING("poolPending", "tasks queued in the pod's executor pools", "tasks", 10, CompareMetric::poolPending),
    CHECKS_DOWN("checksDown", "health checks not UP", "checks", 1, CompareMetric::checksDown),
    OPEN_CONNECTIONS("openConnections", "open client connections", "connections", 10,
            a -> number(a, "connections", "server", "openConnections")),
    UPSTREAM_ACTIVE("upstreamActive", "upstream connections in use", "connections", 10,
            a -> number(a, "connections", "active")),
    UPSTREAM_PENDING("upstreamPending", "requests waiting for an upstream connection", "requests", 5,
            a -> number(a, "connections", "pending")),
    PROXY_5XX("proxy5xx", "5xx answered by the gateway (502, 503, 504)", "responses", 10, CompareMetric::proxy5xx),
    GRID_MEMBERS("gridMembers", "data grid members seen", "members", 1, a -> number(a, "datagrid", "memberCount")),
    OWNED_PARTITIONS("ownedPartitions", "data grid partitions owned", "partitions", 10,
            a -> number(a, "datagrid", "ownedPartitions"));

    private final String key;
    private final String label;
    private final String unit;
    private final double minDeviation;
    private final Function<JsonNode, OptionalDouble> reader;

    CompareMetric(String key, String label, String unit, double minDeviation, Function<JsonNode, OptionalDouble> reader) {
        this.key = key;
        this.label = label;
        this.unit = unit;
        this.minDeviation = minDeviation;
        this.reader = reader;
    }

    /** The name in {@code outliers[].metric} and {@code pods[].metrics}. */
    public String key() {
        return key;
    }

    public String label() {
        return label;
    }

    public String unit() {
        return unit;
    }

    /** The smallest distance from the median that makes a pod an outlier, whatever its score. */
    public double minDeviation() {
        return minDeviation;
    }

    /** This metric's value in one pod's answer, if the pod reports it. */
    public OptionalDouble read(JsonNode answer) {
        return reader.apply(answer);
    }

    private static OptionalDouble heapAfterGc(JsonNode answer) {
        JsonNode pools = answer.path("jvm").path("memory").path("pools");
        double sum = 0;
        boolean any = false;
        for (JsonNode pool : pools) {
            JsonNode used = pool.path("collectionUsage").path("used");
            if ("HEAP".equals(pool.path("type").asText()) && used.isNumber()) {
                sum += used.asDouble();
                any = true;
            }
        }
        return any ? OptionalDouble.of(sum) : OptionalDouble.empty();
    }

    private static OptionalDouble gcTimeRate(JsonNode answer) {
        OptionalDouble uptime = number(answer, "jvm", "uptime");
        JsonNode collectors = answer.path("jvm").path("gc");
        if (uptime.isEmpty() || uptime.getAsDouble() <= 0 || !collectors.isArray()) {
            return OptionalDouble.empty();
        }
        double millis = 0;
        for (JsonNode collector : collectors) {
            millis += Math.max(0, collector.path("collectionTime").asDouble());
        }
        return OptionalDouble.of(millis * 1000 / uptime.getAsDouble());
    }

    private static OptionalDouble poolPending(JsonNode answer) {
        JsonNode pools = answer.path("threads").path("executorPools");
        if (!pools.isObject()) {
            return OptionalDouble.empty();
        }
        double queued = 0;
        for (JsonNode pool : pools) {
            queued += pool.path("queueSize").asDouble();
        }
        return OptionalDouble.of(queued);
    }

    private static OptionalDouble checksDown(JsonNode answer) {
        JsonNode checks = answer.path("health").path("checks");
        if (!checks.isObject()) {
            return OptionalDouble.empty();
        }
        int down = 0;
        for (Iterator<JsonNode> it = checks.elements(); it.hasNext(); ) {
            if (!"UP".equals(it.next().path("status").asText())) {
                down++;
            }
        }
        return OptionalDouble.of(down);
    }

    private static OptionalDouble proxy5xx(JsonNode answer) {
        JsonNode proxy = answer.path("connections").path("proxy");
        if (!proxy.isObject()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(proxy.path("badGateway").asDouble() + proxy.path("gatewayTimeout").asDouble()
                + proxy.path("poolExhausted").asDouble() + proxy.path("rateLimitUnavailable").asDouble());
    }

    private static OptionalDouble number(JsonNode answer, String... path) {
        JsonNode node = answer;
        for (String step : path) {
            node = node.path(step);
        }
        return node.isNumber() ? OptionalDouble.of(node.asDouble()) : OptionalDouble.empty();
    }

    // The JDK answers a negative CPU load when it cannot measure one.
    private static OptionalDouble nonNegative(OptionalDouble value) {
        return value.isPresent() && value.getAsDouble() >= 0 ? value : OptionalDouble.empty();
    }
}
