package io.pylon.gateway.model;

import java.net.URI;

/**
 * One upstream base URL of a route, split into the origin that keys its connection pool ({@code http://host:port})
 * and the base path that prefixes every forwarded path ({@code ""} when the URL has none), with its share of the
 * route's requests ({@code weight}, 1 to 100, 1 unless the route says otherwise).
 */
public record Upstream(String scheme, String host, int port, String basePath, String origin, int weight) {
    public static final int MAX_WEIGHT = 100;

    /** @param origin {@code http://10.0.0.5:8080}: the pool key and the name shown in {@code connections.pools[]} */
    public Upstream {
        if (origin == null) {
            origin = origin(scheme, host, port);
        }
        if (weight < 1 || weight > MAX_WEIGHT) {
            throw new IllegalArgumentException("weight must be from 1 to " + MAX_WEIGHT);
        }
    }

    public Upstream(String scheme, String host, int port, String basePath, String origin) {
        this(scheme, host, port, basePath, origin, 1);
    }

    public Upstream(String scheme, String host, int port, String basePath) {
        this(scheme, host, port, basePath, origin(scheme, host, port), 1);
    }

    private static String origin(String scheme, String host, int port) {
        return scheme + "://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /** The same upstream with another weight. */
    public Upstream withWeight(int weight) {
        return new Upstream(scheme, host, port, basePath, origin, weight);
    }

    /** Parses an upstream URL; throws {@link IllegalArgumentException} with the reason when it is not one. */
    public static Upstream parse(String text) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("'" + text + "' is not a URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (!"http".equals(scheme) && !"https".equals(scheme)) {
            throw new IllegalArgumentException("'" + text + "' is not an http:// or https:// URL");
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("'" + text + "' has no host");
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("an upstream URL must not carry credentials");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("'" + text + "' must not have a query or fragment");
        }
        int port = uri.getPort() != -1 ? uri.getPort() : ("https".equals(scheme) ? 443 : 80);
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        String host = uri.getHost();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return new Upstream(scheme, host, port, path);
    }

    @Override
    public String toString() {
        return origin() + basePath;
    }
}
