package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The flags a module's {@code compare} answer puts on its pods, as {@code pods} and {@code top} show them:
 * {@code OUTLIER:<metric>} for each metric where the pod stands out from the fleet, and {@code DRIFT:<what>} where
 * the pod is not in the largest group of a version, commit, Java version or environment variable that differs
 * ({@code DRIFT:version}, {@code DRIFT:env:LOG_LEVEL}). Values never appear: the answer has none of masked variables.
 */
final class ComparisonFlags {
    private ComparisonFlags() {
    }

    /** Flags by pod name; empty when the comparison failed or found nothing. */
    static Map<String, List<String>> of(JsonNode comparison) {
        Map<String, List<String>> flags = new LinkedHashMap<>();
        if (comparison == null) {
            return flags;
        }
        for (JsonNode outlier : comparison.path("outliers")) {
            add(flags, outlier.path("podName").asText(), "OUTLIER:" + outlier.path("metric").asText());
        }
        JsonNode drift = comparison.path("drift");
        minority(flags, drift.path("versions"), "DRIFT:version");
        minority(flags, drift.path("commits"), "DRIFT:commit");
        minority(flags, drift.path("javaVersions"), "DRIFT:java");
        for (JsonNode variable : drift.path("env")) {
            minority(flags, variable.path("groups"), "DRIFT:env:" + variable.path("name").asText());
        }
        return flags;
    }

    // The groups come largest first: the pods of the others are the odd ones.
    private static void minority(Map<String, List<String>> flags, JsonNode groups, String flag) {
        for (int i = 1; i < groups.size(); i++) {
            for (JsonNode pod : groups.get(i).path("pods")) {
                add(flags, pod.asText(), flag);
            }
        }
    }

    private static void add(Map<String, List<String>> flags, String pod, String flag) {
        List<String> list = flags.computeIfAbsent(pod, p -> new ArrayList<>());
        if (!list.contains(flag)) {
            list.add(flag);
        }
    }
}
