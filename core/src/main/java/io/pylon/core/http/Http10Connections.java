package io.pylon.core.http;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.Bytes;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;

import java.util.Set;

/**
 * Answers HTTP/1.0 requests, which Helidon 4.5 drops without a word (its HTTP/1 selector only claims {@code HTTP/1.1}
 * request lines, so an HTTP/1.0 connection finds no protocol and is closed). Health checkers and nginx's default
 * {@code proxy_http_version 1.0} speak it.
 *
 * <p>Every connection is served by Helidon's own HTTP/1.1 connection, reading through {@link Http10Request}: an
 * HTTP/1.1 connection passes unchanged, and each request of an HTTP/1.0 one becomes the HTTP/1.1 request it means:
 * with a {@code Host} when the client sent none, and {@code Connection: close} unless the client asked for keep-alive
 * (then the connection is kept, as nginx does: a sized answer says {@code Connection: keep-alive}, and the next
 * request is rewritten in turn). A response body of unknown length, which Helidon would chunk, reaches the HTTP/1.0
 * client unframed and ends with the close ({@link Http10Response}), whatever the client asked for. Responses carry {@code HTTP/1.1} in the status line, as RFC 9110 section
 * 2.5 says a server should. It is no connection selector of its own: the listener has one selector (see the server's
 * connection timeouts), which must register a connection before anything reads from it.
 */
public final class Http10Connections {
    private Http10Connections() {
    }

    /** The bytes of {@code source}, a reader of connection {@code ctx}, as Helidon's HTTP/1.1 connection should read them. */
    public static DataReader reader(DataReader source, ConnectionContext ctx, Http1Config config) {
        return reader(source, ctx, config, () -> { });
    }

    /** @param onHttp10 called when the connection's first request turns out to be HTTP/1.0 (before it is parsed) */
    public static DataReader reader(DataReader source, ConnectionContext ctx, Http1Config config, Runnable onHttp10) {
        return reader(source, ctx, config, onHttp10, new Http10Exchanges());
    }

    /** The Host an HTTP/1.0 request without one is given: the listener's address, an IPv6 one in brackets. */
    static String hostHeader(String address, int port) {
        if (address.indexOf(':') < 0) {
            return address + ":" + port;
        }
        int scope = address.indexOf('%');
        return "[" + (scope < 0 ? address : address.substring(0, scope)) + "]:" + port;
    }

    /**
     * @param exchanges shared with the connection's {@link #writer}: the requests whose answers are still to come
     */
    public static DataReader reader(DataReader source, ConnectionContext ctx, Http1Config config, Runnable onHttp10,
                                    Http10Exchanges exchanges) {
        String host = hostHeader(ctx.localPeer().host(), ctx.localPeer().port());
        int maxHead = config.maxPrologueLength() + config.maxHeadersSize();
        return DataReader.create(new Http10Request(source, host, maxHead, onHttp10, exchanges));
    }

    /** The state a connection's reader and writer share. */
    public static Http10Exchanges exchanges() {
        return new Http10Exchanges();
    }

    /**
     * What Helidon writes the connection's responses through: unchanged, or for an HTTP/1.0 connection
     * ({@code http10}) without chunked framing (see {@link Http10Response}).
     */
    public static DataWriter writer(DataWriter target, java.util.function.BooleanSupplier http10) {
        return writer(target, http10, new Http10Exchanges());
    }

    /** @param exchanges shared with the connection's {@link #reader} */
    public static DataWriter writer(DataWriter target, java.util.function.BooleanSupplier http10,
                                    Http10Exchanges exchanges) {
        return new Http10Response(target, http10, exchanges);
    }
}
