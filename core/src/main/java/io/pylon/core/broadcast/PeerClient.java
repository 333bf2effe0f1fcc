package io.pylon.core.broadcast;

import io.helidon.common.buffers.DataReader;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.Proxy;
import io.helidon.common.tls.Tls;
import io.helidon.webclient.api.WebClient;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.URI;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.Optional;

/**
 * Calls other pods of the module with Helidon's WebClient: blocking calls on the caller's virtual thread, kept-alive
 * connections, and a body read off the socket only as the caller reads it (back-pressure: an answer not yet read
 * stays in the socket, not on the heap). It costs less than half the CPU per call of the JDK HttpClient
 * (BENCHMARKS.md, "Broadcast"). Its timeout is per socket read; {@link Broadcast} bounds the whole call besides. The
 * client is built on first use, so a pod's start does not pay for it.
 *
 * <p>Thread-safe: the client is built once under this object's lock and read without it afterwards.
 */
public final class PeerClient implements AutoCloseable {
    private final Duration connectTimeout;
    private final Supplier<@Nullable Tls> tls;
    private volatile @Nullable WebClient client;
    private volatile boolean closed;

    public PeerClient(Duration connectTimeout) {
        this(connectTimeout, () -> null);
    }

    /**
     * @param tls how {@code https} peers are trusted (asked once, when the client is built: a TLS listener trusts the
     *            certificate it serves itself); null: the JDK's trust store
     */
    public PeerClient(Duration connectTimeout, Supplier<@Nullable Tls> tls) {
        this.connectTimeout = connectTimeout;
        this.tls = tls;
    }

    // Every peer call of a broadcast comes here at once: no lock once the client is built.
    private WebClient client() {
        WebClient built = client;
        if (built == null) {
            built = build();
        }
        if (closed) {
            throw new IllegalStateException("the pod is stopping");
        }
        return built;
    }

    // Pods call each other directly: without a proxy, no system proxy selector is consulted on every call.
    private synchronized WebClient build() {
        if (closed) {
            throw new IllegalStateException("the pod is stopping");
        }
        if (client == null) {
            var builder = WebClient.builder().connectTimeout(connectTimeout).followRedirects(false)
                    .proxy(Proxy.noProxy());
            Tls peers = tls.get();
            if (peers != null) {
                builder.tls(peers);
            }
            client = builder.build();
        }
        return client;
    }

    /** One pod's answer, its body not read yet; closing it gives the connection back (or drops it, when unread). */
    public static final class Response implements AutoCloseable {
        private final HttpClientResponse response;

        private Response(HttpClientResponse response) {
            this.response = response;
        }

        public int status() {
            return response.status().code();
        }

        public Optional<String> header(String name) {
            return response.headers().first(HeaderNames.create(name));
        }

        /** The announced Content-Length, or -1 (chunked, or a malformed value: the body then tells). */
        public long contentLength() {
            try {
                return response.headers().contentLength().orElse(-1);
            } catch (IllegalArgumentException e) {
                return -1;
            }
        }

        public InputStream body() {
            return response.inputStream();
        }

        @Override
        public void close() {
            response.close();
        }
    }

    /**
     * A GET whose body is left unread for the caller, who must close the response.
     *
     * @param timeout for the answer to start, and for each read after
     */
    public Response get(URI uri, String authorization, String accept, Duration timeout) throws IOException {
        return request("GET", uri, authorization, accept, timeout);
    }

    /**
     * Like {@link #get}, with another method ({@code PUT}, {@code DELETE}, {@code POST}: the changes of loggers, jfr).
     * A GET whose kept-alive connection ends or is reset before any byte of the answer is sent once more on a new
     * connection: the pod closed the connection as the request arrived (its idle timeout running out as the request
     * went out, or before a pod busy building thread dumps read it), so the request was not served. Other methods
     * are not repeated: a change may have been made.
     */
    public Response request(String method, URI uri, @Nullable String authorization, @Nullable String accept, Duration timeout)
            throws IOException {
        try {
            return send(method, uri, authorization, accept, timeout, true);
        } catch (IOException | RuntimeException e) {
            // an interrupted call (past its deadline) is not repeated
            if (!"GET".equals(method) || !droppedUnanswered(e) || Thread.currentThread().isInterrupted()) {
                throw e;
            }
            return send(method, uri, authorization, accept, timeout, false);
        }
    }

    // Ended (end of stream) or reset (the socket closed with the request unread in it) before the answer's status;
    // Helidon may report the reset from its idle-connection monitor, wrapped. A refused connection is no such case.
    private static boolean droppedUnanswered(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof DataReader.InsufficientDataAvailableException
                    || cause instanceof SocketException && !(cause instanceof ConnectException)) {
                return true;
            }
        }
        return false;
    }

    private Response send(String method, URI uri, @Nullable String authorization, @Nullable String accept, Duration timeout,
                          boolean keepAlive) throws IOException {
        var request = client().method(Method.create(method)).uri(uri).readTimeout(timeout).keepAlive(keepAlive);
        if (authorization != null) {
            request.header(HeaderNames.AUTHORIZATION, authorization);
        }
        if (accept != null) {
            request.header(HeaderNames.ACCEPT, accept);
        }
        try {
            return new Response(request.request());
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (client != null) {
            client.closeResource();
        }
    }
}
