package io.pylon.worker.connections;

import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the server side of the Worker: requests accepted and in flight (a routing filter sees each one), and the
 * port clients reach it on (learned from the first request, since a pod started on port 0 learns it only after bind).
 */
public final class ServerTraffic implements Filter {
    private final LongAdder accepted = new LongAdder();
    private final LongAdder inFlight = new LongAdder();
    private volatile int port;

    public ServerTraffic(int configuredPort) {
        this.port = configuredPort;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        if (port == 0) {
            port = req.localPeer().port();
        }
        accepted.increment();
        inFlight.increment();
        try {
            chain.proceed();
        } finally {
            inFlight.decrement();
        }
    }

    public long requestsAccepted() {
        return accepted.sum();
    }

    public long requestsInFlight() {
        return inFlight.sum();
    }

    /** The listening port, or 0 while unknown (port 0 configured and no request seen yet). */
    public int port() {
        return port;
    }
}
