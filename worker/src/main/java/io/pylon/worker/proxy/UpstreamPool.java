package io.pylon.worker.proxy;

import io.pylon.worker.routes.Upstream;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.pool.PoolStats;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The connection pool and HTTP client of one upstream origin, plus whether it failed recently. The client is a plain
 * transport: no retries, redirects, cookies, decompression or default User-Agent, so what the client sent and what
 * the upstream answered pass through unchanged.
 */
public final class UpstreamPool implements AutoCloseable {
    // A pooled connection idle for longer than this is checked before reuse: upstreams close idle keep-alive
    // connections on their own schedule, and a stale connection would fail a request that was never sent.
    private static final TimeValue VALIDATE_AFTER_INACTIVITY = TimeValue.ofSeconds(1);

    private final String origin;
    private final Upstream upstream;
    private final PoolingHttpClientConnectionManager manager;
    private final CloseableHttpClient client;
    private final java.net.URI baseUri;
    private final AtomicLong failedUntilNanos = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();

    public UpstreamPool(Upstream upstream, PoolSettings settings) {
        this.origin = upstream.origin();
        this.upstream = new Upstream(upstream.scheme(), upstream.host(), upstream.port(), "");
        this.baseUri = java.net.URI.create(origin + "/");
        this.manager = PoolingHttpClientConnectionManagerBuilder.create()
                .setPoolConcurrencyPolicy(PoolConcurrencyPolicy.STRICT)
                .setMaxConnTotal(settings.maxTotal())
                .setMaxConnPerRoute(settings.maxPerRoute())
                .setDefaultSocketConfig(SocketConfig.custom().setTcpNoDelay(true).build())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(settings.connectTimeout()))
                        .setSocketTimeout(Timeout.of(settings.responseTimeout()))
                        .setValidateAfterInactivity(VALIDATE_AFTER_INACTIVITY)
                        .build())
                .build();
        this.client = HttpClients.custom()
                .setConnectionManager(manager)
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setConnectionRequestTimeout(Timeout.of(settings.leaseTimeout()))
                        .setResponseTimeout(Timeout.of(settings.responseTimeout()))
                        .build())
                .disableAutomaticRetries()
                .disableRedirectHandling()
                .disableCookieManagement()
                .disableContentCompression()
                .disableAuthCaching()
                .disableDefaultUserAgent()
                .disableConnectionState()
                .build();
    }

    /** What every pool is built with; per-route timeouts are set on each request. */
    public record PoolSettings(int maxTotal, int maxPerRoute, Duration connectTimeout, Duration responseTimeout,
                               Duration leaseTimeout) {
    }

    public String origin() {
        return origin;
    }

    /** The origin alone, for probes. */
    Upstream upstream() {
        return upstream;
    }

    /** {@code http://host:port/}: what each outbound request starts from before its path is set. */
    java.net.URI baseUri() {
        return baseUri;
    }

    CloseableHttpClient client() {
        return client;
    }

    public PoolStats stats() {
        return manager.getTotalStats();
    }

    public int maxTotal() {
        return manager.getMaxTotal();
    }

    public int maxPerRoute() {
        return manager.getDefaultMaxPerRoute();
    }

    /** Whether round robin may pick it: it has not failed within the cool-down. */
    public boolean isHealthy() {
        long until = failedUntilNanos.get();
        return until == 0 || System.nanoTime() - until >= 0;
    }

    public long failures() {
        return failures.get();
    }

    void markFailed(Duration cooldown) {
        failures.incrementAndGet();
        failedUntilNanos.set(System.nanoTime() + Math.max(1, cooldown.toNanos()));
    }

    void markHealthy() {
        failedUntilNanos.set(0);
    }

    boolean failedRecently() {
        return failedUntilNanos.get() != 0;
    }

    /** Closes connections idle longer than {@code idle} and those past their keep-alive. */
    void evict(Duration idle) {
        manager.closeExpired();
        manager.closeIdle(TimeValue.of(idle));
    }

    @Override
    public void close() {
        client.close(CloseMode.GRACEFUL);
    }
}
