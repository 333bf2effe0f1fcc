package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

import java.util.List;

/**
 * One pod as {@code pods} and {@code top} show it, read from its {@code jvm}, {@code threads}, {@code health} and
 * (Worker) {@code connections} answers. A pod that did not answer has {@code errorStatus} and {@code error} set and
 * the figures null; so does a module whose whole broadcast failed (then {@code name} is null).
 */
public record PodSnapshot(@Nullable String name, String module, @Nullable Integer errorStatus, @Nullable String error, @Nullable String health, @Nullable String version,
                          @Nullable Long uptimeMs, @Nullable Long heapUsed, @Nullable Long heapMax, @Nullable Double cpu, @Nullable Integer threads, @Nullable Integer blocked,
                          @Nullable Integer deadlocks, @Nullable Integer connections, @Nullable Integer pending, @Nullable Long rejected, List<String> compared) {

    public PodSnapshot {
        compared = compared == null ? List.of() : List.copyOf(compared);
    }

    /** The same pod with the flags of the fleet comparison ({@link ComparisonFlags}). */
    PodSnapshot withCompared(List<String> flags) {
        return new PodSnapshot(name, module, errorStatus, error, health, version, uptimeMs, heapUsed, heapMax, cpu, threads,
                blocked, deadlocks, connections, pending, rejected, flags);
    }

    public boolean failed() {
        return errorStatus != null || !"UP".equals(health);
    }

    public @Nullable Double heapFraction() {
        return heapUsed == null || heapMax == null || heapMax <= 0 ? null : (double) heapUsed / heapMax;
    }

    /**
     * Short flags for what needs a look: ERR, DOWN, DEADLOCK, HEAP (over 90 %), REJECTED (executor work refused), then
     * the fleet comparison's OUTLIER:metric and DRIFT:what.
     */
    public String flags() {
        StringBuilder out = new StringBuilder();
        if (errorStatus != null) {
            out.append("ERR").append(errorStatus).append(' ');
        } else if (!"UP".equals(health)) {
            out.append("DOWN ");
        }
        if (deadlocks != null && deadlocks > 0) {
            out.append("DEADLOCK ");
        }
        if (heapFraction() != null && heapFraction() > 0.9) {
            out.append("HEAP ");
        }
        if (rejected != null && rejected > 0) {
            out.append("REJECTED ");
        }
        compared.forEach(flag -> out.append(flag).append(' '));
        return out.toString().strip();
    }

    /** Builds the snapshot of one pod from its answers (each may be null when that call failed). */
    static PodSnapshot of(String name, String module, @Nullable JsonNode jvm, @Nullable JsonNode threads, @Nullable JsonNode health, @Nullable JsonNode connections) {
        JsonNode first = firstPresent(health, jvm, threads, connections);
        JsonNode error = first == null ? null : first.get("error");
        if (error != null) {
            return failure(name, module, error.path("status").asInt(502), error.path("message").asText("no answer"));
        }
        JsonNode heap = path(jvm, "jvm", "memory", "heap");
        JsonNode states = path(threads, "threads", "states");
        JsonNode pools = path(connections, "connections", "pools");
        Integer pending = null;
        if (pools != null) {
            int sum = 0;
            for (JsonNode pool : pools) {
                sum += pool.path("pending").asInt();
            }
            pending = sum;
        }
        Long rejected = null;
        JsonNode executors = path(threads, "threads", "executorPools");
        if (executors != null) {
            long sum = 0;
            for (JsonNode pool : executors) {
                sum += pool.path("rejectedTaskCount").asLong();
            }
            rejected = sum;
        }
        JsonNode cpu = path(jvm, "jvm", "cpu", "processCpuLoad");
        return new PodSnapshot(name, module, null, null,
                text(path(health, "health", "status")), text(first == null ? null : first.get("version")),
                number(path(health, "health", "uptime")), number(heap == null ? null : heap.get("used")),
                number(heap == null ? null : heap.get("max")),
                cpu != null && cpu.isNumber() && cpu.asDouble() >= 0 ? cpu.asDouble() : null,
                integer(path(threads, "threads", "summary", "threadCount")), integer(states == null ? null : states.get("BLOCKED")),
                integer(path(health, "health", "checks", "threads", "deadlocks")),
                integer(path(connections, "connections", "active")), pending, rejected, List.of());
    }

    static PodSnapshot failure(@Nullable String name, String module, int status, String message) {
        return new PodSnapshot(name, module, status, message, null, null, null, null, null, null, null, null, null, null, null, null, List.of());
    }

    private static @Nullable JsonNode firstPresent(@Nullable JsonNode... nodes) {
        for (JsonNode node : nodes) {
            if (node != null) {
                return node;
            }
        }
        return null;
    }

    private static @Nullable JsonNode path(@Nullable JsonNode node, String... names) {
        JsonNode at = node;
        for (String name : names) {
            if (at == null) {
                return null;
            }
            at = at.get(name);
        }
        return at == null || at.isNull() || at.isMissingNode() ? null : at;
    }

    private static @Nullable String text(@Nullable JsonNode node) {
        return node == null ? null : node.asText();
    }

    private static @Nullable Long number(@Nullable JsonNode node) {
        return node != null && node.isNumber() ? node.asLong() : null;
    }

    private static @Nullable Integer integer(@Nullable JsonNode node) {
        return node != null && node.isNumber() ? node.asInt() : null;
    }
}
