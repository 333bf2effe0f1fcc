package io.pylon.worker.proxy;

import io.pylon.core.net.NameLookups;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.URIScheme;
import org.apache.hc.core5.http.config.CharCodingConfig;
import org.apache.hc.core5.http.nio.ssl.TlsStrategy;
import org.apache.hc.core5.http.protocol.HttpCoreContext;
import org.apache.hc.core5.http.protocol.HttpProcessor;
import org.apache.hc.core5.http.protocol.HttpProcessorBuilder;
import org.apache.hc.core5.http2.config.H2Config;
import org.apache.hc.core5.http2.impl.nio.ClientH2PrefaceHandler;
import org.apache.hc.core5.http2.impl.nio.ClientH2StreamMultiplexerFactory;
import org.apache.hc.core5.http2.impl.nio.bootstrap.H2MultiplexingRequester;
import org.apache.hc.core5.http2.protocol.H2RequestConformance;
import org.apache.hc.core5.http2.protocol.H2RequestContent;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.net.URIAuthority;
import org.apache.hc.core5.pool.PoolStats;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP/2 transport of one upstream origin: HttpCore's multiplexing requester, whose one connection carries every
 * request at once as a stream ({@link Http2Stream}); h2c with prior knowledge for {@code http://}, TLS with ALPN
 * {@code h2} alone for {@code https://} (an upstream that does not choose h2 fails the handshake, and the request gets
 * a 502, rather than a preface it cannot read). Like the HTTP/1.1 pool it adds nothing of its own to a request (no
 * User-Agent), follows no redirect and retries nothing. Its bounds: one I/O thread, streams in flight at most the
 * pool's per-route connection limit (a request waits the lease timeout for a place, then gets a 503), and the
 * upstream's own {@code SETTINGS_MAX_CONCURRENT_STREAMS} on top.
 *
 * <p>The upstream's name is looked up within the connect timeout of the request that needs a connection
 * ({@link NameLookups}), as for HTTP/1.1: HttpCore's own lookup has no bound and runs while its pool holds the origin's
 * lock, so a DNS server that did not answer held every request to the origin until the system resolver gave up. A
 * request queued behind that lock looks up within what is left of its own timeout. When the I/O thread reconnects (a
 * connection that failed its ping) it connects to the address last found and never waits on DNS.
 *
 * <p>Threading: request threads open streams concurrently; the requester and its connection pool are thread-safe, the
 * places are a semaphore; the requester's I/O thread drives the streams. The connect deadline is the opening thread's
 * own; the last address and the last lookup failure are volatile.
 */
final class Http2Upstream implements AutoCloseable {
    /** The most bytes of one response's header fields an upstream may send (SETTINGS_MAX_HEADER_LIST_SIZE). */
    static final int MAX_HEADER_LIST = 64 * 1024;
    // the request interceptors a forwarded request needs: the body's framing, and a refusal of what HTTP/2 forbids
    private static final HttpProcessor FRAMING = HttpProcessorBuilder.create()
            .add(H2RequestContent.INSTANCE)
            .add(H2RequestConformance.INSTANCE)
            .build();
    private static final TimeValue VALIDATE_AFTER_INACTIVITY = TimeValue.ofSeconds(1);
    /** When the opening thread's connection must be made by ({@link System#nanoTime()}); unset on the I/O thread. */
    private static final ThreadLocal<Long> CONNECT_BY = new ThreadLocal<>();

    private final HttpHost target;
    private final H2MultiplexingRequester requester;
    private final Semaphore places;
    private final int maxStreams;
    private final Timeout leaseTimeout;
    private final ThreadFactory copiers = Thread.ofVirtual().name("pylon-h2-request-body-", 0).factory();
    private volatile @Nullable InetSocketAddress lastAddress;
    private volatile @Nullable UnknownHostException lastLookupFailure;

    /** @param tls how an {@code https://} upstream is trusted and named; null: the JDK's defaults */
    Http2Upstream(HttpHost target, @Nullable UpstreamTlsContext tls, int maxStreams, Duration leaseTimeout) {
        this.target = target;
        this.maxStreams = maxStreams;
        this.places = new Semaphore(maxStreams, true);
        this.leaseTimeout = Timeout.of(leaseTimeout);
        TlsStrategy strategy = tls != null ? tls.http2Strategy()
                : new Http2TlsStrategy(DefaultClientTlsStrategy::createDefault, host -> host);
        // HttpCore's bootstrap, with the upstream's name looked up within a bound (the bootstrap has no setting for it)
        ClientH2StreamMultiplexerFactory streams = new ClientH2StreamMultiplexerFactory(FRAMING,
                (pushed, context) -> null, // no push: the upstream is told so in SETTINGS
                // an upstream's header block is bounded as on HTTP/1.1 (HttpCore's default is 16 MiB)
                H2Config.custom().setPushEnabled(false).setMaxHeaderListSize(MAX_HEADER_LIST).build(),
                CharCodingConfig.DEFAULT, null);
        this.requester = new H2MultiplexingRequester(
                IOReactorConfig.custom()
                        .setIoThreadCount(1)
                        .setTcpNoDelay(true)
                        .setSoTimeout(Timeout.DISABLED) // ResponseTimeouts watches each exchange instead
                        .build(),
                (session, attachment) -> new ClientH2PrefaceHandler(session, streams, true, null),
                null, null, null, this::address, strategy);
        this.requester.setValidateAfterInactivity(VALIDATE_AFTER_INACTIVITY);
        this.requester.start();
    }

    /**
     * Opens a stream (connecting when there is no connection yet), sends the request's head, starts copying its body
     * and waits for the response head; {@code timeout} watches the stream from now.
     */
    UpstreamExchange open(ClassicHttpRequest request, Timeout connectTimeout, ResponseTimeout timeout)
            throws IOException {
        timeout.awaitConnection();
        try {
            if (!places.tryAcquire(leaseTimeout.toNanoseconds(), TimeUnit.NANOSECONDS)) {
                timeout.finish();
                throw new UpstreamExchange.PoolExhaustedException("every HTTP/2 stream to the upstream allowed is in use");
            }
        } catch (InterruptedException e) {
            timeout.finish();
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for an HTTP/2 stream to the upstream");
        }
        Http2Stream stream;
        try {
            authorityFromHost(request);
            stream = new Http2Stream(request, places::release, copiers);
        } catch (IOException | RuntimeException e) {
            places.release();
            timeout.finish();
            throw e;
        }
        timeout.watch(stream);
        try {
            CONNECT_BY.set(System.nanoTime() + connectTimeout.toNanoseconds());
            try {
                stream.started(requester.execute(target, stream, connectTimeout, HttpCoreContext.create()));
            } finally {
                CONNECT_BY.remove();
            }
            ClassicHttpResponse head = stream.awaitHead();
            UpstreamExchange.checkHead(head);
            return new UpstreamExchange(head, timeout, stream);
        } catch (UnknownHostException e) {
            timeout.finish();
            stream.discard();
            UnknownHostException why = lastLookupFailure; // HttpCore's names the host alone; this one says what failed
            throw why != null ? new UnknownHostException(why.getMessage()) : e;
        } catch (IOException | RuntimeException e) {
            timeout.finish();
            stream.discard();
            throw e;
        }
    }

    /**
     * The address to connect to: the name looked up within what is left of the opening request's connect timeout. A
     * name not found, or not in time, gives an unresolved address: HttpCore fails the connection with an
     * {@link UnknownHostException} through the pool's callbacks, which fails every request waiting for it.
     */
    private InetSocketAddress address(HttpHost host) {
        int port = host.getPort() >= 0 ? host.getPort() : URIScheme.HTTPS.same(host.getSchemeName()) ? 443 : 80;
        Long by = CONNECT_BY.get();
        if (by == null) {
            // the I/O thread reconnecting: a lookup here would stall every stream of the requester
            InetSocketAddress last = lastAddress;
            return last != null ? last : InetSocketAddress.createUnresolved(host.getHostName(), port);
        }
        try {
            Duration left = Duration.ofNanos(Math.max(0, by - System.nanoTime()));
            InetSocketAddress found = new InetSocketAddress(NameLookups.SHARED.lookUp(host.getHostName(), left)[0], port);
            lastAddress = found;
            lastLookupFailure = null;
            return found;
        } catch (UnknownHostException e) {
            lastLookupFailure = e;
            return InetSocketAddress.createUnresolved(host.getHostName(), port);
        }
    }

    /** A {@code Host} the request carries (preserveHost) becomes its {@code :authority}, as RFC 9113 asks. */
    private static void authorityFromHost(ClassicHttpRequest request) throws IOException {
        Header host = request.getFirstHeader("Host");
        if (host == null) {
            return;
        }
        request.removeHeaders("Host");
        try {
            request.setAuthority(URIAuthority.create(host.getValue()));
        } catch (URISyntaxException e) {
            throw new IOException("the client's Host cannot be an HTTP/2 authority", e);
        }
    }

    /** Streams in flight, and requests waiting for a place, as the pool statistics report them. */
    PoolStats stats() {
        int leased = maxStreams - places.availablePermits();
        return new PoolStats(leased, places.getQueueLength(), 0, maxStreams);
    }

    /** Closes connections idle longer than {@code idle}. */
    void evict(Duration idle) {
        requester.closeIdle(TimeValue.of(idle));
    }

    @Override
    public void close() {
        requester.close(CloseMode.GRACEFUL);
    }
}
