package io.pylon.core.http;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.Bytes;
import io.helidon.common.buffers.DataReader;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;

import java.util.Set;

/**
 * Answers HTTP/1.0 requests, which Helidon 4 drops without a word (its HTTP/1 selector only claims {@code HTTP/1.1}
 * request lines, so an HTTP/1.0 connection finds no protocol and is closed). Health checkers and nginx's default
 * {@code proxy_http_version 1.0} speak it.
 *
 * <p>An HTTP/1.0 connection is served by Helidon's own HTTP/1.1 connection, reading through {@link Http10Request},
 * which turns the first request into the HTTP/1.1 request it means: {@code Connection: close} (the pod always closes
 * after the one response, which HTTP/1.0 allows even when the client asked for keep-alive, and which spares a
 * rewrite of every later request on the connection) and a {@code Host} when the client sent none. Responses carry
 * {@code HTTP/1.1} in the status line, as RFC 9110 section 2.5 says a server should.
 *
 * <p>Immutable; Helidon calls it concurrently from every accepting connection.
 */
public final class Http10Selector implements ServerConnectionSelector {
    private static final String HTTP_1_0 = " HTTP/1.0\r";

    private final ServerConnectionSelector http1;
    private final int maxHead;

    public Http10Selector(Http1Config config) {
        this.http1 = Http1ConnectionSelector.builder().config(config).build();
        this.maxHead = config.maxPrologueLength() + config.maxHeadersSize();
    }

    @Override
    public int bytesToIdentifyConnection() {
        return 0;
    }

    @Override
    public Support supports(BufferData data) {
        int lf = data.indexOf(Bytes.LF_BYTE);
        if (lf == -1) {
            return Support.UNKNOWN; // the HTTP/1.1 selector, next, takes an incomplete first line
        }
        return data.readString(lf).endsWith(HTTP_1_0) ? Support.SUPPORTED : Support.UNSUPPORTED;
    }

    @Override
    public Set<String> supportedApplicationProtocols() {
        return Set.of();
    }

    @Override
    public ServerConnection connection(ConnectionContext ctx) {
        String host = ctx.localPeer().host() + ":" + ctx.localPeer().port();
        DataReader reader = DataReader.create(new Http10Request(ctx.dataReader(), host, maxHead));
        return http1.connection(new ReaderReplacingContext(ctx, reader));
    }
}
