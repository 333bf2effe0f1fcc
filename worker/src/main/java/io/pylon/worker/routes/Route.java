package io.pylon.worker.routes;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * One route of the gateway: requests whose path starts with {@code pathPrefix} (at a segment boundary), and whose
 * method and host match when those are given, go to one of the upstreams.
 *
 * @param methods     upper-case methods; empty means any method
 * @param host        host name the request's Host must carry (port ignored, case-insensitive); null means any host
 * @param stripPrefix whether the prefix is removed from the path before it is appended to the upstream's base path
 * @param rateLimit   null when the route has no limit
 */
public record Route(String name, String pathPrefix, Set<String> methods, @Nullable String host, List<Upstream> upstreams,
                    boolean stripPrefix, Duration connectTimeout, Duration responseTimeout, @Nullable RateLimit rateLimit) {

    public Route {
        methods = java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(methods));
        upstreams = List.copyOf(upstreams);
    }

    /** Whether the raw request path falls under this route's prefix, at a segment boundary. */
    public boolean matchesPath(String rawPath) {
        if (pathPrefix.equals("/")) {
            return true;
        }
        return rawPath.startsWith(pathPrefix)
                && (rawPath.length() == pathPrefix.length() || rawPath.charAt(pathPrefix.length()) == '/');
    }

    public boolean matchesHost(@Nullable String requestHost) {
        return host == null || host.equalsIgnoreCase(requestHost);
    }

    public boolean allows(String method) {
        return methods.isEmpty() || methods.contains(method);
    }

    /** The path sent upstream: the upstream's base path, then the request path (without the prefix if stripped). */
    public String upstreamPath(Upstream upstream, String rawPath) {
        String rest = rawPath;
        if (stripPrefix && !pathPrefix.equals("/")) {
            rest = rawPath.substring(pathPrefix.length());
        }
        if (rest.isEmpty()) {
            rest = upstream.basePath().isEmpty() ? "/" : "";
        }
        return upstream.basePath() + rest;
    }
}
