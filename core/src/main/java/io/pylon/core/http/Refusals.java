package io.pylon.core.http;

import io.helidon.common.socket.PeerInfo;
import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.jspecify.annotations.Nullable;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The requests a pod refuses before any route takes them, told to its {@link RefusalObserver}s: what the listener
 * refuses while it reads a request (a malformed request line or header field, 414, 431, conflicting framing; answered
 * by {@link ErrorHandling#directHandlers}) and what the checks every pod runs first refuse (an oversized header block,
 * two {@code Authorization} fields, a chunked body where none is taken). Without it such a request was in no meter
 * and no log line, though it is what a client with a bloated cookie or a broken release gets.
 *
 * <p>The listener's answer is built on the connection's thread and written right after by Helidon on the same thread,
 * so the refusal waits in a thread-local until {@link #written} learns its size from the connection's send listener
 * (the answer's own write, the next on that thread). Connection threads are virtual threads, one per connection; an
 * HTTP/2 stream has one of its own, and the answer of a stream Helidon's HTTP/2 layer refuses passes no send listener:
 * that refusal ends with its thread, untold.
 *
 * <p>Threading: observers are added while the pod starts ({@link #observe}) and read by connection threads
 * concurrently (a copy-on-write list); the pending refusal is per thread.
 */
public final class Refusals {
    /** The header an answer's identifier goes in (the Worker's request ID). */
    public static final HeaderName REQUEST_ID = HeaderNames.create("X-Request-Id");

    private final List<RefusalObserver> observers = new CopyOnWriteArrayList<>();
    private final ThreadLocal<RefusedRequest> pending = new ThreadLocal<>();

    /** Adds an observer; called while the pod starts. */
    public void observe(RefusalObserver observer) {
        observers.add(observer);
    }

    /**
     * Refuses the request from a filter that runs before any route: the JSON error (with the observers' identifier,
     * in the body and in {@link #REQUEST_ID}), then the observers are told.
     */
    public void send(ServerRequest req, ServerResponse res, Status status, String error, String description) {
        String requestId = requestId();
        if (requestId != null) {
            res.header(REQUEST_ID, requestId);
        }
        new ErrorBody(error, description, null, requestId).send(res, status);
        if (observers.isEmpty()) {
            return;
        }
        tell(new RefusedRequest(now(), ip(req.remotePeer()), req.prologue().method().text(), req.path().rawPath(),
                req.prologue().protocol() + "/" + req.prologue().protocolVersion(),
                req.headers().first(HeaderNames.HOST).orElse(null), status.code(), res.bytesWritten(), requestId));
    }

    /** The identifier of a refusal's answer: the first an observer gives, null when none does. */
    @Nullable String requestId() {
        for (RefusalObserver observer : observers) {
            String id = observer.requestId();
            if (id != null) {
                return id;
            }
        }
        return null;
    }

    /** The listener answers {@code request} with {@code status}: kept on this thread until it is {@link #written}. */
    void answering(DirectHandler.TransportRequest request, int status, @Nullable String requestId) {
        if (observers.isEmpty()) {
            return;
        }
        pending.set(new RefusedRequest(now(), null, emptyAsNull(request.method()), emptyAsNull(request.path()),
                emptyAsNull(request.protocolVersion()), request.headers().first(HeaderNames.HOST).orElse(null), status,
                0, requestId));
    }

    /**
     * The connection writes an answer of a status of 400 or more, {@code bytes} in all: when the listener refused its
     * request on this thread, the observers are told now.
     */
    public void written(@Nullable PeerInfo client, long bytes) {
        RefusedRequest refused = pending.get();
        if (refused == null) {
            return;
        }
        pending.remove();
        tell(new RefusedRequest(refused.at(), client == null ? null : ip(client), refused.method(), refused.path(),
                refused.protocol(), refused.host(), refused.status(), bytes, refused.requestId()));
    }

    private void tell(RefusedRequest refused) {
        for (RefusalObserver observer : observers) {
            observer.refused(refused);
        }
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }

    private static @Nullable String emptyAsNull(@Nullable String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    /** The client's address without port, as the gateway's access log writes it. */
    public static String ip(PeerInfo peer) {
        if (peer.address() instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return peer.host();
    }
}
