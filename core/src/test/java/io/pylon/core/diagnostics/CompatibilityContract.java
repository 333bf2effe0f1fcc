package io.pylon.core.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.server.Pod;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks a real pod's diagnostics answers, single ({@code internal=true}) and broadcast, against the field lists of
 * compatibility.md ({@link CompatibilitySpec}), so that neither the server nor the spec can drift from the other
 * unnoticed. Worker and Cache tests run it on their own pods (it ships in the core test-jar).
 */
public final class CompatibilityContract {
    private final CompatibilitySpec spec;
    private final String module;
    private final Set<String> notOffered;

    /**
     * @param module     {@code worker} or {@code cache}
     * @param notOffered the diagnostics names of the spec this module does not serve ({@code datagrid} on a Worker)
     */
    public CompatibilityContract(String module, Set<String> notOffered) {
        this(CompatibilitySpec.load(), module, notOffered);
    }

    /** Against a given spec: tests show that a field the server does not write fails the contract. */
    public CompatibilityContract(CompatibilitySpec spec, String module, Set<String> notOffered) {
        this.spec = spec;
        this.module = module;
        this.notOffered = notOffered;
        assertThat(spec.sections()).as("names in compatibility.md").containsKeys(notOffered.toArray(String[]::new));
    }

    /** Every name the module serves, and {@code all}, carry the envelope and every field the spec lists. */
    public void assertSingle(Pod pod) {
        for (Map.Entry<String, String> name : spec.sections().entrySet()) {
            HttpResponse<String> response = DiagnosticsClient.call(pod, name.getKey() + "?internal=true");
            if (notOffered.contains(name.getKey())) {
                assertThat(response.statusCode()).as(name.getKey() + " is not served by " + module).isEqualTo(404);
                continue;
            }
            assertThat(response.statusCode()).as(name.getKey() + ": " + response.body()).isEqualTo(200);
            assertPodObject(DiagnosticsClient.json(response), List.of(name.getValue()), name.getKey());
        }
        assertPodObject(DiagnosticsClient.internal(pod, "all"), offeredKeys(), "all");
    }

    /**
     * A broadcast of every served name (and {@code all}) lists each pod: the reachable ones with exactly the fields
     * of their single answer, the unreachable one with the spec's error element.
     */
    public void assertBroadcast(Pod pod, List<String> reachablePods, String unreachablePod) {
        List<String> names = new ArrayList<>(spec.sections().keySet());
        names.removeAll(notOffered);
        names.add("all");
        for (String name : names) {
            HttpResponse<String> response = DiagnosticsClient.call(pod, name);
            assertThat(response.statusCode()).as("broadcast " + name + ": " + response.body()).isEqualTo(200);
            JsonNode pods = DiagnosticsClient.json(response).path("pods");
            assertThat(pods.isArray()).as("broadcast " + name + " has pods[]").isTrue();
            List<String> seen = new ArrayList<>();
            for (JsonNode element : pods) {
                String podName = element.path("podName").asText();
                seen.add(podName);
                String where = "broadcast " + name + ", pods[] " + podName;
                if (podName.equals(unreachablePod)) {
                    assertUnreachable(element, where);
                } else {
                    assertThat(element.has("error")).as(where + " answered: " + element.path("error")).isFalse();
                    List<String> keys = name.equals("all") ? offeredKeys() : List.of(spec.sections().get(name));
                    assertPodObject(element, keys, where);
                    assertBroadcastPaths(element, keys, where);
                }
            }
            List<String> expected = new ArrayList<>(reachablePods);
            expected.add(unreachablePod);
            assertThat(seen).as("pods of broadcast " + name).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    private List<String> offeredKeys() {
        return spec.sections().entrySet().stream().filter(e -> !notOffered.contains(e.getKey()))
                .map(Map.Entry::getValue).toList();
    }

    private void assertPodObject(JsonNode body, List<String> sectionKeys, String where) {
        for (String field : spec.envelope()) {
            assertThat(body.has(field)).as(where + ": envelope field " + field).isTrue();
        }
        for (String key : sectionKeys) {
            assertThat(body.hasNonNull(key)).as(where + ": section " + key).isTrue();
        }
        for (CompatibilitySpec.Field field : spec.fields()) {
            if (sectionKeys.contains(field.sectionKey()) && (field.module() == null || field.module().equals(module))) {
                assertField(body, field, where);
            }
        }
    }

    private static void assertField(JsonNode body, CompatibilitySpec.Field field, String where) {
        String label = where + ": " + field.path();
        boolean array = field.path().endsWith("[]");
        JsonNode node = at(body, array ? field.path().substring(0, field.path().length() - 2) : field.path());
        assertThat(node.isMissingNode() || node.isNull()).as(label + " is present").isFalse();
        if (array) {
            assertThat(node.isArray()).as(label + " is an array").isTrue();
            assertThat(node).as(label + " has entries").isNotEmpty();
            node.forEach(element -> assertMembers(element, field, label + " element"));
            return;
        }
        if (!field.members().isEmpty()) {
            assertMembers(node, field, label);
            return;
        }
        String meaning = field.meaning();
        if (meaning.startsWith("number") || meaning.startsWith("ms")) {
            assertThat(node.isNumber()).as(label + " is a number: " + node).isTrue();
        } else if (meaning.startsWith("string")) {
            assertThat(node.isTextual()).as(label + " is a string").isTrue();
        } else if (meaning.startsWith("\"")) {
            List<String> allowed = new ArrayList<>();
            java.util.regex.Matcher quoted = java.util.regex.Pattern.compile("\"([^\"]*)\"").matcher(meaning);
            while (quoted.find()) {
                allowed.add(quoted.group(1));
            }
            assertThat(node.asText()).as(label).isIn(allowed);
        }
    }

    private static void assertMembers(JsonNode node, CompatibilitySpec.Field field, String label) {
        for (String member : field.members()) {
            assertThat(node.hasNonNull(member)).as(label + " has " + member + ": " + node).isTrue();
        }
    }

    private void assertBroadcastPaths(JsonNode element, List<String> sectionKeys, String where) {
        for (String path : spec.broadcastPaths()) {
            String section = path.split("\\.", 2)[0];
            if (spec.envelope().contains(section) || sectionKeys.contains(section)) {
                assertThat(at(element, path).isMissingNode()).as(where + ": .pods[]." + path).isFalse();
            }
        }
    }

    private void assertUnreachable(JsonNode element, String where) {
        CompatibilitySpec.Unreachable shape = spec.unreachable();
        for (String field : shape.top()) {
            assertThat(element.hasNonNull(field)).as(where + " (unreachable) has " + field).isTrue();
        }
        JsonNode error = element.path(shape.error());
        assertThat(error.isObject()).as(where + " (unreachable) has an " + shape.error() + " object").isTrue();
        for (String member : shape.errorMembers()) {
            assertThat(error.hasNonNull(member)).as(where + " (unreachable) " + shape.error() + "." + member).isTrue();
        }
    }

    private static JsonNode at(JsonNode root, String dottedPath) {
        return root.at("/" + dottedPath.replace(".", "/"));
    }
}
