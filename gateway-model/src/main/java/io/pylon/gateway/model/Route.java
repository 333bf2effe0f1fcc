package io.pylon.gateway.model;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * One route of the gateway: requests whose path starts with {@code pathPrefix} (at a segment boundary), and whose
 * method and host match when those are given, go to one of the upstreams.
 *
 * @param methods     upper-case methods; empty means any method but those a route must name ({@link #NAMED_ONLY})
 * @param host        host name the request's Host must carry (port ignored, case-insensitive); null means any host
 * @param stripPrefix whether the prefix is removed from the path before it is appended to the upstream's base path
 * @param rateLimit   null when the route has no limit
 * @param policies    header transforms, path rewrite, CORS, IP rules and key auth ({@link Policies#NONE}: none)
 * @param websocket   whether a client's {@code Upgrade: websocket} is forwarded to the upstream (tunnelled after
 *                    its 101); when false the request goes upstream as plain HTTP, without the upgrade
 * @param forwarding  Host, Location rewriting, body limit, buffering, retries, health check
 *                    ({@link Forwarding#DEFAULTS})
 */
public record Route(String name, String pathPrefix, Set<String> methods, @Nullable String host, List<Upstream> upstreams,
                    boolean stripPrefix, Duration connectTimeout, Duration responseTimeout, @Nullable RateLimit rateLimit,
                    Policies policies, boolean websocket, Forwarding forwarding) {

    public Route {
        // any method (most routes): one shared empty set rather than an empty copy per route
        methods = methods.isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(methods));
        upstreams = List.copyOf(upstreams);
        policies = policies == null ? Policies.NONE : policies;
        forwarding = forwarding == null ? Forwarding.DEFAULTS : forwarding;
    }

    /** A route that forwards the default way. */
    public Route(String name, String pathPrefix, Set<String> methods, @Nullable String host, List<Upstream> upstreams,
                 boolean stripPrefix, Duration connectTimeout, Duration responseTimeout, @Nullable RateLimit rateLimit,
                 Policies policies, boolean websocket) {
        this(name, pathPrefix, methods, host, upstreams, stripPrefix, connectTimeout, responseTimeout, rateLimit,
                policies, websocket, Forwarding.DEFAULTS);
    }

    /** A route that lets WebSocket upgrades through and forwards the default way. */
    public Route(String name, String pathPrefix, Set<String> methods, @Nullable String host, List<Upstream> upstreams,
                 boolean stripPrefix, Duration connectTimeout, Duration responseTimeout, @Nullable RateLimit rateLimit,
                 Policies policies) {
        this(name, pathPrefix, methods, host, upstreams, stripPrefix, connectTimeout, responseTimeout, rateLimit,
                policies, true, Forwarding.DEFAULTS);
    }

    /** A route without policies besides its rate limit. */
    public Route(String name, String pathPrefix, Set<String> methods, @Nullable String host, List<Upstream> upstreams,
                 boolean stripPrefix, Duration connectTimeout, Duration responseTimeout, RateLimit rateLimit) {
        this(name, pathPrefix, methods, host, upstreams, stripPrefix, connectTimeout, responseTimeout, rateLimit,
                Policies.NONE, true, Forwarding.DEFAULTS);
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

    /**
     * Methods a route takes only when its {@code methods} name them: TRACE sends the request back, its cookies and
     * credentials included (cross-site tracing), and CONNECT asks for a tunnel, which a gateway is not. nginx refuses
     * both on every location.
     */
    public static final Set<String> NAMED_ONLY = Set.of("TRACE", "CONNECT");

    /** What a route with no method list answers in {@code Allow} when it refuses one of {@link #NAMED_ONLY}. */
    public static final Set<String> USUAL = java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(
            List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")));

    public boolean allows(String method) {
        return methods.isEmpty() ? !NAMED_ONLY.contains(method) : methods.contains(method);
    }

    /** The methods named in {@code Allow} for this route: its list, or the usual ones when it has none. */
    public Set<String> allowHeaderMethods() {
        return methods.isEmpty() ? USUAL : methods;
    }

    /**
     * The path sent upstream: the upstream's base path, then the request path (without the prefix if stripped, with
     * the prefix replaced when the route rewrites it).
     */
    public String upstreamPath(Upstream upstream, String rawPath) {
        String rest = rawPath;
        String rewrite = policies.rewritePrefix();
        if ((stripPrefix || rewrite != null) && !pathPrefix.equals("/")) {
            rest = rawPath.substring(pathPrefix.length());
        }
        if (rewrite != null && !rewrite.equals("/")) {
            rest = rewrite + rest;
        } else if (rewrite != null && rest.isEmpty()) {
            rest = "/";
        } else if (rewrite != null && !rest.startsWith("/")) {
            rest = "/" + rest;
        }
        if (rest.isEmpty()) {
            rest = upstream.basePath().isEmpty() ? "/" : "";
        }
        return upstream.basePath() + rest;
    }
}
