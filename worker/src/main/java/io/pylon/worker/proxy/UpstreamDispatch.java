package io.pylon.worker.proxy;

import org.jspecify.annotations.Nullable;

import io.pylon.core.http.ClientDeparture;
import io.pylon.gateway.model.Forwarding;
import io.pylon.gateway.model.Route;
import io.pylon.worker.routes.RouteTable;
import io.pylon.gateway.model.Upstream;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.Method;
import org.apache.hc.core5.util.Timeout;

import javax.net.ssl.SSLException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The failover stage: opens an exchange with one of a route's upstreams. They are tried round robin from the route's
 * cursor, healthy ones first; one that refuses the connection, does not accept it in time, or whose name is not found
 * in time ({@link UpstreamDns}) is marked failed and the next is tried, which is safe for any method because nothing
 * was sent (unless the client's body was already being read). A reused connection that fails before any of the
 * response arrived (closed by the upstream while idle, or, for an idempotent method, answering with bytes that break
 * HTTP's rules) is retried once on another connection of the same upstream while none of the client's body was
 * consumed. A route's {@code retries} also try an idempotent
 * request without a body again after a failed connection or a listed status (502, 503, 504), over the upstreams in
 * turn, within its time budget. Any other failure ends the attempt.
 *
 * <p>Threading: called concurrently by request threads: the route's cursor is atomic,
 * the connect timeouts are a concurrent map, the pools guard their own state.
 */
final class UpstreamDispatch {
    private static final System.Logger LOG = System.getLogger(UpstreamDispatch.class.getName());

    /** The request for one attempt; called once per upstream tried, each with a fresh response timeout. */
    @FunctionalInterface
    interface Outbound {
        ClassicHttpRequest create(Upstream upstream, UpstreamPool pool, ResponseTimeout responseTimeout);
    }

    /** How an attempt ended: an exchange whose response head arrived, or the failure to tell the client. */
    sealed interface Result permits Opened, Failed {
    }

    record Opened(UpstreamExchange exchange, Upstream upstream) implements Result {
    }

    record Failed(UpstreamFailure failure) implements Result {
    }

    private final UpstreamPools pools;
    private final ResponseTimeouts responseTimeouts;
    private final ProxyStats stats;
    // Routes share a handful of connect timeouts; no need to build them per request.
    private final Map<Duration, Timeout> connectTimeouts = new ConcurrentHashMap<>();

    UpstreamDispatch(UpstreamPools pools, ResponseTimeouts responseTimeouts, ProxyStats stats) {
        this.pools = pools;
        this.responseTimeouts = responseTimeouts;
        this.stats = stats;
    }

    /**
     * @param method the request's method: only an idempotent one without a body is retried ({@link Forwarding})
     * @param body      the client's body, null when the request has none
     * @param departure tells when the client leaves (an HTTP/2 stream reset); each attempt's upstream connection is
     *                  then closed at once, and stays watched through the answer's relay (null: HTTP/1)
     * @param label     the request, as the diagnostics list it while an attempt is in flight
     * @throws ClientGoneException when the client stopped sending its body or left: nobody is left to answer
     */
    Result open(RouteTable.Entry entry, String method, @Nullable ClientRequestBody body,
                @Nullable ClientDeparture departure, ExchangeLabel label, Outbound outbound) {
        Route route = entry.route();
        Forwarding.Retries retries = route.forwarding().retries();
        boolean retryable = retries.attempts() > 0 && body == null && Method.isIdempotent(method);
        List<Upstream> order = order(entry);
        int tries = retryable ? Math.max(order.size(), 1 + retries.attempts()) : order.size();
        long deadline = retryable ? System.nanoTime() + retries.within().toNanos() : Long.MAX_VALUE;
        UpstreamFailure failure = UpstreamFailure.UNREACHABLE;
        boolean retriedReused = false;
        for (int i = 0; i < tries; i++) {
            if (i >= order.size() && System.nanoTime() - deadline > 0) {
                break; // a retry beyond one pass over the upstreams only within the route's budget
            }
            Upstream upstream = order.get(i % order.size());
            UpstreamPool pool = pools.pool(upstream, route);
            ResponseTimeout responseTimeout = responseTimeouts.create(route.responseTimeout(), label, pool.origin());
            if (departure != null) {
                if (departure.departed()) {
                    throw ClientGoneException.counted(stats, "before the answer");
                }
                departure.onDeparture(responseTimeout::abandon);
            }
            ClassicHttpRequest request = outbound.create(upstream, pool, responseTimeout);
            try {
                long t0 = System.nanoTime();
                UpstreamExchange exchange = pool.open(request, connectTimeout(route), responseTimeout);
                int status = exchange.response().getCode();
                stats.meters.answered(entry, upstream, status, System.nanoTime() - t0);
                if (retryable && i + 1 < tries && retries.onStatus().contains(status)
                        && (i + 1 < order.size() || System.nanoTime() - deadline < 0)) {
                    exchange.abort();
                    LOG.log(Level.DEBUG, () -> "Route " + route.name() + ": upstream " + pool.origin() + " answered "
                            + status + "; trying again");
                    continue;
                }
                return new Opened(exchange, upstream);
            } catch (UpstreamExchange.ReusedConnectionFailedException e) {
                leftBeforeTheAnswer(responseTimeout, e);
                Failed bodyFailed = clientBodyFailed(body, e);
                if (bodyFailed != null) {
                    return bodyFailed;
                }
                // the upstream closed an idle connection, or spoiled it: once more, on another connection
                log(route, pool, e);
                if (!retriedReused && (body == null || !body.started())) {
                    retriedReused = true;
                    i--;
                    continue;
                }
                return new Failed(UpstreamFailure.UNREACHABLE);
            } catch (ConnectTimeoutException | ConnectException | UnknownHostException e) {
                // nothing was sent: a name that is not found, or not in time, fails over as a refused connection
                leftBeforeTheAnswer(responseTimeout, e);
                pools.failed(pool, e);
                failure = e instanceof ConnectTimeoutException ? UpstreamFailure.TIMEOUT : UpstreamFailure.UNREACHABLE;
                log(route, pool, e);
                if (body != null && body.started()) {
                    return new Failed(failure);
                }
            } catch (SSLException e) {
                leftBeforeTheAnswer(responseTimeout, e);
                Failed bodyFailed = clientBodyFailed(body, e);
                if (bodyFailed != null) {
                    return bodyFailed;
                }
                // the handshake failed, or the upstream refused this client's certificate: the next upstream is tried
                // while none of the client's body was sent. Not marked failed: the upstream is up (a TCP probe would
                // take it back at once), its TLS does not fit this route's settings; logged once per kind instead
                failure = UpstreamFailure.of(e);
                pool.tlsFailed(failure, route.name());
                log(route, pool, e);
                if (body != null && body.started()) {
                    return new Failed(failure);
                }
            } catch (IOException e) {
                leftBeforeTheAnswer(responseTimeout, e);
                Failed bodyFailed = clientBodyFailed(body, e);
                if (bodyFailed != null) {
                    return bodyFailed;
                }
                failure = responseTimeout.expired() ? UpstreamFailure.TIMEOUT : UpstreamFailure.of(e);
                if (failure == UpstreamFailure.UNREACHABLE) {
                    pools.failed(pool, e);
                }
                log(route, pool, e);
                return new Failed(failure);
            }
        }
        return new Failed(failure);
    }

    /**
     * What the client is answered when the exchange failed because of the client's body; null when it did not. Throws
     * when the client left while sending it: nobody is there to answer.
     */
    private @Nullable Failed clientBodyFailed(@Nullable ClientRequestBody body, IOException e) {
        if (body == null) {
            return null;
        }
        if (body.chunkTooLarge()) {
            return new Failed(UpstreamFailure.BODY_CHUNK_TOO_LARGE);
        }
        if (body.tooLarge()) {
            return new Failed(UpstreamFailure.BODY_TOO_LARGE);
        }
        if (body.timedOut()) {
            return new Failed(UpstreamFailure.BODY_TIMEOUT);
        }
        if (body.malformed()) {
            return new Failed(UpstreamFailure.BODY_MALFORMED);
        }
        if (body.clientFailed()) {
            throw ClientGoneException.counted(stats, "while sending the request body", e);
        }
        return null;
    }

    /** The client left, which closed the upstream connection (not the upstream's failure): nobody to answer. */
    private void leftBeforeTheAnswer(ResponseTimeout responseTimeout, IOException e) {
        if (responseTimeout.abandoned()) {
            throw ClientGoneException.counted(stats, "before the answer", e);
        }
    }

    /**
     * Round robin from the route's cursor, weighted: each upstream is first in a share of the requests proportional
     * to its weight, the others follow in order; upstreams that failed recently are moved to the end (tried only if
     * all did).
     */
    List<Upstream> order(RouteTable.Entry entry) {
        List<Upstream> upstreams = entry.route().upstreams();
        int n = upstreams.size();
        if (n == 1) {
            return upstreams;
        }
        int start = first(upstreams, entry.cursor().getAndIncrement());
        List<Upstream> healthy = new ArrayList<>(n);
        List<Upstream> failed = new ArrayList<>(0);
        for (int i = 0; i < n; i++) {
            Upstream upstream = upstreams.get((start + i) % n);
            (pools.pool(upstream, entry.route()).isHealthy() ? healthy : failed).add(upstream);
        }
        healthy.addAll(failed);
        return healthy;
    }

    /** The upstream that goes first for the request numbered {@code ticket}: by weight, in turn. */
    private static int first(List<Upstream> upstreams, int ticket) {
        int total = 0;
        for (int i = 0; i < upstreams.size(); i++) {
            total += upstreams.get(i).weight();
        }
        if (total == upstreams.size()) {
            return Math.floorMod(ticket, total); // all weigh 1: plain round robin
        }
        int slot = Math.floorMod(ticket, total);
        for (int i = 0; i < upstreams.size(); i++) {
            slot -= upstreams.get(i).weight();
            if (slot < 0) {
                return i;
            }
        }
        return 0;
    }

    private Timeout connectTimeout(Route route) {
        return connectTimeouts.computeIfAbsent(route.connectTimeout(), Timeout::of);
    }

    private static void log(Route route, UpstreamPool pool, IOException e) {
        LOG.log(Level.DEBUG, () -> "Route " + route.name() + ": upstream " + pool.origin() + " failed: "
                + e.getClass().getSimpleName());
    }
}
