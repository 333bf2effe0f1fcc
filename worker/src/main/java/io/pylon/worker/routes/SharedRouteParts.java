package io.pylon.worker.routes;

import io.pylon.gateway.model.Route;
import io.pylon.gateway.model.Upstream;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Makes the routes of one table share their equal parts (upstream lists and upstreams, timeouts, rate limit, policies,
 * forwarding): every part is an immutable value, so one instance serves every route that has an equal one. With many
 * proxies a request then reads parts that the other routes' requests keep in the CPU's cache, instead of a copy of
 * its own route's: with a thousand proxies most of them are defaults or name the same few upstreams.
 *
 * <p>Threading: used by one thread while a table is built, then dropped.
 */
final class SharedRouteParts {
    private final Map<Object, Object> parts = new HashMap<>();

    Route share(Route route) {
        List<Upstream> upstreams = new ArrayList<>(route.upstreams().size());
        for (Upstream upstream : route.upstreams()) {
            upstreams.add(shared(upstream));
        }
        return new Route(route.name(), route.pathPrefix(), route.methods(), route.host(), shared(List.copyOf(upstreams)),
                route.stripPrefix(), shared(route.connectTimeout()), shared(route.responseTimeout()),
                sharedOrNull(route.rateLimit()), shared(route.policies()), route.websocket(), shared(route.forwarding()));
    }

    @SuppressWarnings("unchecked")
    private <T> T shared(T part) {
        return (T) parts.computeIfAbsent(part, p -> p);
    }

    private <T> @Nullable T sharedOrNull(@Nullable T part) {
        return part == null ? null : shared(part);
    }
}
