package io.pylon.worker.proxy;

import io.pylon.gateway.model.Upstream;
import io.pylon.gateway.model.UpstreamTls;
import org.jspecify.annotations.Nullable;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.TlsConfig;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.pool.PoolStats;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The connection pool of one upstream origin, plus whether it failed recently. Requests go through it as
 * {@link UpstreamExchange}s: a plain transport with no retries, redirects, cookies, decompression or default
 * User-Agent, so what the client sent and what the upstream answered pass through unchanged. A pool for HTTP/2 sends
 * them as streams of its {@link Http2Upstream} instead, and has no HTTP/1.1 connection manager.
 *
 * <p>Threading: request threads lease connections concurrently (the HTTP client's pool is thread-safe) and mark
 * failures; the failure count, the cool-down's end and the last TLS failure logged are atomic, so the maintenance thread's probe and request
 * threads may both update them.
 */
public final class UpstreamPool implements AutoCloseable {
    // A pooled connection idle for longer than this is checked before reuse: upstreams close idle keep-alive
    // connections on their own schedule, and a stale connection would fail a request that was never sent.
    private static final TimeValue VALIDATE_AFTER_INACTIVITY = TimeValue.ofSeconds(1);

    private final String origin;
    private final UpstreamPools.PoolKey key;
    private final @Nullable UpstreamTlsContext tls;
    private final Upstream upstream;
    private final @Nullable PoolingHttpClientConnectionManager manager; // null for HTTP/2
    private final int maxTotal;
    private final int maxPerRoute;
    private final HttpHost target;
    private final HttpRoute route;
    private final Timeout leaseTimeout;
    private final @Nullable Http2Upstream http2;
    private final AtomicLong failedUntilNanos = new AtomicLong();
    private volatile boolean checkedDown;
    private final AtomicLong failures = new AtomicLong();
    private final java.util.concurrent.atomic.AtomicReference<UpstreamFailure> lastTlsFailure =
            new java.util.concurrent.atomic.AtomicReference<>();

    public UpstreamPool(Upstream upstream, PoolSettings settings) {
        this(upstream, settings, null, false);
    }

    /**
     * @param tls   how an {@code https://} upstream is trusted and named; null: HttpClient's default (the JDK's)
     * @param http2 whether requests go over HTTP/2 ({@link Http2Upstream}) rather than pooled HTTP/1.1 connections
     */
    public UpstreamPool(Upstream upstream, PoolSettings settings, @Nullable UpstreamTlsContext tls, boolean http2) {
        this.origin = upstream.origin();
        this.tls = tls;
        this.key = new UpstreamPools.PoolKey(origin, tls == null ? UpstreamTls.DEFAULTS : tls.settings(), http2);
        this.upstream = new Upstream(upstream.scheme(), upstream.host(), upstream.port(), "");
        this.maxTotal = settings.maxTotal();
        this.maxPerRoute = settings.maxPerRoute();
        HttpHost target = new HttpHost(upstream.scheme(), upstream.host(), upstream.port());
        this.target = target;
        this.route = new HttpRoute(target, null, "https".equals(upstream.scheme()));
        this.leaseTimeout = Timeout.of(settings.leaseTimeout());
        this.http2 = http2 ? new Http2Upstream(target, tls, Math.min(maxTotal, maxPerRoute), settings.leaseTimeout())
                : null;
        this.manager = http2 ? null : http1Manager(settings, tls);
    }

    private static PoolingHttpClientConnectionManager http1Manager(PoolSettings settings,
                                                                    @Nullable UpstreamTlsContext tls) {
        PoolingHttpClientConnectionManagerBuilder builder = PoolingHttpClientConnectionManagerBuilder.create();
        if (tls != null) {
            builder.setTlsSocketStrategy(tls.strategy());
        }
        return builder
                .setPoolConcurrencyPolicy(PoolConcurrencyPolicy.STRICT)
                .setConnectionFactory(UpstreamConnections.INSTANCE)
                .setDnsResolver(UpstreamDns.INSTANCE)
                .setMaxConnTotal(settings.maxTotal())
                .setMaxConnPerRoute(settings.maxPerRoute())
                // no read timeout on the socket: ResponseTimeouts watches every exchange instead. Set once on the
                // socket, not in the connection config, which would set it again on every lease (a socket-option
                // call each, measurable per proxied request; UpstreamConnections skips the pool's own two)
                .setDefaultSocketConfig(SocketConfig.custom().setTcpNoDelay(true).setSoTimeout(Timeout.DISABLED).build())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(settings.connectTimeout()))
                        .setValidateAfterInactivity(VALIDATE_AFTER_INACTIVITY)
                        .build())
                // with no socket read timeout, the TLS handshake needs its own bound
                .setDefaultTlsConfig(TlsConfig.custom().setHandshakeTimeout(Timeout.of(settings.connectTimeout())).build())
                .build();
    }

    /** What every pool is built with; per-route timeouts are set on each request. */
    public record PoolSettings(int maxTotal, int maxPerRoute, Duration connectTimeout, Duration leaseTimeout) {
    }

    public String origin() {
        return origin;
    }

    UpstreamPools.PoolKey key() {
        return key;
    }

    /** The TLS context its connections are made with; null: the default (also for plain http). */
    public @Nullable UpstreamTlsContext tls() {
        return tls;
    }

    /** The origin alone, for probes. */
    Upstream upstream() {
        return upstream;
    }

    HttpHost target() {
        return target;
    }

    /** Whether requests reach the upstream over HTTP/2. */
    boolean http2() {
        return http2 != null;
    }

    /** Leases a connection (connecting when needed), sends the request and reads the response head. */
    UpstreamExchange open(ClassicHttpRequest request, Timeout connectTimeout, ResponseTimeout responseTimeout)
            throws IOException {
        Http2Upstream h2 = http2;
        if (h2 != null) {
            return h2.open(request, connectTimeout, responseTimeout);
        }
        return UpstreamExchange.open(http1(), route, request, connectTimeout, responseTimeout, leaseTimeout);
    }

    /** Connections (HTTP/1.1), or streams (HTTP/2), leased, waited for and idle. */
    public PoolStats stats() {
        Http2Upstream h2 = http2;
        return h2 != null ? h2.stats() : http1().getTotalStats();
    }

    private PoolingHttpClientConnectionManager http1() {
        PoolingHttpClientConnectionManager m = manager;
        if (m == null) {
            throw new IllegalStateException("an HTTP/2 pool has no HTTP/1.1 connections");
        }
        return m;
    }

    public int maxTotal() {
        return maxTotal;
    }

    public int maxPerRoute() {
        return maxPerRoute;
    }

    /** Whether round robin may pick it: its health check (if any) passes and it has not failed within the cool-down. */
    public boolean isHealthy() {
        if (checkedDown) {
            return false;
        }
        long until = failedUntilNanos.get();
        return until == 0 || System.nanoTime() - until >= 0;
    }

    /** Set by the route's HTTP health check: down until it passes again. */
    void checkedDown(boolean down) {
        checkedDown = down;
    }

    boolean checkedDown() {
        return checkedDown;
    }

    public long failures() {
        return failures.get();
    }

    void markFailed(Duration cooldown) {
        failures.incrementAndGet();
        failedUntilNanos.set(System.nanoTime() + Math.max(1, cooldown.toNanos()));
    }

    /** A TLS failure with this pool's upstream: logged when its kind differs from the last one, not per request. */
    void tlsFailed(UpstreamFailure failure, String route) {
        if (lastTlsFailure.getAndSet(failure) != failure) {
            System.getLogger(UpstreamPool.class.getName()).log(System.Logger.Level.WARNING, "Upstream " + origin
                    + " (proxy '" + route + "'): " + failure.error().message());
        }
    }

    void markHealthy() {
        failedUntilNanos.set(0);
    }

    boolean failedRecently() {
        return failedUntilNanos.get() != 0;
    }

    /** Closes connections idle longer than {@code idle} and those past their keep-alive. */
    void evict(Duration idle) {
        if (manager != null) {
            manager.closeExpired();
            manager.closeIdle(TimeValue.of(idle));
        }
        if (http2 != null) {
            http2.evict(idle);
        }
    }

    @Override
    public void close() {
        if (manager != null) {
            manager.close(CloseMode.GRACEFUL);
        }
        if (http2 != null) {
            http2.close();
        }
    }
}
