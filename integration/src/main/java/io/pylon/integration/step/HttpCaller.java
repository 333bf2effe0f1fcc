package io.pylon.integration.step;

import org.jspecify.annotations.Nullable;

import io.pylon.core.net.NameLookups;
import io.pylon.integration.egress.EgressRefusedException;
import io.pylon.integration.egress.GuardedDnsResolver;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.util.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP client of http and webhook steps (Apache HttpClient 5, classic): every connection goes through the
 * {@link GuardedDnsResolver}, redirects are not followed (each hop would need its own decision), a call is cancelled
 * at its deadline however the server (or the DNS server) dribbles, and at most the step's body bound is read from a response (its head
 * within {@value #MAX_LINE} bytes a line and {@value #MAX_FIELDS} fields, so a server that sends an endless header
 * fails the step instead of filling the pod's heap). Thread-safe:
 * the client and its pool are shared by every run.
 */
public final class HttpCaller implements AutoCloseable {
    /** The longest line of a response's head, trailers or chunk sizes (HttpClient's default: unbounded). */
    static final int MAX_LINE = 16 * 1024;
    /** The most header (or trailer) fields a response may have (HttpClient's default: unbounded). */
    static final int MAX_FIELDS = 200;

    private final CloseableHttpClient client;
    private final ScheduledExecutorService deadlines;

    public HttpCaller(GuardedDnsResolver resolver, ScheduledExecutorService deadlines, int maxConnections) {
        PoolingHttpClientConnectionManager pool = PoolingHttpClientConnectionManagerBuilder.create()
                .setDnsResolver(resolver)
                .setConnectionFactory(ManagedHttpClientConnectionFactory.builder()
                        .http1Config(Http1Config.custom().setMaxLineLength(MAX_LINE).setMaxHeaderCount(MAX_FIELDS).build())
                        .build())
                .setMaxConnTotal(maxConnections)
                .setMaxConnPerRoute(maxConnections)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.ofSeconds(10))
                        .setTimeToLive(Timeout.ofMinutes(5))
                        .build())
                .build();
        this.client = HttpClients.custom()
                .setConnectionManager(pool)
                .disableRedirectHandling()
                .disableAutomaticRetries()
                .disableCookieManagement()
                .disableAuthCaching()
                .setUserAgent("pylon-integration")
                .build();
        this.deadlines = deadlines;
    }

    /**
     * One request.
     *
     * @throws StepFailure for a refused host (not retryable) or a failed exchange (retryable)
     */
    public HttpReply call(String method, String url, Map<String, String> headers, byte @Nullable [] body, Duration timeout,
                          int maxBody) {
        HttpUriRequestBase request;
        try {
            request = new HttpUriRequestBase(method, URI.create(url));
        } catch (IllegalArgumentException e) {
            throw new StepFailure("not a URL: " + e.getMessage(), false, null);
        }
        headers.forEach(request::setHeader);
        if (body != null) {
            request.setEntity(new ByteArrayEntity(body, ContentType.APPLICATION_JSON));
        }
        Timeout t = Timeout.ofMilliseconds(timeout.toMillis());
        request.setConfig(RequestConfig.custom().setResponseTimeout(t).setConnectionRequestTimeout(t).build());
        ScheduledFuture<?> deadline = deadlines.schedule(request::cancel, timeout.toMillis(), TimeUnit.MILLISECONDS);
        // the name's lookup ends at the deadline too: the cancel below cannot interrupt one
        try (ClassicHttpResponse response = NameLookups.call(timeout, () -> client.executeOpen(null, request, null))) {
            Map<String, String> responseHeaders = new LinkedHashMap<>();
            for (Header h : response.getHeaders()) {
                responseHeaders.merge(h.getName().toLowerCase(Locale.ROOT), h.getValue(), (a, b) -> a + ", " + b);
            }
            byte[] bytes = new byte[0];
            boolean truncated = false;
            String contentType = null;
            HttpEntity entity = response.getEntity();
            if (entity != null) {
                contentType = entity.getContentType();
                try (InputStream in = entity.getContent()) {
                    bytes = in.readNBytes(maxBody + 1);
                    if (bytes.length > maxBody) {
                        truncated = true;
                        bytes = java.util.Arrays.copyOf(bytes, maxBody);
                        request.cancel();   // the rest is never read: the connection is dropped, not drained
                    }
                } catch (IOException e) {
                    if (!truncated) {
                        throw e;
                    }
                }
            }
            return new HttpReply(response.getCode(), responseHeaders, bytes, contentType, truncated);
        } catch (EgressRefusedException e) {
            throw new StepFailure(e.getMessage(), false, null);
        } catch (IllegalStateException e) {
            // the deadline's cancel can meet the client while it leases or releases the connection ("Endpoint not
            // acquired / already released"): that is the timeout too, not a failure of the whole run
            if (!request.isCancelled()) {
                throw e;
            }
            throw new StepFailure(method + " " + StepRunner.withoutCredentials(url) + " failed: no complete answer within "
                    + timeout.toMillis() + " ms", true, null);
        } catch (IOException e) {
            String why = request.isCancelled() ? "no complete answer within " + timeout.toMillis() + " ms"
                    : e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            throw new StepFailure(method + " " + StepRunner.withoutCredentials(url) + " failed: " + why, true, null);
        } finally {
            deadline.cancel(false);
        }
    }

    @Override
    public void close() throws IOException {
        client.close();
    }
}
