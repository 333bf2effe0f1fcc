package io.pylon.gateway.model;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * A proxy's CORS policy: the Worker answers preflights itself and adds {@code Access-Control-*} headers to responses
 * for allowed origins. {@code allowOrigins} holds exact origins ({@code https://app.example.com}) or {@code *}.
 *
 * @param maxAge null: no {@code Access-Control-Max-Age}
 */
public record Cors(List<String> allowOrigins, List<String> allowMethods, List<String> allowHeaders,
                   List<String> exposeHeaders, boolean allowCredentials, @Nullable Duration maxAge) {

    public Cors {
        allowOrigins = List.copyOf(allowOrigins);
        allowMethods = List.copyOf(allowMethods);
        allowHeaders = List.copyOf(allowHeaders);
        exposeHeaders = List.copyOf(exposeHeaders);
    }

    public boolean allowsOrigin(@Nullable String origin) {
        if (origin == null) {
            return false;
        }
        for (String allowed : allowOrigins) {
            if (allowed.equals("*") || allowed.equalsIgnoreCase(origin)) {
                return true;
            }
        }
        return false;
    }

    public boolean allowsMethod(String method) {
        return allowMethods.isEmpty() || allowMethods.contains(method.toUpperCase(Locale.ROOT));
    }
}
