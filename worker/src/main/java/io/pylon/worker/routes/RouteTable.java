package io.pylon.worker.routes;

import org.jspecify.annotations.Nullable;

import io.pylon.gateway.model.Route;

import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The routes in force, immutable; a reload swaps in a new table, so a request keeps the route it matched. The most
 * specific route wins: the longest prefix, then a route bound to a host over one for any host, then a route bound to
 * methods over one for any method.
 *
 * <p>Threading: immutable, so any thread may match against it; only each entry's round-robin cursor changes,
 * atomically, as request threads pick upstreams.
 */
public final class RouteTable {
    private final List<Entry> entries;

    /** A route and its round-robin cursor. */
    public record Entry(Route route, AtomicInteger cursor) {
    }

    public sealed interface Match permits Found, NoRoute, MethodNotAllowed {
    }

    public record Found(Entry entry) implements Match {
    }

    public record NoRoute() implements Match {
    }

    /** The path and host match routes, but none for this method: 405 with these methods in {@code Allow}. */
    public record MethodNotAllowed(Set<String> allowed) implements Match {
    }

    private static final Comparator<Route> MOST_SPECIFIC_FIRST = Comparator
            .comparingInt((Route r) -> r.pathPrefix().equals("/") ? 0 : r.pathPrefix().length()).reversed()
            .thenComparing(r -> r.host() == null)
            .thenComparing(r -> r.methods().isEmpty());

    public RouteTable(List<Route> routes) {
        this.entries = routes.stream().sorted(MOST_SPECIFIC_FIRST).map(r -> new Entry(r, new AtomicInteger())).toList();
    }

    public static RouteTable empty() {
        return new RouteTable(List.of());
    }

    public List<Route> routes() {
        return entries.stream().map(Entry::route).toList();
    }

    public int size() {
        return entries.size();
    }

    /** @param host the request's host without port, or null when it sent none */
    public Match match(String method, @Nullable String host, String rawPath) {
        Set<String> allowed = null;
        for (int i = 0; i < entries.size(); i++) { // indexed: no iterator per request
            Entry entry = entries.get(i);
            Route route = entry.route();
            if (!route.matchesPath(rawPath) || !route.matchesHost(host)) {
                continue;
            }
            if (route.allows(method)) {
                return new Found(entry);
            }
            if (allowed == null) {
                allowed = new LinkedHashSet<>();
            }
            allowed.addAll(route.methods());
        }
        return allowed == null ? new NoRoute() : new MethodNotAllowed(allowed);
    }
}
