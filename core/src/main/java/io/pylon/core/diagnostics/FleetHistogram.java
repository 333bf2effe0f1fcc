package io.pylon.core.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The fleet-wide part of a {@code histogram} broadcast: for every class in some pod's top list, the median of its
 * bytes over the pods that answered (a pod that does not list the class counts 0: it holds less than its own smallest
 * listed class), each pod's bytes next to it, and a flag for a pod whose bytes exceed {@code factor} times the median
 * and at least {@link #MIN_FLAGGED_BYTES}, so that small classes never raise flags. Stateless.
 */
final class FleetHistogram {
    /** Below this a class is too small to flag, whatever its ratio to the median. */
    static final long MIN_FLAGGED_BYTES = 1024 * 1024;

    private FleetHistogram() {
    }

    static Map<String, Object> compare(List<JsonNode> pods, String key, double factor) {
        Map<String, Map<String, Long>> bytesByClass = new TreeMap<>();
        List<String> podNames = new ArrayList<>();
        for (JsonNode pod : pods) {
            String podName = pod.path("podName").asText();
            podNames.add(podName);
            for (JsonNode entry : pod.path(key).path("classes")) {
                bytesByClass.computeIfAbsent(entry.path("className").asText(), k -> new HashMap<>())
                        .merge(podName, entry.path("bytes").asLong(), Long::sum);
            }
        }
        List<Map<String, Object>> classes = new ArrayList<>();
        List<Map<String, Object>> flagged = new ArrayList<>();
        for (Map.Entry<String, Map<String, Long>> entry : bytesByClass.entrySet()) {
            long[] all = podNames.stream().mapToLong(p -> entry.getValue().getOrDefault(p, 0L)).toArray();
            long median = median(all);
            long max = Arrays.stream(all).max().orElse(0);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("className", entry.getKey());
            row.put("medianBytes", median);
            row.put("maxBytes", max);
            Map<String, Long> perPod = new TreeMap<>(entry.getValue());
            row.put("pods", perPod);
            classes.add(row);
            for (Map.Entry<String, Long> pod : perPod.entrySet()) {
                if (pod.getValue() >= MIN_FLAGGED_BYTES && pod.getValue() > factor * median) {
                    Map<String, Object> flag = new LinkedHashMap<>();
                    flag.put("podName", pod.getKey());
                    flag.put("className", entry.getKey());
                    flag.put("bytes", pod.getValue());
                    flag.put("medianBytes", median);
                    flag.put("ratio", median == 0 ? null : Math.round(pod.getValue() * 10.0 / median) / 10.0);
                    flagged.add(flag);
                }
            }
        }
        classes.sort(Comparator.comparingLong((Map<String, Object> r) -> (Long) r.get("maxBytes")).reversed());
        flagged.sort(Comparator.comparingLong((Map<String, Object> f) -> (Long) f.get("bytes")).reversed());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("factor", factor);
        answer.put("minFlaggedBytes", MIN_FLAGGED_BYTES);
        answer.put("podsAnswered", podNames.size());
        answer.put("flagged", flagged);
        answer.put("classes", classes);
        return answer;
    }

    static long median(long[] values) {
        if (values.length == 0) {
            return 0;
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
