package io.pylon.gateway.model;

import org.jspecify.annotations.Nullable;

/**
 * How a proxy's {@code https://} upstreams are spoken to: whom to trust, what to present, what name to ask for and
 * check. Files are paths on the Worker (a mounted Secret, say); this value names them, the Worker reads them.
 * Immutable.
 *
 * @param caFile          a PEM bundle of the certificate authorities the upstream's certificate must chain to; null:
 *                        the JDK's default trust store (nginx: {@code proxy_ssl_trusted_certificate})
 * @param certificateFile the client certificate chain (PEM, leaf first) presented when the upstream asks for one
 *                        (mutual TLS); null: none (nginx: {@code proxy_ssl_certificate})
 * @param keyFile         its private key (PEM, unencrypted); set exactly when {@code certificateFile} is
 * @param serverName      the name sent as SNI and checked against the upstream's certificate; null: the upstream
 *                        URL's host (nginx: {@code proxy_ssl_name})
 * @param verify          whether the upstream's certificate chain and name are checked; on by default (nginx:
 *                        {@code proxy_ssl_verify on})
 */
public record UpstreamTls(@Nullable String caFile, @Nullable String certificateFile, @Nullable String keyFile,
                          @Nullable String serverName, boolean verify) {
    /** The JDK's trust store, no client certificate, the URL's host, verified. */
    public static final UpstreamTls DEFAULTS = new UpstreamTls(null, null, null, null, true);

    public UpstreamTls {
        if ((certificateFile == null) != (keyFile == null)) {
            throw new IllegalArgumentException("certificateFile and keyFile go together");
        }
    }

    /** Whether this is {@link #DEFAULTS}: upstreams share the pools of every other proxy naming them plainly. */
    public boolean isDefault() {
        return equals(DEFAULTS);
    }
}
