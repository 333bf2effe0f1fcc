package io.pylon.manager.portal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.net.URI;

/**
 * An API's OpenAPI document as the Portal's "Try it" needs it: its servers replaced by the URL developers call through
 * the environment's Workers, and, for a proxy with {@code keyAuth}, an API key security scheme on its key header, so
 * that Swagger UI sends the developer's key. The stored document is not changed. Stateless.
 */
final class TryItDocument {
    /** The security scheme's name in the rewritten document. */
    static final String SCHEME = "pylonApiKey";
    private static final YAMLMapper YAML = new YAMLMapper();

    private TryItDocument() {
    }

    /**
     * @param base the public URL of the API's paths: the Worker URL, plus the proxy's path prefix when the proxy
     *             strips or rewrites it (otherwise the documented paths are the public ones)
     * @return null when the stored text is no JSON or YAML object
     */
    static JsonNode rewrite(String stored, String base, String keyHeader) {
        JsonNode parsed;
        try {
            parsed = YAML.readTree(stored); // YAML reads JSON too
        } catch (IOException e) {
            return null;
        }
        if (!(parsed instanceof ObjectNode document)) {
            return null;
        }
        if (document.has("swagger")) {
            swagger2(document, base, keyHeader);
        } else {
            ArrayNode servers = document.putArray("servers");
            servers.addObject().put("url", base).put("description", "Through the gateway");
            if (keyHeader != null) {
                ObjectNode schemes = object(object(document, "components"), "securitySchemes");
                schemes.putObject(SCHEME).put("type", "apiKey").put("in", "header").put("name", keyHeader);
                document.putArray("security").addObject().putArray(SCHEME);
            }
        }
        return document;
    }

    private static void swagger2(ObjectNode document, String base, String keyHeader) {
        URI uri = URI.create(base);
        document.put("host", uri.getRawAuthority());
        document.put("basePath", uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath());
        document.putArray("schemes").add(uri.getScheme());
        if (keyHeader != null) {
            object(document, "securityDefinitions").putObject(SCHEME).put("type", "apiKey").put("in", "header")
                    .put("name", keyHeader);
            document.putArray("security").addObject().putArray(SCHEME);
        }
    }

    private static ObjectNode object(ObjectNode parent, String field) {
        JsonNode existing = parent.get(field);
        return existing instanceof ObjectNode object ? object : parent.putObject(field);
    }
}
