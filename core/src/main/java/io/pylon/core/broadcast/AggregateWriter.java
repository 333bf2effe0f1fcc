package io.pylon.core.broadcast;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pylon.core.diagnostics.LocalDiagnostics;
import io.pylon.core.discovery.DiscoveredPod;
import io.pylon.core.http.Json;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the broadcast object one pod at a time: {@code {"pods":[} then each pod's answer as it is taken, then
 * {@code ],"summary":{...},"responseTime":..,"discovery":{...}}} (plus a cluster-wide summary under the key of
 * each section that {@link io.pylon.core.diagnostics.DiagnosticSection#aggregates() aggregates}), into an {@link AggregateOutput} that passes
 * answers on as they are written once they add up to its limit, so the aggregate is never held whole.
 */
final class AggregateWriter implements PodAnswers {
    private static final byte[] START = "{\"pods\":[".getBytes(StandardCharsets.UTF_8);

    private final OutputStream out;
    private final List<LocalDiagnostics.Aggregation> aggregations;
    private final List<JsonNode> aggregated = new ArrayList<>();
    private int total;
    private int failed;

    AggregateWriter(OutputStream out) {
        this(out, List.of());
    }

    /** With sections to summarise across pods: each answer's part of them is kept (the rest is not). */
    AggregateWriter(OutputStream out, List<LocalDiagnostics.Aggregation> aggregations) {
        this.out = out;
        this.aggregations = aggregations;
    }

    void start() throws IOException {
        out.write(START);
    }

    @Override
    public void answered(byte[] answer) throws IOException {
        separate();
        out.write(answer);
        if (!aggregations.isEmpty()) {
            keepForAggregation(answer);
        }
    }

    private void keepForAggregation(byte[] answer) throws IOException {
        JsonNode pod = Json.MAPPER.readTree(answer);
        ObjectNode kept = Json.MAPPER.createObjectNode();
        kept.set("podName", pod.path("podName"));
        for (LocalDiagnostics.Aggregation aggregation : aggregations) {
            if (pod.has(aggregation.key())) {
                kept.set(aggregation.key(), pod.get(aggregation.key()));
            }
        }
        aggregated.add(kept);
    }

    @Override
    public void failed(DiscoveredPod pod, PodFailure failure) throws IOException {
        failed++;
        separate();
        out.write(Json.bytes(failedElement(pod, failure)));
    }

    /** Closes {@code pods} and adds the summary; {@code discoveryError} is null when discovery worked. */
    void finish(double responseTimeMs, String discoveryMode, @Nullable String discoveryError) throws IOException {
        ObjectNode tail = Json.MAPPER.createObjectNode();
        tail.putObject("summary").put("total", total).put("succeeded", total - failed).put("failed", failed);
        tail.put("responseTime", responseTimeMs);
        ObjectNode discovery = tail.putObject("discovery").put("mode", discoveryMode);
        if (discoveryError != null) {
            discovery.put("error", discoveryError);
        }
        for (LocalDiagnostics.Aggregation aggregation : aggregations) {
            Object summary = aggregation.section().aggregate(List.copyOf(aggregated));
            if (summary != null) {
                tail.set(aggregation.key(), Json.MAPPER.valueToTree(summary));
            }
        }
        byte[] bytes = Json.bytes(tail);
        out.write(']');
        out.write(',');
        out.write(bytes, 1, bytes.length - 1);
    }


    static ObjectNode failedElement(DiscoveredPod pod, PodFailure failure) {
        ObjectNode element = Json.MAPPER.createObjectNode();
        element.put("podName", pod.podName());
        element.put("podIp", pod.podIp());
        element.putObject("error").put("status", failure.status()).put("message", failure.message());
        return element;
    }

    private void separate() throws IOException {
        if (total++ > 0) {
            out.write(',');
        }
    }
}
