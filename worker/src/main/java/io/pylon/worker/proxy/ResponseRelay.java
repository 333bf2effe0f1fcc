package io.pylon.worker.proxy;

import org.jspecify.annotations.Nullable;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.ServerResponseTrailers;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.ServerConnectionException;
import io.helidon.webserver.http.ServerResponse;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.function.UnaryOperator;

/**
 * The relay stage: the upstream's response to the client. Status and end-to-end headers are copied (hop-by-hop ones,
 * and those the upstream's {@code Connection} names, are not); a body no larger than the streaming buffer goes out in
 * one write, a larger or unsized one is streamed through the buffer and flushed whenever the upstream pauses. The
 * exchange is completed (its connection back to the pool) as soon as the upstream's body was read to its end, before
 * the last write to the client, so the connection is back by the time the client has the whole response; an exchange
 * that ends any other way is aborted (closed, never reused). Stateless
 * apart from the counters; called concurrently by request threads, each with its own exchange.
 */
final class ResponseRelay {
    private static final System.Logger LOG = System.getLogger(ResponseRelay.class.getName());

    private final ProxyStats stats;

    ResponseRelay(ProxyStats stats) {
        this.stats = stats;
    }

    /** A response of unknown length that a buffering route reads whole before sending, at most this many bytes. */
    static final int BUFFER_LIMIT = 1024 * 1024;

    void relay(UpstreamExchange exchange, ServerResponse res) throws IOException {
        relay(exchange, res, false, null, headers -> { }, false);
    }

    /**
     * @param buffering whether a body of unknown length is read whole (up to {@link #BUFFER_LIMIT}) and sent with its
     *                  length; a longer one is streamed after what was read
     * @param location  rewrites {@code Location} and {@code Content-Location} values; null: they pass unchanged
     * @param edit      the route's header rules, applied to the copied headers before anything is sent
     * @param trailers  whether the client is an HTTP/2 one that takes trailer fields ({@code TE: trailers}): an HTTP/2
     *                  upstream's are then relayed after the body (gRPC's status travels in them)
     */
    void relay(UpstreamExchange exchange, ServerResponse res, boolean buffering, @Nullable UnaryOperator<String> location,
               java.util.function.Consumer<io.helidon.http.ServerResponseHeaders> edit, boolean trailers)
            throws IOException {
        ClassicHttpResponse response = exchange.response();
        boolean completed = false;
        try {
            String reason = UpstreamHead.reasonPhrase(response);
            res.status(reason == null ? Status.create(response.getCode()) : Status.create(response.getCode(), reason));
            HttpEntity entity = response.getEntity();
            HopByHopHeaders hop = hopByHop(response);
            for (Header header : response.getHeaders()) {
                String name = header.getName();
                if (hop.isHopByHop(name) || (entity != null && name.equalsIgnoreCase("content-length"))) {
                    continue;
                }
                String value = header.getValue();
                if (location != null && (name.equalsIgnoreCase("location") || name.equalsIgnoreCase("content-location"))) {
                    value = location.apply(value);
                }
                res.headers().add(ObsTextHeader.of(name, value));
            }
            edit.accept(res.headers());
            if (entity == null) {
                exchange.complete();
                if (trailers) {
                    endWithHeaders(res);
                } else {
                    res.send();
                }
            } else {
                long length = entity.getContentLength();
                if (length >= 0 && length <= StreamBuffer.SIZE) {
                    if (!sendSmall(exchange, (int) length, res, trailers)) {
                        return;
                    }
                } else if (length < 0 && buffering) {
                    if (!sendBuffered(exchange, res, trailers)) {
                        return;
                    }
                } else {
                    if (length >= 0) {
                        res.headers().contentLength(length);
                    }
                    stream(exchange, length, res, null, trailers);
                }
            }
            stats.forwarded.increment();
            completed = true;
        } finally {
            if (completed) {
                exchange.complete();
            } else {
                exchange.abort();
            }
        }
    }

    /** Drops the upstream's headers copied so far, for the gateway's own answer; the request's identifier stays. */
    private static void clearCopiedHeaders(ServerResponse res) {
        String requestId = res.headers().first(RequestId.NAME).orElse(null);
        res.headers().clear();
        if (requestId != null) {
            res.header(RequestId.NAME, requestId);
        }
    }

    // One Connection header (the usual keep-alive) is read without the array and list of the general case.
    private static HopByHopHeaders hopByHop(ClassicHttpResponse response) {
        if (response.countHeaders("Connection") <= 1) {
            Header connection = response.getFirstHeader("Connection");
            return HopByHopHeaders.of(connection == null ? null : connection.getValue());
        }
        List<String> values = new ArrayList<>();
        for (Header header : response.getHeaders("Connection")) {
            values.add(header.getValue());
        }
        return HopByHopHeaders.of(values);
    }

    /**
     * An answer without a body to a client that takes trailers ends with its header block, as the upstream's did: a
     * gRPC error without messages ("trailers-only") carries its status there, and a client reads a header block
     * followed by an empty body as a response whose trailers are missing.
     */
    private void endWithHeaders(ServerResponse res) {
        try {
            OutputStream out = res.outputStream();
            res.headers().remove(HeaderNames.TRAILER); // announced by the server for such clients; nothing follows
            out.close();
        } catch (IOException | UncheckedIOException | ServerConnectionException e) {
            throw ClientGoneException.counted(stats, "during the answer", e);
        }
    }

    /**
     * The upstream's trailer fields go out after the body, announced in {@code Trailer} (the server writes trailers
     * only then; it replaces the {@code stream-result} the server announces on its own to a client that takes them).
     */
    private static void relayTrailers(UpstreamExchange exchange, ServerResponse res) {
        List<Header> fields = exchange.trailers();
        if (fields.isEmpty()) {
            return;
        }
        StringJoiner names = new StringJoiner(", ");
        for (Header field : fields) {
            names.add(field.getName());
        }
        res.headers().set(HeaderValues.create(HeaderNames.TRAILER, names.toString()));
        ServerResponseTrailers out = res.trailers();
        for (Header field : fields) {
            out.add(HeaderValues.create(field.getName(), field.getValue()));
        }
    }

    /**
     * A body no larger than the streaming buffer goes out in one write, without the streaming machinery. Nothing has
     * reached the client before the whole body is read, so an upstream that fails here still gets a clean 502.
     */
    private boolean sendSmall(UpstreamExchange exchange, int length, ServerResponse res, boolean trailers) {
        byte[] body;
        try {
            InputStream in = exchange.body();
            body = in.readNBytes(length);
            if (trailers && body.length == length) {
                in.read(); // the end of the stream, which brings its trailers
            }
        } catch (IOException e) {
            body = null;
        }
        if (body == null || body.length < length) {
            stats.upstreamAborted.increment();
            clearCopiedHeaders(res);
            (exchange.timedOut() ? UpstreamFailure.TIMEOUT : UpstreamFailure.UNREACHABLE).answer(stats).send(res);
            return false;
        }
        exchange.complete();
        if (trailers) {
            relayTrailers(exchange, res);
        }
        try {
            res.send(body);
            return true;
        } catch (UncheckedIOException | ServerConnectionException e) {
            throw ClientGoneException.counted(stats, "during the answer", e);
        }
    }

    /**
     * A body of unknown length read up to {@link #BUFFER_LIMIT}: when it ends within it, it goes out in one write with
     * its length (the upstream connection is back in the pool before the client has read a byte); when it does not,
     * what was read goes first and the rest streams.
     */
    private boolean sendBuffered(UpstreamExchange exchange, ServerResponse res, boolean trailers) throws IOException {
        InputStream in = exchange.body();
        byte[] head;
        try {
            head = in.readNBytes(BUFFER_LIMIT);
        } catch (IOException e) {
            if (exchange.abandoned()) {
                throw ClientGoneException.counted(stats, "during the answer", e);
            }
            stats.upstreamAborted.increment();
            clearCopiedHeaders(res);
            (exchange.timedOut() ? UpstreamFailure.TIMEOUT : UpstreamFailure.UNREACHABLE).answer(stats).send(res);
            return false;
        }
        if (head.length < BUFFER_LIMIT) {
            exchange.complete();
            if (trailers) {
                relayTrailers(exchange, res);
            }
            try {
                res.send(head);
            } catch (UncheckedIOException | ServerConnectionException e) {
                throw ClientGoneException.counted(stats, "during the answer", e);
            }
            return true;
        }
        stream(exchange, -1, res, head, trailers);
        return true;
    }

    /** @param first bytes already read from the upstream's body, sent before the rest; null: none */
    private void stream(UpstreamExchange exchange, long length, ServerResponse res, byte @Nullable [] first,
                        boolean trailers) throws IOException {
        byte[] buffer = StreamBuffer.forLength(length);
        long total = 0;
        InputStream in = exchange.body();
        OutputStream out = res.outputStream();
        try {
            if (first != null) {
                out.write(first);
                total = first.length;
            }
            while (true) {
                int n;
                try {
                    n = in.read(buffer);
                } catch (IOException e) {
                    if (exchange.abandoned()) {
                        throw ClientGoneException.counted(stats, "during the answer", e);
                    }
                    stats.upstreamAborted.increment();
                    LOG.log(Level.WARNING, "Upstream stopped sending a response body after " + total + " bytes ("
                            + (exchange.timedOut() ? "silent past the response timeout" : e.getClass().getSimpleName())
                            + "); closing the client connection");
                    // the status line is out: cutting the connection is the only way left to say the body is incomplete
                    throw new CloseConnectionException("upstream stopped sending the response body", e);
                }
                if (n < 0) {
                    exchange.complete();
                    if (trailers) {
                        relayTrailers(exchange, res);
                    }
                    break;
                }
                total += n;
                out.write(buffer, 0, n);
                if (in.available() == 0 && (length < 0 || total < length)) {
                    out.flush();
                }
            }
            out.close();
        } catch (UncheckedIOException | IOException | ServerConnectionException e) {
            LOG.log(Level.DEBUG, () -> "Client went away after a partial response: " + e.getClass().getSimpleName());
            throw ClientGoneException.counted(stats, "during the answer", e);
        }
    }
}
