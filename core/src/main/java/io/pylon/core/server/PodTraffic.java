package io.pylon.core.server;

import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.HttpRouting;
import io.pylon.core.http.ListenerProbe;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The pod's view of its requests: counts those finished (not the listener watch's own), and while the pod stops,
 * answers requests with {@code Connection: close} so that clients move to other pods instead of sending more on a
 * connection about to close.
 *
 * <p>Threading: the filter runs on request threads (virtual); the counter is atomic and the stopping flag volatile.
 */
final class PodTraffic {
    private final AtomicLong finished = new AtomicLong();
    private volatile boolean closing;

    void install(HttpRouting.Builder routing) {
        routing.addFilter((chain, req, res) -> {
            if (closing) {
                res.header(HeaderValues.CONNECTION_CLOSE);
            }
            try {
                chain.proceed();
            } finally {
                if (!ListenerProbe.isProbe(req)) {
                    finished.incrementAndGet();
                }
            }
        });
    }

    /** Whether answers from now on carry {@code Connection: close}. */
    void closeConnections(boolean on) {
        closing = on;
    }

    long finished() {
        return finished.get();
    }
}
