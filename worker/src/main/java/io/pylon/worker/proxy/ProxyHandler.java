package io.pylon.worker.proxy;

import io.pylon.worker.keys.KeySet;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.pylon.gateway.model.Forwarding;
import io.pylon.gateway.model.Policies;
import io.pylon.gateway.model.Route;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.ClientDeparture;
import io.pylon.core.http.ClientDepartures;
import io.pylon.core.http.PodPaths;
import io.pylon.worker.ratelimit.PlanLimiter;
import io.pylon.worker.ratelimit.RateLimiter;
import io.pylon.worker.usage.UsageRecorder;
import org.jspecify.annotations.Nullable;
import io.pylon.worker.routes.RouteTable;
import io.pylon.gateway.model.TrustedProxies;

import java.util.function.Supplier;

/**
 * The gateway's data plane: every request outside {@code /<segment>/} (handed over by the {@link GatewayRoute}) is
 * matched against the routes and forwarded to an upstream. This class only orders the stages, each in its own class:
 * the request's {@link RequestId} (first, so that every answer carries it), route matching (404, 405 with
 * {@code Allow}; 503 before a configuration is loaded), the {@link AccessPolicies}
 * (IP rules, CORS preflight, key auth), the {@link RateLimitGate} (the key's plan, then the route's limit), the {@link UpstreamDispatch} that picks an
 * upstream and fails over, the {@link OutboundRequest} it sends, and the {@link ResponseRelay} that streams the answer
 * back. A request admitted with an application's key is counted in the {@link UsageRecorder} once answered. Called
 * concurrently by the server's request threads (virtual threads); it holds no state of its own beyond
 * the stages.
 */
public final class ProxyHandler implements Handler {
    private static final System.Logger LOG = System.getLogger(ProxyHandler.class.getName());
    private final PodPaths paths;
    private final Supplier<RouteTable> routes;
    private final RateLimitGate rateLimits;
    private final UpstreamDispatch dispatch;
    private final ResponseRelay relay;
    private final ProxyStats stats;
    private final KeySet keys;
    private final TrustedProxies trustedProxies;
    private final long maxRequestBody;
    private final @Nullable UsageRecorder usage;
    private final ClientDepartures departures;
    private final boolean requestIds;

    /**
     * @param trustedProxies clients whose forwarding headers are kept
     * @param maxRequestBody the pod's request body limit in bytes (0: none), for routes that set none
     * @param keys           the API keys a proxy with {@code keyAuth} accepts
     * @param plans          counts requests against the plans of keys' subscriptions
     * @param usage          counts the requests of applications (null: not counted)
     * @param departures     tells a request's exchange that its client left (HTTP/2)
     * @param requestIds     whether each request gets a {@link RequestId}
     */
    public ProxyHandler(String segment, Supplier<RouteTable> routes, UpstreamPools pools,
                        ResponseTimeouts responseTimeouts, RateLimiter rateLimiter, PlanLimiter plans,
                        ProxyStats stats, TrustedProxies trustedProxies, long maxRequestBody, KeySet keys,
                        @Nullable UsageRecorder usage, ClientDepartures departures, boolean requestIds) {
        this.departures = departures;
        this.requestIds = requestIds;
        this.usage = usage;
        this.trustedProxies = trustedProxies;
        this.maxRequestBody = maxRequestBody;
        this.keys = keys;
        this.paths = PodPaths.of(segment);
        this.routes = routes;
        this.rateLimits = new RateLimitGate(rateLimiter, plans, stats);
        this.dispatch = new UpstreamDispatch(pools, responseTimeouts, stats);
        this.relay = new ResponseRelay(stats);
        this.stats = stats;
    }

    @Override
    public void handle(ServerRequest req, ServerResponse res) throws Exception {
        if (paths.isReserved(req.path().rawPath())) {
            res.next();
            return;
        }
        String requestId = null;
        if (requestIds) {
            requestId = RequestId.of(req.headers(), () -> trustedProxies.trusts(ClientAddress.inet(req.remotePeer())));
            res.header(RequestId.NAME, requestId);
        }
        String method = req.prologue().method().text();
        if (!HttpToken.is(method)) {
            stats.badRequest.increment();
            GatewayError.of(Status.BAD_REQUEST_400, "bad_request", "The request line has no valid method").send(res);
            return;
        }
        RequestPath.Target target;
        String named; // the host (and port) the client named, which routes match
        try {
            target = RequestPath.target(req.path().rawPath());
            RequestPath.checkQuery(req.query().rawValue());
            if (target.authority() != null && req.prologue().protocolVersion().equals("2.0")) {
                throw new RequestPath.InvalidPathException("An HTTP/2 request's :path must start with '/'");
            }
            named = target.named(req.headers().first(HeaderNames.HOST).orElse(null));
        } catch (RequestPath.InvalidPathException e) {
            stats.badRequest.increment();
            GatewayError.of(Status.BAD_REQUEST_400, "bad_request", e.reason()).send(res);
            return;
        }
        String path = target.path();
        if (paths.isReserved(path)) {
            // the pod's own paths are never an upstream's, however they were spelt
            stats.badRequest.increment();
            GatewayError.of(Status.BAD_REQUEST_400, "bad_request", "The path names the platform's own paths").send(res);
            return;
        }
        String host = ClientAddress.hostToMatch(named);
        RouteTable table = routes.get();
        if (table == null) { // no configuration yet (manager mode, first start): never a 404 for a path it may serve
            stats.noRoute.increment();
            new GatewayError(Status.SERVICE_UNAVAILABLE_503, "not_configured",
                    "This gateway pod has not loaded its configuration yet.", 1).send(res);
            return;
        }
        switch (table.match(method, host, path)) {
            case RouteTable.NoRoute ignored -> {
                stats.noRoute.increment();
                GatewayError.of(Status.NOT_FOUND_404, "not_found", "No route matches " + path).send(res);
            }
            case RouteTable.MethodNotAllowed notAllowed -> {
                if (answeredPreflight(method, host, path, table, req, res)) {
                    return;
                }
                String allow = String.join(", ", notAllowed.allowed());
                res.header(HeaderNames.ALLOW, allow);
                GatewayError.of(Status.METHOD_NOT_ALLOWED_405, "method_not_allowed",
                        "Method " + method + " is not allowed on " + path + "; allowed: " + allow).send(res);
            }
            case RouteTable.Found found -> forward(found.entry(), method, path, named, requestId, req, res);
        }
    }

    /**
     * A CORS preflight to a route that does not list OPTIONS among its methods: answered by the CORS policy of the
     * route the requested method would reach (the proxy's own, or the Portal's admission), else left to the 405.
     */
    private boolean answeredPreflight(String method, @Nullable String host, String path, RouteTable table, ServerRequest req,
                                      ServerResponse res) {
        String requested = req.headers().first(HeaderNames.ACCESS_CONTROL_REQUEST_METHOD).orElse(null);
        String origin = req.headers().first(HeaderNames.ORIGIN).orElse(null);
        if (!method.equals("OPTIONS") || requested == null || origin == null || !HttpToken.is(requested)
                || !(table.match(requested, host, path) instanceof RouteTable.Found found)) {
            return false;
        }
        Route route = found.entry().route();
        var policies = PortalCors.effective(route.name(), route.policies(), keys, origin);
        return policies.cors() != null && AccessPolicies.admit(route.name(), policies, keys, method, req, res).answered();
    }

    /** 413 before anything is sent upstream; the body stays unread, so the connection closes after the answer. */
    private void refuseTooLarge(ServerResponse res) {
        stats.badRequest.increment();
        res.header(HeaderValues.CONNECTION_CLOSE);
        GatewayError.BODY_TOO_LARGE.send(res);
    }

    /**
     * Whether the client is an HTTP/2 one that takes trailer fields ({@code TE: trailers}, as gRPC's clients send);
     * HTTP/1.1 clients get none, as from nginx's proxy. (Helidon's {@code containsToken} streams over the values: a
     * cost on every request.)
     */
    private static boolean takesTrailers(ServerRequest req) {
        if (!req.prologue().protocolVersion().equals("2.0") || !req.headers().contains(HeaderNames.TE)) {
            return false;
        }
        for (String value : req.headers().get(HeaderNames.TE).allValues()) {
            for (String token : value.split(",")) {
                String name = token.strip();
                int parameters = name.indexOf(';');
                if ((parameters < 0 ? name : name.substring(0, parameters).strip()).equalsIgnoreCase("trailers")) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * @param path  the normalised path ({@link RequestPath}): what the route matched and the upstream receives
     * @param named the host (and port) the client named, which the route matched: null when none
     * @param requestId the request's {@link RequestId}, already on the response; null when the gateway gives none
     */
    private void forward(RouteTable.Entry entry, String method, String path, @Nullable String named,
                         @Nullable String requestId, ServerRequest req, ServerResponse res) throws Exception {
        long start = System.nanoTime();
        Policies policies = PortalCors.effective(entry.route().name(), entry.route().policies(), keys,
                req.headers().first(HeaderNames.ORIGIN).orElse(null));
        AccessPolicies.Admission admission = AccessPolicies.admit(entry.route().name(), policies, keys, method, req,
                res);
        if (admission.answered()) {
            return;
        }
        KeySet.Check key = admission.key();
        if (key == null || key.application() == null || usage == null) {
            forwardAdmitted(entry, policies, key, method, path, named, requestId, req, res);
            return;
        }
        int status = 500;
        try {
            forwardAdmitted(entry, policies, key, method, path, named, requestId, req, res);
            status = res.status().code();
        } catch (ClientGoneException e) {
            status = ClientGoneException.STATUS;
            throw e;
        } finally {
            usage.record(key.application(), entry.route().name(), status, System.nanoTime() - start,
                    System.currentTimeMillis());
        }
    }

    /** @param policies the route's, with the Portal's origin admitted when it is the caller ({@link PortalCors}) */
    private void forwardAdmitted(RouteTable.Entry entry, Policies policies, KeySet.@Nullable Check key, String method,
                                 String path, @Nullable String named, @Nullable String requestId, ServerRequest req,
                                 ServerResponse res) throws Exception {
        String clientIp = ClientAddress.ip(req.remotePeer());
        String application = key == null ? null : key.application();
        KeySet.Plan plan = key == null ? null : key.plan();
        if (application != null && plan != null) {
            GatewayError overPlan = rateLimits.checkPlan(entry.route(), application, plan);
            if (overPlan != null) {
                overPlan.send(res);
                return;
            }
        }
        GatewayError refusal = rateLimits.check(entry.route(), clientIp);
        if (refusal != null) {
            refusal.send(res);
            return;
        }
        Route route = entry.route();
        Forwarding forwarding = route.forwarding();
        long limit = forwarding.maxRequestBody() == Forwarding.POD_DEFAULT ? maxRequestBody : forwarding.maxRequestBody();
        long length = req.content().hasEntity() ? req.headers().contentLength().orElse(-1) : -1;
        if (limit > 0 && length > limit) {
            refuseTooLarge(res);
            return;
        }
        ClientRequestBody body = req.content().hasEntity()
                ? new ClientRequestBody(req.content().inputStream(), limit) : null;
        OutboundRequest.Hop hop = new OutboundRequest.Hop(clientIp, req.isSecure(), req.localPeer().port(),
                route.stripPrefix() || route.policies().rewritePrefix() != null ? route.pathPrefix() : null,
                named, trustedProxies.trusts(ClientAddress.inet(req.remotePeer())), forwarding.preserveHost(),
                req.prologue().protocolVersion().equals("2.0"), requestId);
        String query = req.query().rawValue();
        ClientDeparture departure = departures.of(req);
        boolean trailers = takesTrailers(req);
        try {
            ExchangeLabel label = new ExchangeLabel(route.name(), method, req.path().rawPath(), requestId);
            UpstreamDispatch.Result result = dispatch.open(entry, method, body, departure, label,
                    (upstream, pool, timeout) -> {
                        var outbound = OutboundRequest.create(method, pool.target(),
                                OutboundRequest.target(route.upstreamPath(upstream, path), query), req.headers(), hop,
                                HeaderTransforms.keyHeader(policies));
                        HeaderTransforms.request(policies, application, outbound);
                        if (trailers && pool.http2()) {
                            outbound.addHeader("te", "trailers"); // the one TE HTTP/2 allows; gRPC servers ask for it
                        }
                        if (body != null) {
                            outbound.setEntity(new UpstreamRequestBody(body, length, timeout));
                        }
                        return outbound;
                    });
            switch (result) {
                case UpstreamDispatch.Opened opened -> relay.relay(opened.exchange(), res, forwarding.responseBuffering(),
                        forwarding.rewriteLocation() ? LocationRewrite.of(route, opened.upstream(),
                                req.isSecure(), named) : null,
                        headers -> {
                            if (requestId != null) {
                                headers.set(RequestId.NAME, requestId); // the upstream's own, if any, gives way
                            }
                            HeaderTransforms.response(policies, req.headers().first(HeaderNames.ORIGIN).orElse(null),
                                    headers);
                        }, trailers);
                case UpstreamDispatch.Failed failed -> {
                    if (failed.failure().closesClientConnection()) {
                        res.header(HeaderValues.CONNECTION_CLOSE);
                    }
                    GatewayError answer = failed.failure().answer(stats);
                    stats.meters.unanswered(entry, answer.status().code());
                    sendUnlessReset(answer, req, res);
                }
            }
        } finally {
            if (departure != null) {
                departure.clear(); // the exchange is over: nothing to abort any more
            }
        }
    }

    /**
     * Sends {@code answer}, unless the client's HTTP/2 stream is gone: Helidon 4.5 resets a stream whose body breaks
     * its framing (DATA longer or shorter than its content-length) with PROTOCOL_ERROR, and a write to it then fails
     * with IllegalStateException, which Helidon would log as a WARNING with its stack trace, once per such stream.
     */
    private static void sendUnlessReset(GatewayError answer, ServerRequest req, ServerResponse res) {
        try {
            answer.send(res);
        } catch (IllegalStateException e) {
            if (!"2.0".equals(req.prologue().protocolVersion())) {
                throw e;
            }
            LOG.log(System.Logger.Level.DEBUG, () -> "HTTP/2 stream already closed; " + answer.status().code() + " not sent");
        }
    }
}
