package io.pylon.manager.portal;

import org.jspecify.annotations.Nullable;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A named request limit a subscription is held to: {@code requests} per {@code per} ({@code second} or
 * {@code minute}), counted per application and proxy on every Worker together. A plan with a {@code proxy} may be
 * given only to subscriptions of that proxy; one without is for any.
 */
public record Plan(String name, int requests, String per, @Nullable String proxy) {

    public Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("name", name);
        json.put("requests", requests);
        json.put("per", per);
        json.put("proxy", proxy);
        return json;
    }
}
