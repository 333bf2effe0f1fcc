package io.pylon.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** The objects `kubectl kustomize` renders from a folder of deploy/, as JSON trees. */
final class Manifests {
    private static final YAMLMapper YAML = new YAMLMapper();

    private Manifests() {
    }

    static List<JsonNode> render(String dir) {
        String yaml = Command.run(DeployTools.tool("kubectl"), "kustomize", DeployTools.ROOT.resolve(dir).toString()).ok();
        List<JsonNode> objects = new ArrayList<>();
        try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(yaml)) {
            while (docs.hasNext()) {
                JsonNode doc = docs.next();
                if (doc != null && doc.has("kind")) {
                    objects.add(doc);
                }
            }
        } catch (IOException e) {
            throw new AssertionError("kubectl kustomize " + dir + " printed no YAML: " + e.getMessage(), e);
        }
        return objects;
    }

    static JsonNode deployment(List<JsonNode> objects, String name) {
        return objects.stream().filter(o -> o.path("kind").asText().equals("Deployment")
                && o.path("metadata").path("name").asText().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no Deployment " + name));
    }
}
