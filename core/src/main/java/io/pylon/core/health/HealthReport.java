package io.pylon.core.health;

import java.util.Map;

/** The outcome of a set of checks: DOWN as soon as one check is DOWN. */
public record HealthReport(HealthStatus status, Map<String, CheckResult> checks) {

    public boolean isUp() {
        return status == HealthStatus.UP;
    }

    public Map<String, Object> checksAsMap() {
        Map<String, Object> map = new java.util.LinkedHashMap<>();
        checks.forEach((name, result) -> map.put(name, result.toMap()));
        return map;
    }
}
