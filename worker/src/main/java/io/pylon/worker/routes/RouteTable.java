package io.pylon.worker.routes;

import io.pylon.gateway.model.InvalidProxyException;
import io.pylon.gateway.model.Route;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The routes in force, immutable; a reload swaps in a new table, so a request keeps the route it matched. The most
 * specific route wins: the longest prefix, then a route bound to a host over one for any host, then a route bound to
 * methods over one for any method; among equals, the first in the bundle. A route whose path and host match but not
 * the method is passed over for a less specific one; when none takes the method, the answer is 405 with every
 * method the matching routes take.
 *
 * <p>Matching costs the same with one route or thousands: a {@link PrefixIndex} finds the prefixes the path starts
 * with, and within a prefix the routes bound to the request's host are found by a map. The routes share their equal
 * parts ({@link SharedRouteParts}), so that what a request reads beyond its own entry is mostly in cache.
 *
 * <p>Threading: immutable, so any thread may match against it; only each entry's round-robin cursor changes,
 * atomically, as request threads pick upstreams.
 */
public final class RouteTable {
    private static final NoRoute NO_ROUTE = new NoRoute();

    private final List<Entry> entries;
    private final PrefixIndex<Group> index;

    /** Told of a table before it is put in force; may refuse it (a proxy's TLS files cannot be read, say). */
    @FunctionalInterface
    public interface Listener {
        /** @throws InvalidProxyException to refuse the table, naming the proxy and the field */
        void loading(RouteTable next) throws InvalidProxyException;
    }

    /**
     * A route, its round-robin cursor, and what the data plane keeps with it (its meters), so that a request finds
     * them without a lookup.
     *
     * <p>Threading: the attachment is made on first use by whichever request thread gets there; racing makers may
     * each make one and the last one stays, so an attachment must be a view of shared state (meters from the
     * registry), never state of its own.
     */
    public static final class Entry {
        private final Route route;
        private final AtomicInteger cursor;
        private volatile @Nullable Object attachment;

        public Entry(Route route, AtomicInteger cursor) {
            this.route = route;
            this.cursor = cursor;
        }

        public Route route() {
            return route;
        }

        public AtomicInteger cursor() {
            return cursor;
        }

        /** The attachment of this type, made by {@code make} on first use. */
        public <T> T attachment(Class<T> type, Function<Route, T> make) {
            Object held = attachment;
            if (type.isInstance(held)) {
                return type.cast(held);
            }
            T made = make.apply(route);
            attachment = made;
            return made;
        }

        @Override
        public String toString() {
            return "route " + route.name();
        }
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

    // longest prefix ("/" counts as none), then bound to a host, then bound to methods; the sort is stable
    private static final Comparator<Route> MOST_SPECIFIC_FIRST = (a, b) -> {
        int byPrefix = Integer.compare(prefixLength(b), prefixLength(a));
        if (byPrefix != 0) {
            return byPrefix;
        }
        int byHost = Boolean.compare(a.host() == null, b.host() == null);
        return byHost != 0 ? byHost : Boolean.compare(a.methods().isEmpty(), b.methods().isEmpty());
    };

    private static int prefixLength(Route route) {
        return route.pathPrefix().equals("/") ? 0 : route.pathPrefix().length();
    }

    public RouteTable(List<Route> routes) {
        SharedRouteParts parts = new SharedRouteParts();
        this.entries = routes.stream().sorted(MOST_SPECIFIC_FIRST).map(r -> new Entry(parts.share(r), new AtomicInteger()))
                .toList();
        this.index = PrefixIndex.of(entries, e -> e.route().pathPrefix(), Group::new);
    }

    public static RouteTable empty() {
        return new RouteTable(List.of());
    }

    public List<Route> routes() {
        return entries.stream().map(Entry::route).toList();
    }

    /** The entries, most specific first: what the data plane attaches its per-route state to. */
    public List<Entry> entries() {
        return entries;
    }

    public int size() {
        return entries.size();
    }

    /** @param host the request's host without port, or null when it sent none */
    public Match match(String method, @Nullable String host, String rawPath) {
        Set<String> allowed = null;
        int depth = index.maxDepth();
        if (depth > 0) {
            Object[] groups = new Object[depth];
            int count = index.lookup(rawPath, groups);
            for (int i = 0; i < count; i++) {
                Group group = (Group) groups[i];
                Match found = group.match(method, host);
                if (found instanceof MethodNotAllowed refused) {
                    allowed = union(allowed, refused.allowed());
                } else if (found != null) {
                    return found;
                }
            }
        }
        Group root = index.root();
        if (root != null) {
            Match found = root.match(method, host);
            if (found instanceof MethodNotAllowed refused) {
                allowed = union(allowed, refused.allowed());
            } else if (found != null) {
                return found;
            }
        }
        return allowed == null ? NO_ROUTE : new MethodNotAllowed(allowed);
    }

    private static Set<String> union(@Nullable Set<String> so, Set<String> more) {
        if (so == null) {
            return more;
        }
        so.addAll(more);
        return so;
    }

    /**
     * The routes of one prefix, most specific first: those bound to a host (by host, for an ASCII host: a host name
     * is ASCII, and for ASCII {@code equalsIgnoreCase} is equality after lower-casing), then those for any host.
     */
    private static final class Group {
        private final Found[] hosted;
        private final Map<String, Found[]> byHost;
        private final boolean hostsAscii;
        private final Found[] anyHost;

        Group(List<Entry> ordered) {
            List<Found> withHost = new ArrayList<>();
            List<Found> without = new ArrayList<>();
            Map<String, List<Found>> perHost = new LinkedHashMap<>();
            boolean ascii = true;
            for (Entry entry : ordered) {
                Found found = new Found(entry);
                String host = entry.route().host();
                if (host == null) {
                    without.add(found);
                } else {
                    withHost.add(found);
                    ascii &= isAscii(host);
                    perHost.computeIfAbsent(host.toLowerCase(Locale.ROOT), h -> new ArrayList<>()).add(found);
                }
            }
            this.hosted = withHost.toArray(Found[]::new);
            this.anyHost = without.toArray(Found[]::new);
            this.hostsAscii = ascii;
            Map<String, Found[]> map = new java.util.HashMap<>();
            perHost.forEach((host, list) -> map.put(host, list.toArray(Found[]::new)));
            this.byHost = map;
        }

        /** @return the route found, a {@link MethodNotAllowed} with a mutable set, or null: no route for the host */
        @Nullable Match match(String method, @Nullable String host) {
            Set<String> allowed = null;
            if (host != null && hosted.length > 0) {
                if (hostsAscii && isAscii(host)) {
                    Found[] forHost = byHost.get(host.toLowerCase(Locale.ROOT));
                    if (forHost != null) {
                        for (Found found : forHost) {
                            if (found.entry().route().allows(method)) {
                                return found;
                            }
                            allowed = add(allowed, found);
                        }
                    }
                } else {
                    for (Found found : hosted) {
                        if (found.entry().route().matchesHost(host)) {
                            if (found.entry().route().allows(method)) {
                                return found;
                            }
                            allowed = add(allowed, found);
                        }
                    }
                }
            }
            for (Found found : anyHost) {
                if (found.entry().route().allows(method)) {
                    return found;
                }
                allowed = add(allowed, found);
            }
            return allowed == null ? null : new MethodNotAllowed(allowed);
        }

        private static Set<String> add(@Nullable Set<String> allowed, Found found) {
            Set<String> set = allowed == null ? new LinkedHashSet<>() : allowed;
            set.addAll(found.entry().route().allowHeaderMethods());
            return set;
        }

        private static boolean isAscii(String text) {
            for (int i = 0; i < text.length(); i++) {
                if (text.charAt(i) >= 0x80) {
                    return false;
                }
            }
            return true;
        }
    }
}
