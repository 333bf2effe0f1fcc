package io.pylon.worker.proxy;

import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.DefaultConnectionKeepAliveStrategy;
import org.apache.hc.client5.http.io.ConnectionEndpoint;
import org.apache.hc.client5.http.io.LeaseRequest;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.impl.DefaultConnectionReuseStrategy;
import org.apache.hc.core5.http.impl.io.HttpRequestExecutor;
import org.apache.hc.core5.http.protocol.HttpProcessor;
import org.apache.hc.core5.http.protocol.HttpProcessorBuilder;
import org.apache.hc.core5.http.protocol.RequestContent;
import org.apache.hc.core5.http.protocol.RequestTargetHost;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * One request and its response on a pooled connection of an upstream, driven straight through HttpClient's
 * {@link PoolingHttpClientConnectionManager} and {@link HttpRequestExecutor}. A gateway needs none of what the client
 * exec chain adds on top (redirects, retries, cookies, authentication against the target, decompression), and going
 * around it saves a large part of the per-request work. The connection goes back to the pool only when the response
 * body was read to its end and the upstream keeps it alive; anything else discards it.
 */
final class UpstreamExchange {
    private static final String EXCHANGE_ID = "pylon-proxy";
    private static final HttpRequestExecutor EXECUTOR = new HttpRequestExecutor();
    // the only request interceptors a forwarded request needs: Host, and the body's framing
    private static final HttpProcessor FRAMING = HttpProcessorBuilder.create()
            .add(RequestTargetHost.INSTANCE)
            .add(RequestContent.INSTANCE)
            .build();

    private final PoolingHttpClientConnectionManager manager;
    private final ConnectionEndpoint endpoint;
    private final ClassicHttpResponse response;
    private final boolean reusable;
    private final TimeValue keepAlive;
    private final Timeout restoreTimeout;
    private boolean finished;

    private UpstreamExchange(PoolingHttpClientConnectionManager manager, ConnectionEndpoint endpoint,
                             ClassicHttpResponse response, boolean reusable, TimeValue keepAlive, Timeout restoreTimeout) {
        this.manager = manager;
        this.endpoint = endpoint;
        this.response = response;
        this.reusable = reusable;
        this.keepAlive = keepAlive;
        this.restoreTimeout = restoreTimeout;
    }

    /** Every pooled connection of the upstream is leased and none came free within the lease timeout. */
    static final class PoolExhaustedException extends IOException {
        PoolExhaustedException() {
            super("no connection of the upstream pool came free in time");
        }
    }

    /** Leases (connecting when needed), sends the request and reads the response head. */
    /**
     * @param poolTimeout the socket timeout every pooled connection carries; a different response timeout is set for
     *                    this exchange only and put back before the connection returns to the pool
     */
    static UpstreamExchange open(PoolingHttpClientConnectionManager manager, HttpRoute route, ClassicHttpRequest request,
                                 Timeout connectTimeout, Timeout responseTimeout, Timeout leaseTimeout,
                                 Timeout poolTimeout) throws IOException {
        ConnectionEndpoint endpoint = lease(manager, route, leaseTimeout);
        try {
            HttpClientContext context = HttpClientContext.create();
            if (!endpoint.isConnected()) {
                manager.connect(endpoint, connectTimeout, context);
            }
            Timeout restore = null;
            if (!responseTimeout.equals(poolTimeout)) {
                endpoint.setSocketTimeout(responseTimeout);
                restore = poolTimeout;
            }
            FRAMING.process(request, request.getEntity(), context);
            ClassicHttpResponse response = endpoint.execute(EXCHANGE_ID, request, EXECUTOR, context);
            boolean reusable = DefaultConnectionReuseStrategy.INSTANCE.keepAlive(request, response, context);
            TimeValue keepAlive = DefaultConnectionKeepAliveStrategy.INSTANCE.getKeepAliveDuration(response, context);
            return new UpstreamExchange(manager, endpoint, response, reusable, keepAlive, restore);
        } catch (IOException | RuntimeException e) {
            discard(manager, endpoint);
            throw e;
        } catch (HttpException e) {
            discard(manager, endpoint);
            throw new IOException("the upstream broke the HTTP protocol", e);
        }
    }

    private static ConnectionEndpoint lease(PoolingHttpClientConnectionManager manager, HttpRoute route, Timeout timeout)
            throws IOException {
        LeaseRequest lease = manager.lease(EXCHANGE_ID, route, timeout, null);
        try {
            return lease.get(timeout);
        } catch (TimeoutException e) {
            lease.cancel();
            throw new PoolExhaustedException();
        } catch (InterruptedException e) {
            lease.cancel();
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for an upstream connection");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException("leasing an upstream connection failed", e);
        }
    }

    ClassicHttpResponse response() {
        return response;
    }

    /** The response body was read to its end: the connection goes back to the pool if the upstream keeps it alive. */
    void complete() {
        if (finished) {
            return;
        }
        finished = true;
        if (reusable) {
            if (restoreTimeout != null) {
                endpoint.setSocketTimeout(restoreTimeout);
            }
            manager.release(endpoint, null, keepAlive);
        } else {
            discard(manager, endpoint);
        }
    }

    /** Something went wrong mid-exchange: the connection is closed, not drained, and its lease freed at once. */
    void abort() {
        if (finished) {
            return;
        }
        finished = true;
        discard(manager, endpoint);
    }

    private static void discard(PoolingHttpClientConnectionManager manager, ConnectionEndpoint endpoint) {
        endpoint.close(CloseMode.IMMEDIATE);
        manager.release(endpoint, null, TimeValue.ZERO_MILLISECONDS);
    }
}
