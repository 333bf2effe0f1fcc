package io.pylon.gateway.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A bundle as the Manager serves it and a Worker stores it: the canonical JSON of
 * {@code {"proxies": [...sorted by name], "version": N}} and its SHA-256 (hex), the hash Workers poll with.
 */
public record RenderedBundle(long version, byte[] json, String sha256) {

    /** Renders version {@code version} of the given proxy definitions (trees as stored, any order). */
    public static RenderedBundle render(long version, List<JsonNode> proxies) {
        List<JsonNode> sorted = new ArrayList<>(proxies);
        sorted.sort(Comparator.comparing(p -> p.path("name").asText()));
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("version", version);
        ArrayNode list = root.putArray("proxies");
        sorted.forEach(list::add);
        byte[] json = CanonicalJson.bytes(root);
        return new RenderedBundle(version, json, CanonicalJson.sha256(json));
    }

    /** Whether {@code json} is exactly the bytes {@code sha256} names: a truncated or altered copy is not. */
    public static boolean matches(byte[] json, String sha256) {
        return sha256 != null && CanonicalJson.sha256(json).equalsIgnoreCase(sha256);
    }
}
