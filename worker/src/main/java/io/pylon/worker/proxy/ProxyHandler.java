package io.pylon.worker.proxy;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.ErrorBody;
import io.pylon.worker.ratelimit.RateLimiter;
import io.pylon.worker.routes.RateLimit;
import io.pylon.worker.routes.Route;
import io.pylon.worker.routes.RouteTable;
import io.pylon.worker.routes.Upstream;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.util.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The gateway's data plane: every request outside {@code /<segment>/} is matched against the routes and forwarded
 * to an upstream, request and response bodies streamed through a fixed buffer (never held whole). Upstreams are
 * tried in round-robin order, healthy ones first; one that refuses the connection (or does not accept it in time) is
 * marked failed and the next is tried, which is safe for any method because nothing was sent.
 */
public final class ProxyHandler implements Handler {
    private static final System.Logger LOG = System.getLogger(ProxyHandler.class.getName());
    private static final HeaderName X_FORWARDED_FOR = HeaderNames.create("X-Forwarded-For");
    private static final HeaderName X_FORWARDED_PROTO = HeaderNames.create("X-Forwarded-Proto");
    private static final HeaderName X_FORWARDED_HOST = HeaderNames.create("X-Forwarded-Host");
    private static final Status GATEWAY_TIMEOUT = Status.GATEWAY_TIMEOUT_504;

    private final String reservedPrefix;
    private final Supplier<RouteTable> routes;
    private final UpstreamPools pools;
    private final ResponseTimeouts responseTimeouts;
    private final RateLimiter rateLimiter;
    private final ProxyStats stats;

    public ProxyHandler(String segment, Supplier<RouteTable> routes, UpstreamPools pools,
                        ResponseTimeouts responseTimeouts, RateLimiter rateLimiter, ProxyStats stats) {
        this.reservedPrefix = "/" + segment;
        this.routes = routes;
        this.pools = pools;
        this.responseTimeouts = responseTimeouts;
        this.rateLimiter = rateLimiter;
        this.stats = stats;
    }

    @Override
    public void handle(ServerRequest req, ServerResponse res) throws Exception {
        String path = req.path().path();
        if (path.equals(reservedPrefix) || path.startsWith(reservedPrefix + "/")) {
            res.next();
            return;
        }
        String method = req.prologue().method().text();
        String rawPath = req.path().rawPath();
        RouteTable.Match match = routes.get().match(method, hostWithoutPort(req), rawPath);
        switch (match) {
            case RouteTable.NoRoute ignored -> {
                stats.noRoute.increment();
                ErrorBody.send(res, Status.NOT_FOUND_404, "not_found", "No route matches " + rawPath);
            }
            case RouteTable.MethodNotAllowed notAllowed -> {
                String allow = String.join(", ", notAllowed.allowed());
                res.header(HeaderNames.ALLOW, allow);
                ErrorBody.send(res, Status.METHOD_NOT_ALLOWED_405, "method_not_allowed",
                        "Method " + method + " is not allowed on " + rawPath + "; allowed: " + allow);
            }
            case RouteTable.Found found -> {
                if (withinRateLimit(found.entry().route(), req, res)) {
                    forward(found.entry(), method, rawPath, req, res);
                }
            }
        }
    }

    private boolean withinRateLimit(Route route, ServerRequest req, ServerResponse res) {
        RateLimit limit = route.rateLimit();
        if (limit == null) {
            return true;
        }
        RateLimiter.Decision decision = rateLimiter.check(route, clientIp(req));
        switch (decision.outcome()) {
            case ALLOW -> {
                return true;
            }
            case LIMITED -> {
                stats.rateLimited.increment();
                res.header(HeaderNames.RETRY_AFTER, String.valueOf(decision.retryAfterSeconds()));
                ErrorBody.send(res, Status.TOO_MANY_REQUESTS_429, "too_many_requests", "Rate limit of "
                        + limit.requests() + " request(s) per " + limit.window().name().toLowerCase(Locale.ROOT)
                        + " exceeded.");
                return false;
            }
            default -> {
                stats.rateLimitUnavailable.increment();
                res.header(HeaderNames.RETRY_AFTER, String.valueOf(decision.retryAfterSeconds()));
                ErrorBody.send(res, Status.SERVICE_UNAVAILABLE_503, "service_unavailable",
                        "The rate limit of this route cannot be checked right now; try again later.");
                return false;
            }
        }
    }

    private void forward(RouteTable.Entry entry, String method, String rawPath, ServerRequest req, ServerResponse res)
            throws Exception {
        Route route = entry.route();
        TrackedBody body = req.content().hasEntity() ? new TrackedBody(req.content().inputStream()) : null;
        Failure failure = null;
        for (Upstream upstream : order(entry)) {
            UpstreamPool pool = pools.pool(upstream);
            ResponseTimeout responseTimeout = responseTimeouts.create(route.responseTimeout());
            ClassicHttpRequest outbound = outbound(method, route, upstream, pool, rawPath, req, body, responseTimeout);
            UpstreamExchange exchange;
            try {
                exchange = pool.open(outbound, connectTimeout(route), responseTimeout);
            } catch (ConnectTimeoutException | ConnectException e) {
                pools.failed(pool);
                failure = e instanceof ConnectTimeoutException ? Failure.TIMEOUT : Failure.UNREACHABLE;
                log(route, pool, e);
                if (body != null && body.started) {
                    break;
                }
                continue;
            } catch (IOException e) {
                if (body != null && body.clientFailed) {
                    // the client stopped sending its body: nobody is left to answer
                    stats.clientAborted.increment();
                    throw new CloseConnectionException("client went away while sending the request body", e);
                }
                failure = responseTimeout.expired() ? Failure.TIMEOUT : classify(e);
                if (failure == Failure.UNREACHABLE) {
                    pools.failed(pool);
                }
                log(route, pool, e);
                break;
            }
            relay(exchange, res);
            return;
        }
        answerFailure(failure == null ? Failure.UNREACHABLE : failure, res);
    }

    private enum Failure {
        UNREACHABLE, TIMEOUT, POOL_EXHAUSTED
    }

    private static Failure classify(IOException e) {
        if (e instanceof UpstreamExchange.PoolExhaustedException) {
            return Failure.POOL_EXHAUSTED;
        }
        if (e instanceof SocketTimeoutException) {
            return Failure.TIMEOUT;
        }
        return Failure.UNREACHABLE;
    }

    private void answerFailure(Failure failure, ServerResponse res) {
        switch (failure) {
            case TIMEOUT -> {
                stats.gatewayTimeout.increment();
                ErrorBody.send(res, GATEWAY_TIMEOUT, "gateway_timeout", "The upstream service did not answer in time.");
            }
            case POOL_EXHAUSTED -> {
                stats.poolExhausted.increment();
                res.header(HeaderNames.RETRY_AFTER, "1");
                ErrorBody.send(res, Status.SERVICE_UNAVAILABLE_503, "service_unavailable",
                        "The upstream service has too many requests in progress; try again later.");
            }
            default -> {
                stats.badGateway.increment();
                ErrorBody.send(res, Status.BAD_GATEWAY_502, "bad_gateway", "The upstream service could not be reached.");
            }
        }
    }

    private static void log(Route route, UpstreamPool pool, IOException e) {
        LOG.log(Level.DEBUG, () -> "Route " + route.name() + ": upstream " + pool.origin() + " failed: "
                + e.getClass().getSimpleName());
    }

    /** Round robin from the route's cursor, upstreams that failed recently moved to the end (tried only if all did). */
    private List<Upstream> order(RouteTable.Entry entry) {
        List<Upstream> upstreams = entry.route().upstreams();
        int n = upstreams.size();
        if (n == 1) {
            return upstreams;
        }
        int start = Math.floorMod(entry.cursor().getAndIncrement(), n);
        List<Upstream> healthy = new ArrayList<>(n);
        List<Upstream> failed = new ArrayList<>(0);
        for (int i = 0; i < n; i++) {
            Upstream upstream = upstreams.get((start + i) % n);
            (pools.pool(upstream).isHealthy() ? healthy : failed).add(upstream);
        }
        healthy.addAll(failed);
        return healthy;
    }

    // Routes share a handful of connect timeouts; no need to build them per request.
    private final Map<Duration, Timeout> connectTimeouts = new ConcurrentHashMap<>();

    private Timeout connectTimeout(Route route) {
        return connectTimeouts.computeIfAbsent(route.connectTimeout(), Timeout::of);
    }

    private static ClassicHttpRequest outbound(String method, Route route, Upstream upstream, UpstreamPool pool,
                                               String rawPath, ServerRequest req, TrackedBody body,
                                               ResponseTimeout responseTimeout) {
        String query = req.query().rawValue();
        String target = route.upstreamPath(upstream, rawPath);
        ClassicHttpRequest outbound = new BasicClassicHttpRequest(method, pool.target(),
                query.isEmpty() ? target : target + "?" + query);
        HopByHopHeaders hop = HopByHopHeaders.of(req.headers().all(HeaderNames.CONNECTION, List::of));
        List<String> forwardedFor = new ArrayList<>(1);
        for (Header header : req.headers()) {
            String name = header.headerName().lowerCase();
            if (hop.isHopByHop(name) || name.equals("host") || name.equals("content-length") || name.equals("expect")) {
                continue;
            }
            if (name.equals("x-forwarded-for")) {
                forwardedFor.addAll(header.allValues());
                continue;
            }
            if (name.equals("x-forwarded-proto") || name.equals("x-forwarded-host")) {
                continue;
            }
            for (String value : header.allValues()) {
                outbound.addHeader(header.name(), value);
            }
        }
        forwardedFor.add(clientIp(req));
        outbound.setHeader(X_FORWARDED_FOR.defaultCase(), String.join(", ", forwardedFor));
        outbound.setHeader(X_FORWARDED_PROTO.defaultCase(), req.isSecure() ? "https" : "http");
        req.headers().first(HeaderNames.HOST).ifPresent(host -> outbound.setHeader(X_FORWARDED_HOST.defaultCase(), host));
        if (body != null) {
            long length = req.headers().contentLength().orElse(-1);
            outbound.setEntity(new UpstreamRequestBody(body, length, responseTimeout));
        }
        return outbound;
    }

    private void relay(UpstreamExchange exchange, ServerResponse res) throws IOException {
        ClassicHttpResponse response = exchange.response();
        boolean completed = false;
        try {
            res.status(Status.create(response.getCode()));
            HttpEntity entity = response.getEntity();
            HopByHopHeaders hop = HopByHopHeaders.of(connectionValues(response));
            for (org.apache.hc.core5.http.Header header : response.getHeaders()) {
                String name = header.getName();
                if (hop.isHopByHop(name) || (entity != null && name.equalsIgnoreCase("content-length"))) {
                    continue;
                }
                res.headers().add(HeaderValues.create(header.getName(), header.getValue()));
            }
            if (entity == null) {
                res.send();
            } else {
                long length = entity.getContentLength();
                if (length >= 0 && length <= StreamBuffer.SIZE) {
                    if (!sendSmall(exchange, (int) length, res)) {
                        return;
                    }
                } else {
                    if (length >= 0) {
                        res.headers().contentLength(length);
                    }
                    stream(exchange, length, res);
                }
            }
            stats.forwarded.increment();
            completed = true;
        } finally {
            if (completed) {
                exchange.complete();
            } else {
                exchange.abort();
            }
        }
    }

    private static List<String> connectionValues(ClassicHttpResponse response) {
        org.apache.hc.core5.http.Header[] connection = response.getHeaders("Connection");
        if (connection.length == 0) {
            return List.of();
        }
        List<String> values = new ArrayList<>(connection.length);
        for (org.apache.hc.core5.http.Header header : connection) {
            values.add(header.getValue());
        }
        return values;
    }

    /**
     * A body no larger than the streaming buffer goes out in one write, without the streaming machinery. Nothing has
     * reached the client before the whole body is read, so an upstream that fails here still gets a clean 502.
     */
    private boolean sendSmall(UpstreamExchange exchange, int length, ServerResponse res) {
        byte[] body;
        try {
            body = exchange.body().readNBytes(length);
        } catch (IOException e) {
            body = null;
        }
        if (body == null || body.length < length) {
            stats.upstreamAborted.increment();
            res.headers().clear();
            answerFailure(exchange.timedOut() ? Failure.TIMEOUT : Failure.UNREACHABLE, res);
            return false;
        }
        try {
            res.send(body);
            return true;
        } catch (UncheckedIOException | io.helidon.webserver.ServerConnectionException e) {
            stats.clientAborted.increment();
            throw new CloseConnectionException("client went away", e);
        }
    }

    private void stream(UpstreamExchange exchange, long length, ServerResponse res) throws IOException {
        byte[] buffer = StreamBuffer.forLength(length);
        long total = 0;
        InputStream in = exchange.body();
        OutputStream out = res.outputStream();
        try {
            while (true) {
                int n;
                try {
                    n = in.read(buffer);
                } catch (IOException e) {
                    stats.upstreamAborted.increment();
                    LOG.log(Level.WARNING, "Upstream stopped sending a response body after " + total + " bytes ("
                            + (exchange.timedOut() ? "silent past the response timeout" : e.getClass().getSimpleName())
                            + "); closing the client connection");
                    // the status line is out: cutting the connection is the only way left to say the body is incomplete
                    throw new CloseConnectionException("upstream stopped sending the response body", e);
                }
                if (n < 0) {
                    break;
                }
                total += n;
                out.write(buffer, 0, n);
                if (in.available() == 0 && (length < 0 || total < length)) {
                    out.flush();
                }
            }
            out.close();
        } catch (UncheckedIOException | IOException | io.helidon.webserver.ServerConnectionException e) {
            stats.clientAborted.increment();
            LOG.log(Level.DEBUG, () -> "Client went away after " + "a partial response: " + e.getClass().getSimpleName());
            throw new CloseConnectionException("client went away", e);
        }
    }

    private static String clientIp(ServerRequest req) {
        SocketAddress address = req.remotePeer().address();
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return req.remotePeer().host();
    }

    private static String hostWithoutPort(ServerRequest req) {
        String host = req.headers().first(HeaderNames.HOST).orElse(null);
        if (host == null) {
            return null;
        }
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            return end > 0 ? host.substring(1, end) : host;
        }
        int colon = host.indexOf(':');
        return colon >= 0 ? host.substring(0, colon) : host;
    }

    /** The client's request body, remembering whether reading started and whether the client side failed. */
    private static final class TrackedBody extends InputStream {
        private final InputStream in;
        volatile boolean started;
        volatile boolean clientFailed;

        TrackedBody(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            started = true;
            try {
                return in.read(b, off, len);
            } catch (IOException e) {
                clientFailed = true;
                throw e;
            } catch (RuntimeException e) {
                clientFailed = true;
                throw new InterruptedIOException("client request body failed: " + e.getClass().getSimpleName());
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
