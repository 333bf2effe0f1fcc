package io.pylon.core.server;

import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.HttpRouting;
import io.pylon.core.http.ClientDeparture;
import io.pylon.core.http.ListenerProbe;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The pod's view of its requests: counts those finished (not the listener watch's own), counts an HTTP/2
 * connection's requests in flight on it (it is idle only without any) and gives each its {@link ClientDeparture}, and
 * while the pod stops, answers requests with
 * {@code Connection: close} so that clients move to other pods instead of sending more on a connection about to close.
 *
 * <p>Threading: the filter runs on request threads (virtual); the counter is atomic and the stopping flag volatile.
 */
final class PodTraffic {
    private final AtomicLong finished = new AtomicLong();
    private final Http2Connections http2;
    private volatile boolean closing;

    /** @param http2 the HTTP/2 connections, told when a request of theirs starts and ends */
    PodTraffic(Http2Connections http2) {
        this.http2 = http2;
    }

    void install(HttpRouting.Builder routing) {
        routing.addFilter((chain, req, res) -> {
            if (closing) {
                res.header(HeaderValues.CONNECTION_CLOSE);
            }
            String http2Connection = "2.0".equals(req.prologue().protocolVersion()) ? req.socketId() : null;
            if (http2Connection != null) {
                http2.requestStarted(http2Connection, req.id());
            }
            try {
                chain.proceed();
            } finally {
                if (http2Connection != null) {
                    http2.requestEnded(http2Connection, req.id());
                }
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
