package io.pylon.worker.proxy;

import org.apache.hc.client5.http.config.TlsConfig;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.URIScheme;
import org.apache.hc.core5.http.nio.ssl.TlsStrategy;
import org.apache.hc.core5.http2.HttpVersionPolicy;
import org.apache.hc.core5.net.NamedEndpoint;
import org.apache.hc.core5.reactor.ssl.TransportSecurityLayer;
import org.apache.hc.core5.util.Timeout;

import java.net.SocketAddress;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The TLS of an HTTP/2 upstream connection: the route's context (its trust, client certificate and checks, read anew
 * at each handshake so a reloaded file serves new connections), the route's server name as SNI and the name checked,
 * and ALPN offering {@code h2} alone. Stateless.
 */
final class Http2TlsStrategy implements TlsStrategy {
    private static final TlsConfig H2_ONLY = TlsConfig.custom().setVersionPolicy(HttpVersionPolicy.FORCE_HTTP_2).build();

    private final Supplier<? extends TlsStrategy> context;
    private final UnaryOperator<String> serverName;

    /** @param serverName the name sent and checked for an upstream host */
    Http2TlsStrategy(Supplier<? extends TlsStrategy> context, UnaryOperator<String> serverName) {
        this.context = context;
        this.serverName = serverName;
    }

    @Override
    public void upgrade(TransportSecurityLayer session, NamedEndpoint endpoint, Object attachment, Timeout handshakeTimeout,
                        FutureCallback<TransportSecurityLayer> callback) {
        HttpHost named = new HttpHost(URIScheme.HTTPS.id, serverName.apply(endpoint.getHostName()), endpoint.getPort());
        context.get().upgrade(session, named, H2_ONLY, handshakeTimeout, callback);
    }

    /** The older form, which HttpCore's requesters no longer call: the same name and ALPN, without a callback. */
    @Deprecated
    @Override
    @SuppressWarnings("deprecation")
    public boolean upgrade(TransportSecurityLayer session, HttpHost host, SocketAddress localAddress,
                           SocketAddress remoteAddress, Object attachment, Timeout handshakeTimeout) {
        HttpHost named = new HttpHost(URIScheme.HTTPS.id, serverName.apply(host.getHostName()), host.getPort());
        return context.get().upgrade(session, named, localAddress, remoteAddress, H2_ONLY, handshakeTimeout);
    }
}
