package io.pylon.core.http;

import io.helidon.webserver.http.ServerRequest;
import org.jspecify.annotations.Nullable;

/** Finds a request's {@link ClientDeparture}: the pod's listener keeps one for each HTTP/2 request in flight. */
@FunctionalInterface
public interface ClientDepartures {
    /** For pods and tests without a listener that tracks them. */
    ClientDepartures NONE = req -> null;

    /** The request's, or null when its client's leaving is known only from a failed write (HTTP/1). */
    @Nullable ClientDeparture of(ServerRequest req);
}
