package io.pylon.worker.proxy;

import io.helidon.http.HttpPrologue;
import io.helidon.http.PathMatcher;
import io.helidon.http.PathMatchers;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRoute;
import io.pylon.core.http.PodPaths;

/**
 * The gateway as one Helidon route: it accepts every request outside {@code /<segment>/}, of any method, and hands it
 * to the proxy handler; the pod's own paths are not accepted and go on to the platform's routes. Being a route (not a
 * filter that answers around the routing), the proxy's answer is committed by Helidon like any handler's: a streamed
 * body ends with its last chunk or its full length and the connection stays usable. Immutable; called concurrently.
 */
public final class GatewayRoute implements HttpRoute {
    private static final PathMatcher ANY = PathMatchers.any();

    private final PodPaths paths;
    private final Handler gateway;

    /** @param gateway the proxy handler, already timed */
    public GatewayRoute(PodPaths paths, Handler gateway) {
        this.paths = paths;
        this.gateway = gateway;
    }

    @Override
    public PathMatchers.MatchResult accepts(HttpPrologue prologue) {
        // by the path as it came: one that only normalises to a platform path is the gateway's to refuse
        return paths.isReserved(prologue.uriPath().rawPath()) ? PathMatchers.MatchResult.notAccepted()
                : ANY.match(prologue.uriPath());
    }

    @Override
    public Handler handler() {
        return gateway;
    }

    @Override
    public String toString() {
        return "gateway (every path outside " + paths.root() + "/)";
    }
}
