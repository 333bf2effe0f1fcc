package io.pylon.core.broadcast;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pylon.core.diagnostics.compare.CompareOptions;
import io.pylon.core.diagnostics.compare.CompareReport;
import io.pylon.core.diagnostics.compare.PodFacts;
import io.pylon.core.discovery.DiscoveredPod;
import io.pylon.core.http.Json;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The receiving end of a {@code compare} broadcast: each pod's answer is read into its {@link PodFacts} (a few kilobytes)
 * the moment it is taken and then dropped, so a comparison of many pods holds one answer at a time plus the
 * facts; at the end it writes {@code {"threshold":..,"outliers":[..],"drift":{..},"pods":[..],"summary":{..},
 * "responseTime":..,"discovery":{..}}}, where {@code pods} has each pod's facts (and the sections it was asked to
 * keep, a few kilobytes more per pod), or its error as in a broadcast.
 *
 * <p>Not thread-safe: one broadcast hands it the pods' outcomes from one thread.
 */
final class FleetComparison implements PodAnswers {
    private final CompareOptions options;
    private final List<ObjectNode> elements = new ArrayList<>();
    private final List<PodFacts> answered = new ArrayList<>();
    private final List<String> keptSections;
    private int failed;

    FleetComparison(CompareOptions options, List<String> keptSections) {
        this.options = options;
        this.keptSections = List.copyOf(keptSections);
    }

    @Override
    public void answered(byte[] answer) throws IOException {
        JsonNode tree = Json.MAPPER.readTree(answer);
        PodFacts facts = PodFacts.of(tree, options.ignoredEnv());
        answered.add(facts);
        ObjectNode element = CompareReport.podElement(facts);
        for (String section : keptSections) {
            if (tree.has(section)) {
                element.set(section, tree.get(section));
            }
        }
        elements.add(element);
    }

    @Override
    public void failed(DiscoveredPod pod, PodFailure failure) {
        failed++;
        elements.add(AggregateWriter.failedElement(pod, failure));
    }

    /** Writes the comparison; {@code discoveryError} is null when discovery worked. */
    void finish(OutputStream out, double responseTimeMs, String discoveryMode, @Nullable String discoveryError) throws IOException {
        ObjectNode root = Json.MAPPER.createObjectNode();
        CompareReport.write(root, answered, options);
        ArrayNode pods = root.putArray("pods");
        elements.forEach(pods::add);
        root.putObject("summary").put("total", elements.size()).put("succeeded", elements.size() - failed)
                .put("failed", failed);
        root.put("responseTime", responseTimeMs);
        ObjectNode discovery = root.putObject("discovery").put("mode", discoveryMode);
        if (discoveryError != null) {
            discovery.put("error", discoveryError);
        }
        out.write(Json.bytes(root));
    }
}
