package io.pylon.worker.proxy;

import io.pylon.core.net.NameLookups;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.DefaultConnectionKeepAliveStrategy;
import org.apache.hc.client5.http.io.ConnectionEndpoint;
import org.apache.hc.client5.http.io.LeaseRequest;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.ProtocolException;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.MessageConstraintException;
import org.apache.hc.core5.http.Method;
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
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * One request and its response with an upstream. Over HTTP/1.1 (this class's {@link #open}) it runs on a pooled
 * connection, driven straight through HttpClient's
 * {@link PoolingHttpClientConnectionManager} and {@link HttpRequestExecutor}. A gateway needs none of what the client
 * exec chain adds on top (redirects, retries, cookies, authentication against the target, decompression), and going
 * around it saves a large part of the per-request work. The connection goes back to the pool only when the response
 * body was read to its end and the upstream keeps it alive; anything else discards it. Over HTTP/2 it runs on a stream
 * ({@link Http2Stream}), which {@link #abort} resets.
 */
final class UpstreamExchange {
    private static final String EXCHANGE_ID = "pylon-proxy";
    private static final HttpRequestExecutor EXECUTOR = new HttpRequestExecutor();
    // what DefaultConnectionKeepAliveStrategy answers for a response without Keep-Alive (the default request config)
    private static final TimeValue DEFAULT_KEEP_ALIVE = RequestConfig.DEFAULT.getConnectionKeepAlive();
    // the only request interceptors a forwarded request needs: Host, and the body's framing
    private static final HttpProcessor FRAMING = HttpProcessorBuilder.create()
            .add(RequestTargetHost.INSTANCE)
            .add(RequestContent.INSTANCE)
            .build();

    private final ClassicHttpResponse response;
    private final ResponseTimeout timeout;
    private final Carrier carrier;
    private boolean finished;

    UpstreamExchange(ClassicHttpResponse response, ResponseTimeout timeout, Carrier carrier) {
        this.response = response;
        this.timeout = timeout;
        this.carrier = carrier;
    }

    /** What the exchange ran on: an HTTP/1.1 connection leased from the pool, or an HTTP/2 stream. */
    interface Carrier {
        /** The response was read to its end in time: a connection the upstream keeps alive goes back to the pool. */
        void release();

        /** Anything else: the connection is closed (the stream reset), never reused. */
        void discard();

        /** The upstream's trailer fields, read with the end of the body (HTTP/2; HTTP/1.1 trailers are dropped). */
        default List<Header> trailers() {
            return List.of();
        }
    }

    /** A leased HTTP/1.1 connection: back to the pool when the upstream keeps it alive, else closed. */
    private record PooledConnection(PoolingHttpClientConnectionManager manager, ConnectionEndpoint endpoint,
                                    boolean reusable, TimeValue keepAlive) implements Carrier {
        @Override
        public void release() {
            if (reusable) {
                manager.release(endpoint, null, keepAlive);
            } else {
                UpstreamExchange.discard(manager, endpoint);
            }
        }

        @Override
        public void discard() {
            UpstreamExchange.discard(manager, endpoint);
        }
    }

    /** Every pooled connection of the upstream is leased and none came free within the lease timeout. */
    static final class PoolExhaustedException extends IOException {
        PoolExhaustedException() {
            this("no connection of the upstream pool came free in time");
        }

        PoolExhaustedException(String message) {
            super(message);
        }
    }

    /** The upstream's response broke HTTP/1.1's rules (two Content-Lengths, a malformed status line, say). */
    static final class MalformedResponseException extends IOException {
        MalformedResponseException(HttpException cause) {
            super("the upstream broke the HTTP protocol: " + cause.getMessage(), cause);
        }
    }

    /**
     * A pooled connection, already used, failed before any of the response arrived: the upstream had closed it while
     * it idled, or (for an idempotent method only) what came back broke HTTP's rules, as bytes left on it after a
     * response would. The request may go again on another connection as long as none of the client's body was
     * consumed.
     */
    static final class ReusedConnectionFailedException extends IOException {
        ReusedConnectionFailedException(Exception cause) {
            super("a reused upstream connection failed before the response: " + cause.getClass().getSimpleName(), cause);
        }
    }

    /**
     * Leases (connecting when needed), sends the request and reads the response head. Pooled connections read
     * without a socket timeout; {@code timeout} watches the exchange instead (see {@link ResponseTimeouts}).
     */
    static UpstreamExchange open(PoolingHttpClientConnectionManager manager, HttpRoute route, ClassicHttpRequest request,
                                 Timeout connectTimeout, ResponseTimeout timeout, Timeout leaseTimeout)
            throws IOException {
        ConnectionEndpoint endpoint;
        timeout.awaitConnection();
        try {
            endpoint = lease(manager, route, leaseTimeout);
        } catch (IOException | RuntimeException e) {
            timeout.finish();
            throw e;
        }
        boolean reused = endpoint.isConnected();
        boolean responded = false;
        try {
            HttpClientContext context = HttpClientContext.create();
            if (!reused) {
                NameLookups.run(connectTimeout.toDuration(), () -> manager.connect(endpoint, connectTimeout, context));
            }
            FRAMING.process(request, request.getEntity(), context);
            timeout.watch(endpoint);
            ClassicHttpResponse response = endpoint.execute(EXCHANGE_ID, request, EXECUTOR, context);
            responded = true;
            checkHead(response);
            // RFC 9112 section 6.3: a response framed both ways may be an attempt at response splitting; its
            // connection is not used again
            boolean reusable = DefaultConnectionReuseStrategy.INSTANCE.keepAlive(request, response, context)
                    && !(response.containsHeader(HttpHeaders.TRANSFER_ENCODING)
                    && response.containsHeader(HttpHeaders.CONTENT_LENGTH));
            TimeValue keepAlive = keepAlive(response, context);
            return new UpstreamExchange(response, timeout, new PooledConnection(manager, endpoint, reusable, keepAlive));
        } catch (IOException | RuntimeException e) {
            boolean inTime = timeout.finish();
            discard(manager, endpoint);
            // a head past the bounds was the upstream's answer, not a connection it had closed while idle
            if (reused && !responded && inTime && e instanceof IOException && !(e instanceof MessageConstraintException)) {
                throw new ReusedConnectionFailedException(e);
            }
            throw e;
        } catch (HttpException e) {
            boolean inTime = timeout.finish();
            discard(manager, endpoint);
            // on a reused connection this may be bytes an earlier answer left behind, but it may as well be the
            // upstream's answer to this request: sent again only when sending it twice does no harm
            if (reused && inTime && Method.isIdempotent(request.getMethod())) {
                throw new ReusedConnectionFailedException(e);
            }
            throw new MalformedResponseException(e);
        }
    }

    /** A head that cannot be passed on is the upstream's broken answer, never retried (its body was not read). */
    static void checkHead(ClassicHttpResponse response) throws MalformedResponseException {
        try {
            UpstreamHead.check(response);
        } catch (ProtocolException e) {
            throw new MalformedResponseException(e);
        }
    }

    /** How long the upstream lets the connection idle: its {@code Keep-Alive: timeout}, else the client default. */
    private static TimeValue keepAlive(ClassicHttpResponse response, HttpClientContext context) {
        // the strategy walks the header elements with an iterator and parser even when there is no Keep-Alive header
        return response.containsHeader(HttpHeaders.KEEP_ALIVE)
                ? DefaultConnectionKeepAliveStrategy.INSTANCE.getKeepAliveDuration(response, context)
                : DEFAULT_KEEP_ALIVE;
    }

    private static ConnectionEndpoint lease(PoolingHttpClientConnectionManager manager, HttpRoute route, Timeout timeout)
            throws IOException {
        LeaseRequest lease;
        try {
            lease = manager.lease(EXCHANGE_ID, route, timeout, null);
        } catch (IllegalStateException e) {
            // the pool closed: the pod stops, and this request outlived the stop's grace (its client left, say)
            throw new PoolExhaustedException("the upstream pool is closed: the pod is stopping");
        }
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

    /** The response body as it arrives, the response timeout armed only while a read waits on the upstream. */
    InputStream body() throws IOException {
        return timeout.reads(response.getEntity().getContent());
    }

    /** Whether the upstream stayed silent past the response timeout (the connection was closed for it). */
    boolean timedOut() {
        return timeout.expired();
    }

    /** Whether the client left, which closed the upstream connection (no failure of the upstream's). */
    boolean abandoned() {
        return timeout.abandoned();
    }

    /** The response body was read to its end: the connection goes back to the pool if the upstream keeps it alive. */
    void complete() {
        if (finished) {
            return;
        }
        finished = true;
        if (timeout.finish()) {
            carrier.release();
        } else {
            carrier.discard();
        }
    }

    /** The upstream's trailer fields; empty until the body was read to its end, and for HTTP/1.1. */
    List<Header> trailers() {
        return carrier.trailers();
    }

    /** Something went wrong mid-exchange: the connection is closed, not drained, and its lease freed at once. */
    void abort() {
        if (finished) {
            return;
        }
        finished = true;
        timeout.finish();
        carrier.discard();
    }

    private static void discard(PoolingHttpClientConnectionManager manager, ConnectionEndpoint endpoint) {
        endpoint.close(CloseMode.IMMEDIATE);
        manager.release(endpoint, null, TimeValue.ZERO_MILLISECONDS);
    }
}

