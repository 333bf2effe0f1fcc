package io.pylon.worker.connections;

import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.pylon.core.http.ListenerProbe;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;

/**
 * Counts the server side of the Worker: requests accepted and in flight (a routing filter sees each one), and the
 * port clients reach it on. Thread-safe: counters are adders, the port is read from the pod on each call.
 */
public final class ServerTraffic implements Filter {
    private final LongAdder accepted = new LongAdder();
    private final LongAdder inFlight = new LongAdder();
    private final IntSupplier port;

    /** @param port the pod's listening port ({@code ModuleContext::port}, the bound one once the server runs) */
    public ServerTraffic(IntSupplier port) {
        this.port = port;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        if (ListenerProbe.isProbe(req)) {
            chain.proceed(); // the pod's own listener watch, once a second: not a client's request
            return;
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

    /** The listening port, or 0 before a server configured with port 0 has bound. */
    public int port() {
        return port.getAsInt();
    }
}
