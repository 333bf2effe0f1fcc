package io.pylon.worker.proxy;

import org.jspecify.annotations.Nullable;

import io.pylon.gateway.model.Route;
import io.pylon.gateway.model.Upstream;

import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * nginx's {@code proxy_redirect default} for one response: a {@code Location} or {@code Content-Location} that points
 * at the upstream (its origin and base path) is rewritten to the address the client used, with the route's path
 * mapping undone (a stripped prefix put back, a rewritten prefix turned back), so an absolute redirect never leaks
 * the upstream's internal address. Anything else (relative, another host, outside the base path) is left as it is.
 * Immutable; one per response.
 */
final class LocationRewrite implements UnaryOperator<String> {
    private final Route route;
    private final Upstream upstream;
    private final String clientOrigin;

    private LocationRewrite(Route route, Upstream upstream, String clientOrigin) {
        this.route = route;
        this.upstream = upstream;
        this.clientOrigin = clientOrigin;
    }

    /** @return null when the client sent no Host (nothing to rewrite to) */
    static @Nullable LocationRewrite of(Route route, Upstream upstream, boolean secure, @Nullable String clientHost) {
        if (clientHost == null || clientHost.isEmpty()) {
            return null;
        }
        return new LocationRewrite(route, upstream, (secure ? "https://" : "http://") + clientHost);
    }

    @Override
    public String apply(String location) {
        String rest = afterOrigin(location);
        if (rest == null) {
            return location;
        }
        String base = upstream.basePath();
        if (!startsAtBoundary(rest, base)) {
            return location;
        }
        String upstreamPath = rest.substring(base.length());
        if (upstreamPath.isEmpty()) {
            upstreamPath = "/";
        }
        String clientPath = clientPath(upstreamPath);
        return clientPath == null ? location : clientOrigin + clientPath;
    }

    /** The part of {@code location} after the upstream's origin (with or without its default port), or null. */
    private @Nullable String afterOrigin(String location) {
        String lower = location.toLowerCase(Locale.ROOT);
        String host = upstream.host().contains(":") ? "[" + upstream.host() + "]" : upstream.host();
        String withPort = (upstream.scheme() + "://" + host + ":" + upstream.port()).toLowerCase(Locale.ROOT);
        int defaultPort = upstream.scheme().equals("https") ? 443 : 80;
        String withoutPort = (upstream.scheme() + "://" + host).toLowerCase(Locale.ROOT);
        for (String origin : upstream.port() == defaultPort ? new String[] {withPort, withoutPort}
                : new String[] {withPort}) {
            if (lower.startsWith(origin)) {
                String rest = location.substring(origin.length());
                if (rest.isEmpty() || rest.charAt(0) == '/' || rest.charAt(0) == '?' || rest.charAt(0) == '#') {
                    return rest.isEmpty() || rest.charAt(0) != '/' ? "/" + rest : rest;
                }
            }
        }
        return null;
    }

    /** The client's path for a path on the upstream (after its base path), or null when the route cannot map it. */
    private @Nullable String clientPath(String upstreamPath) {
        String prefix = route.pathPrefix().equals("/") ? "" : route.pathPrefix();
        String rewrite = route.policies().rewritePrefix();
        if (rewrite != null) {
            String from = rewrite.equals("/") ? "" : rewrite;
            if (!startsAtBoundary(upstreamPath, from)) {
                return null;
            }
            String tail = upstreamPath.substring(from.length());
            return prefix + (tail.isEmpty() || tail.charAt(0) != '/' ? "/" + tail : tail);
        }
        return route.stripPrefix() ? prefix + upstreamPath : upstreamPath;
    }

    private static boolean startsAtBoundary(String path, String prefix) {
        if (prefix.isEmpty()) {
            return true;
        }
        if (!path.startsWith(prefix)) {
            return false;
        }
        if (path.length() == prefix.length()) {
            return true;
        }
        char next = path.charAt(prefix.length());
        return next == '/' || next == '?' || next == '#';
    }
}
