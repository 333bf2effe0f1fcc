package io.pylon.core.http;

import io.helidon.webserver.http.Handler;

/** Wraps a route's handler so that its requests are measured under the route's name (the metrics implement it). */
@FunctionalInterface
public interface RouteTimer {
    /** Routes not measured. */
    RouteTimer NONE = (routeName, handler) -> handler;

    /** The handler, measured under {@code routeName} (a template or a fixed name, never a request's path). */
    Handler timed(String routeName, Handler handler);
}
