package io.pylon.worker.listener;

import io.helidon.webserver.ProtocolConfigs;
import io.helidon.webserver.http2.Http2Config;
import io.helidon.webserver.http2.Http2ConnectionProvider;
import io.helidon.webserver.http2.Http2Upgrader;
import io.pylon.core.server.ListenerProtocols;

import java.util.List;

/**
 * HTTP/2 to clients on the Worker's listener: a connection that opens with the HTTP/2 preface (prior knowledge, or
 * {@code h2} chosen by ALPN under TLS) and an HTTP/1.1 request with {@code Upgrade: h2c}. Requests on every stream
 * go through the same routing, filters and gateway as HTTP/1.1 ones; upstreams are still called over HTTP/1.1.
 */
public final class Http2Protocols {
    private Http2Protocols() {
    }

    /**
     * @param maxHeaders the largest header block taken, as on HTTP/1.1: a larger one is answered 431 on its stream (the
     *                   pod's header filter). The connection takes four times it, as the HTTP/1.1 parser reads four
     *                   times it, and that is what {@code SETTINGS_MAX_HEADER_LIST_SIZE} says: Helidon counts a block's
     *                   encoded bytes and ends the whole connection past its bound, and clients refuse to send past
     *                   the advertised one, so at the bound itself a large cookie would cost the connection, or never
     *                   leave the client, where HTTP/1.1 gets a 431 naming the problem.
     */
    public static void install(ListenerProtocols listener, int maxStreams, int maxHeaders) {
        Http2Config config = Http2Config.builder()
                .maxConcurrentStreams(maxStreams)
                .maxHeaderListSize(4L * maxHeaders)
                .validatePath(false) // as on HTTP/1.1: the gateway checks the paths it proxies (RequestPath)
                .build();
        listener.addSelector(new Http2ConnectionProvider().create("@default", config,
                ProtocolConfigs.create(List.of(config))));
        listener.addUpgrader(Http2Upgrader.create(config));
    }
}
