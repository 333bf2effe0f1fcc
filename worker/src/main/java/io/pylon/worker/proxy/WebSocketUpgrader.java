package io.pylon.worker.proxy;

import org.jspecify.annotations.Nullable;

import io.pylon.worker.keys.KeySet;
import io.helidon.common.buffers.BufferData;
import io.helidon.http.HeaderNames;
import io.helidon.http.HttpPrologue;
import io.helidon.http.Status;
import io.helidon.http.WritableHeaders;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.spi.Http1Upgrader;
import io.helidon.webserver.spi.ServerConnection;
import io.pylon.core.http.ErrorHandling;
import io.pylon.core.http.Json;
import io.pylon.core.http.PodPaths;
import io.pylon.gateway.model.Route;
import io.pylon.gateway.model.Upstream;
import io.pylon.worker.routes.RouteTable;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Takes an HTTP/1.1 {@code Upgrade: websocket} request on a gateway route that allows it, before Helidon routes it:
 * the same path normalisation, route match, access policies (IP rules, key auth: {@link AccessPolicies}) and rate
 * limit as any proxied request ({@link ProxyHandler}: a stage added there must be added here), then the handshake forwarded to an upstream
 * ({@link WebSocketHandshake}). On the upstream's 101 the client gets it and the connection becomes a
 * {@link WebSocketTunnel}. Anything else is answered on the client's connection, which then closes: the upstream's
 * refusal as it came (status, end-to-end headers, body), or the gateway's JSON error (502 unreachable, 504 no answer
 * in time, 429 or 503 from the rate limit, 503 over the tunnel maximum). Requests the gateway does not take here
 * (platform paths, no route, a method other than GET, a route with {@code websocket: false}) go on to Helidon's
 * routing as plain HTTP, where the gateway forwards them without the upgrade (a hop-by-hop header).
 *
 * <p>Threading: immutable; called concurrently by connection threads. A handshake runs on a thread of its own, and
 * its answer passes back to the connection's thread through an {@code AtomicReference} of that call alone.
 */
public final class WebSocketUpgrader implements Http1Upgrader {
    private static final System.Logger LOG = System.getLogger(WebSocketUpgrader.class.getName());

    private final PodPaths paths;
    private final Supplier<RouteTable> routes;
    private final RateLimitGate rateLimits;
    private final WebSocketTunnels tunnels;
    private final ProxyStats stats;
    private final KeySet keys;
    private final UpstreamPools pools;
    private final int maxHeaders;
    private final boolean requestIds;

    /**
     * @param pools      for the routes' upstream TLS contexts (a tunnel has a connection of its own, not a pooled one)
     * @param maxHeaders the pod's header block bound: a handshake past it (or with a field without a name) is left to
     *                   routing, whose filter answers it as any request
     */
    public WebSocketUpgrader(String segment, Supplier<RouteTable> routes, io.pylon.worker.ratelimit.RateLimiter limiter,
                             io.pylon.worker.ratelimit.PlanLimiter plans, WebSocketTunnels tunnels, ProxyStats stats,
                             KeySet keys, UpstreamPools pools, int maxHeaders, boolean requestIds) {
        this.requestIds = requestIds;
        this.keys = keys;
        this.maxHeaders = maxHeaders;
        this.pools = pools;
        this.paths = PodPaths.of(segment);
        this.routes = routes;
        this.rateLimits = new RateLimitGate(limiter, plans, stats);
        this.tunnels = tunnels;
        this.stats = stats;
    }

    @Override
    public String supportedProtocol() {
        return "websocket";
    }

    @Override
    public @Nullable ServerConnection upgrade(ConnectionContext ctx, HttpPrologue prologue, WritableHeaders<?> headers) {
        String rawPath = prologue.uriPath().rawPath();
        if (!prologue.method().text().equals("GET") || paths.isReserved(rawPath)
                || ErrorHandling.refusesHeaders(headers, maxHeaders)) {
            return null;
        }
        RequestPath.Target target;
        String named;
        try {
            target = RequestPath.target(rawPath);
            RequestPath.checkQuery(prologue.query().rawValue());
            named = target.named(headers.first(HeaderNames.HOST).orElse(null));
        } catch (RequestPath.InvalidPathException e) {
            return null; // routing answers it with 400, as for any request
        }
        String path = target.path();
        RouteTable table = routes.get();
        String host = ClientAddress.hostToMatch(named);
        if (paths.isReserved(path) || table == null
                || !(table.match("GET", host, path) instanceof RouteTable.Found found)
                || !found.entry().route().websocket()) {
            return null;
        }
        Route route = found.entry().route();
        // as with the forwarding headers of a handshake (Hop.of: trusting no one), a client's identifier is replaced
        String requestId = requestIds ? RequestId.generate() : null;
        GatewayError refusal = AccessPolicies.refusal(route.name(), route.policies(), keys,
                ctx.remotePeer().address(), headers);
        if (refusal != null) {
            return answer(ctx, requestId, refusal);
        }
        KeySet.Check key = AccessPolicies.admittedKey(route.name(), route.policies(), keys, headers);
        if (key != null && key.application() != null && key.plan() != null) {
            refusal = rateLimits.checkPlan(route, key.application(), key.plan());
            if (refusal != null) {
                return answer(ctx, requestId, refusal);
            }
        }
        String clientIp = ClientAddress.ip(ctx.remotePeer());
        refusal = rateLimits.check(route, clientIp);
        if (refusal != null) {
            return answer(ctx, requestId, refusal);
        }
        if (!tunnels.reserve()) {
            return answer(ctx, requestId, new GatewayError(Status.SERVICE_UNAVAILABLE_503, "service_unavailable",
                    "This gateway holds its maximum of WebSocket connections; try again later.", 1));
        }
        boolean tunnelled = false;
        try {
            UpstreamTlsContext tls = pools.tls(found.entry().route().forwarding().upstreamTls());
            String application = key == null ? null : key.application();
            OutboundRequest.Hop hop = OutboundRequest.Hop.of(clientIp, ctx.isSecure(), named);
            OutboundRequest.Hop identified = requestId == null ? hop : hop.withRequestId(requestId);
            WebSocketHandshake.Result result = onOwnThread(() -> WebSocketHandshake.open(found.entry(), path,
                    prologue, headers, identified, tls, application));
            return switch (result) {
                case WebSocketHandshake.Switched switched -> {
                    ctx.dataWriter().writeNow(BufferData.create(switched.head()));
                    tunnelled = true;
                    // Helidon keeps the request while the connection's thread runs the tunnel: hours, for nothing
                    headers.clear();
                    yield tunnels.tunnel(ctx, switched.socket(), switched.leftover());
                }
                case WebSocketHandshake.Refused refused -> {
                    tunnels.refusedUpgrades.increment();
                    ctx.dataWriter().writeNow(BufferData.create(refused.response()));
                    yield closed(ctx);
                }
            };
        } catch (SocketTimeoutException e) {
            stats.gatewayTimeout.increment();
            return answer(ctx, requestId, GatewayError.GATEWAY_TIMEOUT);
        } catch (ConnectException e) {
            stats.badGateway.increment();
            return answer(ctx, requestId, GatewayError.BAD_GATEWAY);
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "WebSocket handshake with the upstream failed: "
                    + e.getClass().getSimpleName());
            stats.badGateway.increment();
            return answer(ctx, requestId, GatewayError.BAD_GATEWAY);
        } finally {
            if (!tunnelled) {
                tunnels.release();
            }
        }
    }

    /**
     * Runs the handshake on a virtual thread of its own while the connection's thread waits: a virtual thread keeps
     * the stack chunk of its deepest wait, and the connection's thread then waits for the whole tunnel's life, so it
     * must not wait deep inside the handshake's parser (measured: 5.9 KB of stack chunk per tunnel, against 4 KB).
     * The wait is not cut short by an interrupt (the handshake has its timeouts), so that the upstream connection it
     * may open is not left behind; the interrupt is kept for the caller.
     */
    private static WebSocketHandshake.Result onOwnThread(Handshake handshake) throws IOException {
        Thread waiting = Thread.currentThread();
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread.ofVirtual().name("websocket-handshake").start(() -> {
            Object result;
            try {
                result = handshake.open();
            } catch (IOException | RuntimeException e) {
                result = e;
            }
            outcome.set(result);
            LockSupport.unpark(waiting);
        });
        boolean interrupted = false;
        Object result;
        while ((result = outcome.get()) == null) {
            LockSupport.park(outcome);
            interrupted |= Thread.interrupted();
        }
        if (interrupted) {
            waiting.interrupt();
        }
        if (result instanceof IOException e) {
            throw e;
        }
        if (result instanceof RuntimeException e) {
            throw e;
        }
        return (WebSocketHandshake.Result) result;
    }

    private interface Handshake {
        WebSocketHandshake.Result open() throws IOException;
    }

    /** Writes the gateway's own JSON answer and ends the connection. */
    private static ServerConnection answer(ConnectionContext ctx, @Nullable String requestId, GatewayError error) {
        byte[] body = Json.bytes(error.body(requestId));
        StringBuilder head = new StringBuilder(160).append("HTTP/1.1 ").append(error.status().code()).append(' ')
                .append(error.status().reasonPhrase()).append("\r\nContent-Type: application/json\r\n")
                .append("Cache-Control: no-store\r\nConnection: close\r\nContent-Length: ").append(body.length)
                .append("\r\n");
        if (error.retryAfterSeconds() > 0) {
            head.append("Retry-After: ").append(error.retryAfterSeconds()).append("\r\n");
        }
        if (requestId != null) {
            head.append("X-Request-Id: ").append(requestId).append("\r\n");
        }
        head.append("\r\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream(head.length() + body.length);
        out.writeBytes(head.toString().getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(body);
        try {
            ctx.dataWriter().writeNow(BufferData.create(out.toByteArray()));
        } catch (RuntimeException ignored) {
            // the client went away
        }
        return closed(ctx);
    }

    /** The connection after a refused upgrade: it ends (the answer said Connection: close). */
    private static ServerConnection closed(ConnectionContext ctx) {
        return new ServerConnection() {
            @Override
            public void handle(io.helidon.common.concurrency.limits.Limit limit) {
                try {
                    ctx.serverSocket().close();
                } catch (RuntimeException ignored) {
                    // already closed
                }
            }

            @Override
            public java.time.Duration idleTime() {
                return java.time.Duration.ZERO;
            }

            @Override
            public void close(boolean interrupt) {
                ctx.serverSocket().close();
            }
        };
    }
}
