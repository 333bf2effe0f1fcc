package io.pylon.worker.proxy;

import org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory;
import org.apache.hc.client5.http.io.ManagedHttpClientConnection;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.EndpointDetails;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.ProtocolVersion;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.io.HttpConnectionFactory;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;

import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketAddress;

/**
 * Creates the upstream pools' connections: HttpClient's default ones, except that leasing and releasing one leave
 * its socket's read timeout alone. HttpClient sets the timeout on every lease and resets it on every release, two
 * socket-option calls per proxied request (about 1.5% of the Worker's CPU in the benchmark's profile), while these
 * sockets always read without a timeout: {@link ResponseTimeouts} watches the exchanges instead, and the pools set no
 * timeout of their own (a TLS handshake or a staleness check restores the socket's timeout, zero, when done).
 * An upstream's response head is read within bounds (a line of {@value #MAX_LINE} bytes, {@value #MAX_FIELDS} fields),
 * so one that sends an endless header cannot fill the pod's heap: the client gets 502.
 * Stateless; each connection is used by one request thread at a time, as HttpClient's own (its state is confined to
 * that thread).
 */
final class UpstreamConnections implements HttpConnectionFactory<ManagedHttpClientConnection> {
    static final UpstreamConnections INSTANCE = new UpstreamConnections();
    /** The longest line of an upstream's response head, trailers or chunk sizes (HttpClient's default: unbounded). */
    static final int MAX_LINE = 16 * 1024;
    /** The most header (or trailer) fields an upstream's response may have (HttpClient's default: unbounded). */
    static final int MAX_FIELDS = 200;

    /** The bounds an upstream's response head is read within, on pooled connections and WebSocket handshakes alike. */
    static final Http1Config HEAD_BOUNDS = Http1Config.custom().setMaxLineLength(MAX_LINE).setMaxHeaderCount(MAX_FIELDS)
            .build();

    private static final ManagedHttpClientConnectionFactory FACTORY = ManagedHttpClientConnectionFactory.builder()
            .http1Config(HEAD_BOUNDS).requestWriterFactory(RequestHeadWriter::create)
            .responseOutOfOrderStrategy(EarlyAnswers.INSTANCE).build();

    private UpstreamConnections() {
    }

    @Override
    public ManagedHttpClientConnection createConnection(Socket socket) throws IOException {
        return new Connection(FACTORY.createConnection(socket));
    }

    /**
     * HttpClient's connection with the two socket-timeout calls of pooling taken out. A TLS connection whose upstream
     * asked for a client certificate and fails before its first response says so
     * ({@link UpstreamTlsContext.ClientCertificateRefusedException}).
     */
    private static final class Connection implements ManagedHttpClientConnection {
        private final ManagedHttpClientConnection delegate;
        private boolean answered;

        Connection(ManagedHttpClientConnection delegate) {
            this.delegate = delegate;
        }

        /** Idle in the pool: the socket keeps its timeout (none). */
        @Override
        public void passivate() {
        }

        /** Leased: the socket keeps its timeout (none). */
        @Override
        public void activate() {
        }

        @Override
        public void bind(Socket socket) throws IOException {
            delegate.bind(socket);
        }

        @Override
        public void bind(SSLSocket sslSocket, Socket socket) throws IOException {
            delegate.bind(sslSocket, socket);
        }

        @Override
        public Socket getSocket() {
            return delegate.getSocket();
        }

        @Override
        public SSLSession getSSLSession() {
            return delegate.getSSLSession();
        }

        /** The pool asks on release: a connection holding bytes past its last response is closed, not pooled. */
        @Override
        public boolean isConsistent() {
            return delegate.isConsistent() && !LeftoverBytes.buffered(delegate);
        }

        @Override
        public void sendRequestHeader(ClassicHttpRequest request) throws HttpException, IOException {
            try {
                delegate.sendRequestHeader(request);
            } catch (IOException e) {
                throw beforeFirstAnswer(e);
            }
        }

        private IOException beforeFirstAnswer(IOException e) {
            if (!answered && !(e instanceof javax.net.ssl.SSLException)
                    && UpstreamTlsContext.clientCertificateRequested(delegate.getSSLSession())) {
                return new UpstreamTlsContext.ClientCertificateRefusedException(e);
            }
            return e;
        }

        @Override
        public void terminateRequest(ClassicHttpRequest request) throws HttpException, IOException {
            delegate.terminateRequest(request);
        }

        @Override
        public void sendRequestEntity(ClassicHttpRequest request) throws HttpException, IOException {
            try {
                delegate.sendRequestEntity(request);
            } catch (IOException e) {
                throw beforeFirstAnswer(e);
            }
        }

        @Override
        public ClassicHttpResponse receiveResponseHeader() throws HttpException, IOException {
            try {
                ClassicHttpResponse response = delegate.receiveResponseHeader();
                answered = true;
                return response;
            } catch (IOException e) {
                throw beforeFirstAnswer(e);
            }
        }

        @Override
        public void receiveResponseEntity(ClassicHttpResponse response) throws HttpException, IOException {
            delegate.receiveResponseEntity(response);
        }

        @Override
        public boolean isDataAvailable(Timeout timeout) throws IOException {
            return delegate.isDataAvailable(timeout);
        }

        @Override
        public boolean isStale() throws IOException {
            return delegate.isStale();
        }

        @Override
        public void flush() throws IOException {
            try {
                delegate.flush();
            } catch (IOException e) {
                throw beforeFirstAnswer(e);
            }
        }

        @Override
        public void close() throws IOException {
            delegate.close();
        }

        @Override
        public void close(CloseMode closeMode) {
            delegate.close(closeMode);
        }

        @Override
        public EndpointDetails getEndpointDetails() {
            return delegate.getEndpointDetails();
        }

        @Override
        public SocketAddress getLocalAddress() {
            return delegate.getLocalAddress();
        }

        @Override
        public SocketAddress getRemoteAddress() {
            return delegate.getRemoteAddress();
        }

        @Override
        public ProtocolVersion getProtocolVersion() {
            return delegate.getProtocolVersion();
        }

        @Override
        public boolean isOpen() {
            return delegate.isOpen();
        }

        @Override
        public Timeout getSocketTimeout() {
            return delegate.getSocketTimeout();
        }

        @Override
        public void setSocketTimeout(Timeout timeout) {
            delegate.setSocketTimeout(timeout);
        }

        @Override
        public String toString() {
            return delegate.toString();
        }
    }
}
