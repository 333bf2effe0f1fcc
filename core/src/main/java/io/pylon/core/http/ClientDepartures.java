package io.pylon.core.http;

import io.helidon.webserver.http.ServerRequest;
import org.jspecify.annotations.Nullable;

/**
 * Finds a request's {@link ClientDeparture}: the pod's listener keeps one for each HTTP/2 request in flight, and one
 * for the HTTP/1 request in flight on a connection once its handler asks.
 */
@FunctionalInterface
public interface ClientDepartures {
    /** For pods and tests without a listener that tracks them. */
    ClientDepartures NONE = req -> null;

    /** The request's, or null when its client's leaving is known only from a failed write (no tracking listener). */
    @Nullable ClientDeparture of(ServerRequest req);
}
