package io.pylon.worker.proxy;

import io.helidon.webserver.ServerConnectionException;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.pylon.core.http.PodPaths;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketException;

/**
 * Takes every request outside {@code /<segment>/} to the gateway before routing; the pod's own paths go on to the
 * routes. As a route registered after the platform's, the gateway made Helidon test each platform route against
 * every proxied request first (templates such as {@code /<segment>/diagnostics/{name}} by regular expression). The
 * outer filters (connection guard, header limit, traffic counts) still wrap it, and failures end as they would in
 * a route: a failure to write to a client that went away closes the connection, anything else reaches the connection
 * guard's error answer. Immutable; called concurrently by request threads.
 */
public final class GatewayFilter implements Filter {
    private final PodPaths paths;
    private final Handler gateway;

    /** @param gateway the proxy handler, already timed */
    public GatewayFilter(PodPaths paths, Handler gateway) {
        this.paths = paths;
        this.gateway = gateway;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        if (paths.isReserved(req.path().path())) {
            chain.proceed();
            return;
        }
        try {
            gateway.handle(req, res);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            // what Helidon's routing does with a checked exception from a route
            if (e.getCause() instanceof SocketException socket) {
                throw new ServerConnectionException("SocketException during routing", socket);
            }
            throw e instanceof IOException io ? new UncheckedIOException(io) : new IllegalStateException(e);
        }
    }
}
