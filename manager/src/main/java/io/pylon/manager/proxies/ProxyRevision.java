package io.pylon.manager.proxies;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** One immutable, numbered revision of an API proxy's definition. */
public record ProxyRevision(String name, int revision, JsonNode definition, @Nullable String openapi, String author,
                            Instant createdAt, String comment) {

    /** The revision as the API answers it; the OpenAPI document only when asked for (it can be large). */
    public Map<String, Object> toJson(boolean withOpenApi) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("name", name);
        map.put("revision", revision);
        map.put("author", author);
        map.put("createdAt", createdAt.toString());
        map.put("comment", comment);
        map.put("hasOpenApi", openapi != null);
        if (withOpenApi) {
            map.put("openapi", openapi);
        }
        map.put("definition", definition);
        return map;
    }
}
