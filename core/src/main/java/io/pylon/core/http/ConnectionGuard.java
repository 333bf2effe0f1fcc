package io.pylon.core.http;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * The filter that wraps every other filter and route of a pod (only the pod's request counter, which neither reads
 * nor answers, is outside it): after the response, the connection is either at the start of the next request or
 * closed, so a body the handler never read cannot run as a second request (request smuggling).
 *
 * <p>Helidon 4.5.0 keeps reading after a response marked {@code Connection: close}, and skips the unread body of such
 * a request, whose bytes it then parses as the next request (helidon-io/helidon#12324). So here: a body left unread
 * is drained up to {@link #DRAIN_LIMIT} bytes; a longer, unreadable or malformed one closes the connection, and
 * {@code Connection: close} from either side always closes. Closing is Helidon's own way: a
 * {@link CloseConnectionException} thrown once the response is written bubbles up to the connection loop, and the
 * listener then closes lingering (it reads and discards what the client still sends, within its bounds: see
 * {@code ConnectionTimeouts}), so the client reads the answer instead of a reset.
 *
 * <p>An answer sent while more than {@link #DRAIN_LIMIT} declared body bytes are unread (a 413 by the declared
 * length, a 401 before the body) says {@code Connection: close}: the connection will close after it, and a client
 * told keep-alive would send its next request on a connection about to close. An HTTP/2 answer never carries a
 * {@code Connection} header, whoever set it.
 *
 * <p>On HTTP/2 every read of a stream's body, the handler's and the guard's, waits at most the body timeout for the
 * client's next bytes ({@link BodyReadWatch}; a handler's read that gives up is answered 408). What an HTTP/2 stream's
 * handler left of its body, all of it or the rest of a body it read in part, is read to its end here, after the
 * answer, up to the given byte bound: Helidon 4.5.0 loses the flow-control credit of body bytes nobody reads, and after
 * a few early answers (a 413 by the declared length, or once an unsized body grew past a limit) to large bodies the
 * connection's window was spent and every later request on it stalled. Helidon hands out a body's stream once, so the
 * guard keeps the stream it handed out (through the stream filter) to read the rest.
 *
 * <p>Errors thrown by handlers are answered here (through {@link ErrorHandling#respond}) rather than by Helidon's error
 * handlers, so that the close decision also follows error responses. Also refused here, for every route: more than one
 * {@code Authorization} header (400), which one a component honours would otherwise depend on its header library.
 *
 * <p>Threading: immutable; one instance serves all requests concurrently. Per request, the body stream Helidon handed
 * out is kept in an atomic reference: set by whichever thread first asks for the body, read by the request's thread
 * after the answer.
 */
public final class ConnectionGuard implements Filter {
    /** Most bytes of an unread request body read and discarded to keep the connection; beyond it, it closes. */
    public static final int DRAIN_LIMIT = 64 * 1024;
    private static final Status LENGTH_REQUIRED = Status.create(411, "Length Required");

    private final Predicate<String> chunkedAccepted;
    private final long http2DrainBytes;
    private final BodyReadWatch http2BodyReads;
    private final Refusals refusals;

    private ConnectionGuard(Predicate<String> chunkedAccepted, long http2DrainBytes, BodyReadWatch http2BodyReads,
                            Refusals refusals) {
        this.chunkedAccepted = chunkedAccepted;
        this.refusals = refusals;
        this.http2DrainBytes = http2DrainBytes;
        this.http2BodyReads = http2BodyReads;
    }

    /**
     * Must be registered before any filter that reads a body or answers, so that it wraps every such filter and
     * every route ({@code PodServer} registers it right after the request counter).
     *
     * @param chunkedAccepted the request paths whose routes take chunked bodies; elsewhere such a request gets 411
     * @param http2DrainBytes the most bytes of an HTTP/2 body its handler left unread that are read and discarded
     *                        after the answer (the lingering close's byte bound); 0 reads none
     * @param http2BodyReads  what bounds the wait for an HTTP/2 stream's next body bytes (its handler's reads and the
     *                        guard's own); an HTTP/1 connection's body timeout is its socket's
     * @param refusals        told of the requests the guard refuses
     */
    public static void install(HttpRouting.Builder routing, Predicate<String> chunkedAccepted, long http2DrainBytes,
                               BodyReadWatch http2BodyReads, Refusals refusals) {
        routing.addFilter(new ConnectionGuard(chunkedAccepted, http2DrainBytes, http2BodyReads, refusals));
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        // the body's stream as handed out, so that what a handler left of it can be read after the answer
        AtomicReference<InputStream> http2Body = null;
        if (http2(req)) {
            AtomicReference<InputStream> handedOut = new AtomicReference<>();
            http2Body = handedOut;
            // before anything reads the body: Helidon applies it when the body's stream is first asked for
            req.streamFilter(in -> {
                InputStream guarded = http2BodyReads.guard(in);
                handedOut.set(guarded);
                return guarded;
            });
        }
        res.beforeSend(() -> {
            if (http2(req)) {
                // RFC 9113 section 8.2.2: a connection-specific field makes an HTTP/2 response malformed (Helidon
                // 4.5 then resets the stream with PROTOCOL_ERROR instead of sending the answer)
                res.headers().remove(HeaderNames.CONNECTION);
            } else if (!req.content().consumed() && req.headers().contentLength().orElse(0) > DRAIN_LIMIT) {
                res.header(HeaderValues.CONNECTION_CLOSE);
            }
        });
        List<String> authorization = req.headers().all(HeaderNames.AUTHORIZATION, List::of);
        if (authorization.size() > 1) {
            res.header(HeaderValues.CONNECTION_CLOSE);
            refusals.send(req, res, Status.BAD_REQUEST_400, "bad_request", "The request carries " + authorization.size()
                    + " Authorization headers; send exactly one.");
        } else if (req.headers().contains(HeaderNames.TRANSFER_ENCODING) && !chunkedAccepted.test(req.path().path())) {
            // Helidon 4.5.0 hangs on a malformed chunk (closing the body stream reads on for the end) and fails
            // valid extensions and trailers; what no route here needs is refused as RFC 9112 section 6.3 allows.
            res.header(HeaderValues.CONNECTION_CLOSE);
            refusals.send(req, res, LENGTH_REQUIRED, "length_required",
                    "Send the request body with Content-Length; chunked request bodies are not accepted here.");
        } else {
            try {
                chain.proceed();
            } catch (CloseConnectionException e) {
                throw e; // also a failed write to a client that went away (ServerConnectionException)
            } catch (RuntimeException e) {
                if (res.isSent()) {
                    throw e;
                }
                ErrorHandling.respond(req, res, e);
            }
        }
        if (!res.isSent()) {
            return; // Helidon answers what no route answered; its own rules apply
        }
        if (http2(req)) {
            // Helidon returns the flow-control credit of what is read; a stream is framed, so nothing left unread can
            // run as another request and the connection stays
            if (http2DrainBytes > 0) {
                InputStream handedOut = http2Body == null ? null : http2Body.get();
                if (handedOut == null) {
                    readToEnd(req, http2DrainBytes);
                } else if (!req.content().consumed()) {
                    skip(handedOut, http2DrainBytes); // what the handler left of the body it read in part
                }
            }
            return;
        }
        // when closing, what is left unread is discarded by the listener's lingering close, after the answer's FIN
        if (closeRequested(req, res) || !readToEnd(req, DRAIN_LIMIT)) {
            throw new CloseConnectionException("Connection closed after the response (Connection: close or unread body)");
        }
    }

    private static boolean http2(RoutingRequest req) {
        return "2.0".equals(req.prologue().protocolVersion());
    }

    private static boolean closeRequested(RoutingRequest req, RoutingResponse res) {
        return ConnectionClose.in(req.headers()) || ConnectionClose.in(res.headers());
    }

    /**
     * Whether the request body is now fully read: it was, or its rest, read and discarded here, fitted in
     * {@code maxBytes}. False for a body its handler read in part (Helidon hands out its stream once), or one that is
     * unreadable or malformed (a bad chunk size: the next request's start is unknown).
     */
    private static boolean readToEnd(RoutingRequest req, long maxBytes) {
        if (req.content().consumed()) {
            return true;
        }
        // never closed: on a malformed chunk or past the limit, closing the stream would read on for the body's end
        try {
            return skip(req.content().inputStream(), maxBytes);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * Reads {@code body} to its end and discards it; false past {@code maxBytes}, or when the body failed. The reads may
     * pull {@code maxBytes} and 64 KiB of framing lines from an HTTP/1 connection, no more ({@link ReadBudget}): Helidon
     * holds a chunk whole before handing any of it out.
     */
    private static boolean skip(InputStream body, long maxBytes) {
        ReadBudget.begin(maxBytes + 64 * 1024);
        try {
            long skipped = 0;
            byte[] buffer = new byte[16 * 1024];
            for (int n; (n = body.read(buffer)) >= 0; ) {
                skipped += n;
                if (skipped > maxBytes) {
                    return false;
                }
            }
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        } finally {
            ReadBudget.end();
        }
    }
}
