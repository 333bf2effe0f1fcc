package io.pylon.worker.testing;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIMatcher;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.StandardConstants;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.Executors;

/**
 * A real HTTPS server on loopback (the JDK's {@code HttpsServer}) presenting a test certificate, optionally requiring
 * a client certificate signed by a given authority (mutual TLS). Answers 200 with {@code tls <path>} and the client
 * certificate's subject in {@code X-Client-Subject}; remembers the last SNI name a client asked for.
 *
 * <p>Threading: handshakes and exchanges run on the server's threads; the last SNI name is a volatile field.
 */
public final class TlsUpstream implements AutoCloseable {
    private final HttpsServer server;
    private volatile String lastServerName = "";

    private TlsUpstream(TestCertificates.Issued certificate, TestCertificates.Issued clientAuthority) {
        try {
            server = HttpsServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 100);
            SSLContext context = certificate.context(clientAuthority == null ? null : clientAuthority.certificate());
            server.setHttpsConfigurator(new HttpsConfigurator(context) {
                @Override
                public void configure(HttpsParameters params) {
                    SSLParameters parameters = context.getDefaultSSLParameters();
                    parameters.setNeedClientAuth(clientAuthority != null);
                    parameters.setSNIMatchers(List.of(new SNIMatcher(StandardConstants.SNI_HOST_NAME) {
                        @Override
                        public boolean matches(SNIServerName name) {
                            lastServerName = ((SNIHostName) name).getAsciiName();
                            return true;
                        }
                    }));
                    params.setSSLParameters(parameters);
                }
            });
            server.createContext("/", exchange -> {
                exchange.getRequestBody().readAllBytes();
                String subject = "";
                try {
                    var peer = ((HttpsExchange) exchange).getSSLSession().getPeerCertificates();
                    subject = ((X509Certificate) peer[0]).getSubjectX500Principal().getName();
                } catch (SSLPeerUnverifiedException e) {
                    // no client certificate
                }
                exchange.getResponseHeaders().add("X-Client-Subject", subject.isEmpty() ? "none" : subject);
                TestUpstream.send(exchange, 200, ("tls " + exchange.getRequestURI().getRawPath())
                        .getBytes(StandardCharsets.UTF_8));
            });
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Presents {@code certificate}; asks no client certificate. */
    public static TlsUpstream start(TestCertificates.Issued certificate) {
        return new TlsUpstream(certificate, null);
    }

    /** Presents {@code certificate} and refuses clients without a certificate signed by {@code clientAuthority}. */
    public static TlsUpstream mutual(TestCertificates.Issued certificate, TestCertificates.Issued clientAuthority) {
        return new TlsUpstream(certificate, clientAuthority);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** {@code https://127.0.0.1:<port>}. */
    public String url() {
        return "https://127.0.0.1:" + port();
    }

    /** The SNI host name of the last handshake that sent one ("" before). */
    public String lastServerName() {
        return lastServerName;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
