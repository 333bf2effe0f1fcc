package io.pylon.manager.environments;

import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A platform environment: its name, type, description, the 24-hex-digit ID its Worker and Cache pods check in
 * {@code Authorization}, and the access URLs of its modules ({@code worker} and {@code cache} always present).
 */
public record Environment(String name, String type, String description, @Nullable String environmentId,
                          Map<String, String> urls, Instant createdAt, Instant updatedAt) {

    /** The modules an environment has URLs for, in display order. */
    public static final List<String> MODULES = List.of("manager", "worker", "cache", "integration", "portal");

    public Environment {
        urls = Collections.unmodifiableMap(new LinkedHashMap<>(urls));
    }

    /** The JSON form; the environment ID only for admins. */
    public Map<String, Object> toJson(boolean withId) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("name", name);
        json.put("type", type);
        json.put("description", description);
        if (withId) {
            json.put("environmentId", environmentId);
        }
        Map<String, String> all = new LinkedHashMap<>();
        for (String module : MODULES) {
            all.put(module, urls.get(module));
        }
        json.put("urls", all);
        json.put("createdAt", createdAt.toString());
        json.put("updatedAt", updatedAt.toString());
        return json;
    }
}
