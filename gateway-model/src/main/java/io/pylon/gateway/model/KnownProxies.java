package io.pylon.gateway.model;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.HashMap;
import java.util.Map;

/**
 * The proxies of the bundle in force, by their definition (the JSON tree, compared by value), so that parsing the
 * next bundle takes an unchanged proxy as it is instead of validating it again: a deploy usually changes a few
 * proxies of many. A definition is only ever reused by the parser that made it (the defaults it filled in are that
 * parser's), and only one that passed validation is kept.
 *
 * <p>Threading: not thread-safe; its owner parses and applies one bundle at a time (a Worker's apply holds a lock).
 */
public final class KnownProxies {
    private Map<Definition, Route> inForce = Map.of();
    private Map<Definition, Route> parsed = new HashMap<>();

    /**
     * A definition with a hash that tells similar proxies apart: {@link JsonNode#hashCode()} sums its fields'
     * hashes, so proxies that differ only in name and prefix ({@code p1 /p1}, {@code p2 /p2}...) collide by the
     * hundred. The hash follows the fields' order; equality does not (a reordered proxy is only a miss).
     */
    private record Definition(JsonNode node, int hash) {
        static Definition of(JsonNode node) {
            return new Definition(node, hash(node));
        }

        private static int hash(JsonNode node) {
            if (node.isObject()) {
                int h = 1;
                for (Map.Entry<String, JsonNode> field : node.properties()) {
                    h = 31 * (31 * h + field.getKey().hashCode()) + hash(field.getValue());
                }
                return h;
            }
            if (node.isArray()) {
                int h = 7;
                for (JsonNode element : node) {
                    h = 31 * h + hash(element);
                }
                return h;
            }
            return node.hashCode();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Definition that && hash == that.hash && node.equals(that.node);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** Parses one proxy definition. */
    interface Parse {
        Route parse() throws InvalidProxyException;
    }

    /** The route of a definition: the one in force for an equal definition, else what {@code parse} makes. */
    Route take(JsonNode definition, Parse parse) throws InvalidProxyException {
        Definition key = Definition.of(definition);
        Route route = inForce.get(key);
        if (route == null) {
            route = parse.parse();
        }
        parsed.put(key, route);
        return route;
    }

    /** The bundle parsed last is now in force: the next one is compared with its proxies. */
    public void applied() {
        inForce = parsed;
        parsed = new HashMap<>();
    }

    /** The bundle parsed last was refused: the one in force stays what the next one is compared with. */
    public void refused() {
        parsed = new HashMap<>();
    }

    /** How many definitions the bundle in force has. */
    public int size() {
        return inForce.size();
    }
}
