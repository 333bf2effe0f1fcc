package io.pylon.core.health;

import java.util.LinkedHashMap;
import java.util.Map;

/** What one check found: a status and the figures behind it (flattened into the check's JSON object). */
public record CheckResult(HealthStatus status, Map<String, Object> details) {

    public CheckResult {
        details = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }

    public static CheckResult up(Map<String, Object> details) {
        return new CheckResult(HealthStatus.UP, details);
    }

    public static CheckResult down(Map<String, Object> details) {
        return new CheckResult(HealthStatus.DOWN, details);
    }

    public static CheckResult of(boolean up, Map<String, Object> details) {
        return new CheckResult(up ? HealthStatus.UP : HealthStatus.DOWN, details);
    }

    /** The check's JSON object: {@code {"status":"UP", ...details}}. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("status", status.name());
        map.putAll(details);
        return map;
    }
}
