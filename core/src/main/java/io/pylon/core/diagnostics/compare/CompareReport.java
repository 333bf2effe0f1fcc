package io.pylon.core.diagnostics.compare;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pylon.core.http.Json;

import java.util.List;
import java.util.Map;

/**
 * The JSON of a comparison: each pod's element ({@code podName, podIp, version, commit, status, metrics}),
 * {@code outliers[]} ({@code podName, metric, label, unit, value, median, mad, score}) and {@code drift}. Numbers
 * that are whole are written as whole numbers, others rounded to four decimals. Stateless.
 */
public final class CompareReport {
    private CompareReport() {
    }

    public static ObjectNode podElement(PodFacts pod) {
        ObjectNode element = Json.MAPPER.createObjectNode();
        element.put("podName", pod.podName());
        element.put("podIp", pod.podIp());
        element.put("version", pod.version());
        element.put("commit", pod.commit());
        element.put("status", pod.status());
        ObjectNode metrics = element.putObject("metrics");
        pod.metrics().forEach((key, value) -> number(metrics, key, value));
        return element;
    }

    /** Adds {@code threshold}, {@code outliers} and {@code drift} to {@code target}. */
    public static void write(ObjectNode target, List<PodFacts> pods, CompareOptions options) {
        target.put("threshold", options.threshold());
        ArrayNode outliers = target.putArray("outliers");
        for (Outlier outlier : Outliers.find(pods, options.threshold())) {
            ObjectNode o = outliers.addObject();
            o.put("podName", outlier.podName());
            o.put("metric", outlier.metric().key());
            o.put("label", outlier.metric().label());
            o.put("unit", outlier.metric().unit());
            number(o, "value", outlier.value());
            number(o, "median", outlier.median());
            number(o, "mad", outlier.mad());
            o.put("score", Math.round(outlier.score() * 100) / 100.0);
        }
        target.set("drift", Json.MAPPER.valueToTree(drift(Drift.of(pods))));
    }

    private static Map<String, Object> drift(Drift.Report report) {
        Map<String, Object> drift = new java.util.LinkedHashMap<>();
        drift.put("drifted", report.drifted());
        drift.put("versions", groups(report.versions()));
        drift.put("commits", groups(report.commits()));
        drift.put("javaVersions", groups(report.javaVersions()));
        drift.put("env", report.env().stream().map(e -> {
            Map<String, Object> variable = new java.util.LinkedHashMap<>();
            variable.put("name", e.name());
            variable.put("masked", e.masked());
            variable.put("groups", groups(e.groups()));
            return variable;
        }).toList());
        return drift;
    }

    private static List<Map<String, Object>> groups(List<Drift.Group> groups) {
        return groups.stream().map(CompareReport::group).toList();
    }

    private static Map<String, Object> group(Drift.Group group) {
        Map<String, Object> map = new java.util.LinkedHashMap<>();
        if (group.absent()) {
            map.put("absent", true);
        } else {
            if (group.hash() != null) {
                map.put("hash", group.hash());
            }
            if (group.value() != null) {
                map.put("value", group.value());
            }
        }
        map.put("pods", group.pods());
        return map;
    }

    static void number(ObjectNode node, String key, double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            node.put(key, (long) value);
        } else {
            node.put(key, Math.round(value * 10_000) / 10_000.0);
        }
    }
}
