package io.pylon.core.http;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;

/**
 * The header that marks the pod's own listener watch requests (one a second), which are neither counted as finished
 * requests nor measured as server requests. Anyone may send it; it only keeps a request out of those counts.
 */
public final class ListenerProbe {
    public static final HeaderName HEADER = HeaderNames.create("X-Pylon-Listener-Probe");

    private ListenerProbe() {
    }

    public static boolean isProbe(ServerRequest req) {
        return req.headers().contains(HEADER);
    }
}
