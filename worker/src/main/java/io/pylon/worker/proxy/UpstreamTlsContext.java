package io.pylon.worker.proxy;

import io.pylon.gateway.model.UpstreamTls;
import io.pylon.worker.listener.PemKeyPair;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.HttpsSupport;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.jspecify.annotations.Nullable;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509KeyManager;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;

/**
 * One proxy {@code upstreamTls} setting made usable: the SSL context built from its files (the trusted authorities,
 * the client certificate and key), how the name sent as SNI and checked against the upstream's certificate is chosen,
 * and whether anything is checked. Pools of {@code https://} upstreams connect through {@link #strategy()}; WebSocket
 * handshakes and health checks through {@link #handshake}. {@link #reloadIfChanged()} reads the files again (a
 * rotated client certificate or CA bundle serves the next new connection; pooled ones keep their session).
 *
 * <p>Threading: request threads use the material in force concurrently (an immutable value in a volatile field);
 * only the maintenance executor's reload replaces it, under this object's monitor.
 */
public final class UpstreamTlsContext {
    private static final System.Logger LOG = System.getLogger(UpstreamTlsContext.class.getName());
    private static final String CERTIFICATE_REQUESTED = "pylon.client-certificate-requested";

    private final UpstreamTls settings;
    private volatile Material material;
    private @Nullable String lastError;

    /** An SSL context and the HttpClient strategy built on it, from files whose bytes hash to {@code sha256}. */
    private record Material(SSLContext context, DefaultClientTlsStrategy strategy, byte[] sha256) {
    }

    /**
     * The upstream asked for a client certificate in the handshake and then closed the connection before answering
     * the first request. Under TLS 1.3 a server checks the client's certificate after the client finished its side of
     * the handshake, so its refusal (an alert, then a close) reaches the client while it writes its request, often as
     * a broken pipe with the alert unread: this is that refusal, named.
     */
    static final class ClientCertificateRefusedException extends SSLException {
        ClientCertificateRefusedException(IOException cause) {
            super("the upstream asked for a client certificate and closed the connection after the handshake", cause);
        }
    }

    /** Whether the handshake of {@code session} had the upstream ask for a client certificate. */
    static boolean clientCertificateRequested(@Nullable SSLSession session) {
        return session != null && Boolean.TRUE.equals(session.getValue(CERTIFICATE_REQUESTED));
    }

    /** The files cannot make a context; the message names the field and what is wrong, never the content. */
    public static final class InvalidTlsFilesException extends Exception {
        private final String field;

        InvalidTlsFilesException(String field, String message) {
            super(message);
            this.field = field;
        }

        /** The message it was built with (never null, unlike a throwable's in general). */
        @Override
        public String getMessage() {
            return java.util.Objects.requireNonNull(super.getMessage());
        }

        /** {@code upstreamTls.caFile}, {@code upstreamTls.certificateFile}...: the field whose file is at fault. */
        public String field() {
            return field;
        }
    }

    private UpstreamTlsContext(UpstreamTls settings, Material material) {
        this.settings = settings;
        this.material = material;
    }

    /** Reads the setting's files and builds its context. */
    public static UpstreamTlsContext load(UpstreamTls settings) throws InvalidTlsFilesException {
        return new UpstreamTlsContext(settings, build(settings));
    }

    public UpstreamTls settings() {
        return settings;
    }

    /** The strategy an HttpClient pool upgrades its sockets with: this context, the chosen name, its checks. */
    TlsSocketStrategy strategy() {
        return this::upgrade;
    }

    /** The strategy an HTTP/2 upstream's connections are made with: the same context, name and checks, ALPN h2. */
    Http2TlsStrategy http2Strategy() {
        return new Http2TlsStrategy(() -> material.strategy(), this::name);
    }

    private SSLSocket upgrade(Socket socket, String target, int port, Object attachment, HttpContext context)
            throws IOException {
        return material.strategy().upgrade(socket, name(target), port, attachment, context);
    }

    /** The name sent as SNI and checked: the setting's {@code serverName}, or the upstream's host. */
    String name(String host) {
        String serverName = settings.serverName();
        return serverName != null ? serverName : host;
    }

    /**
     * Layers TLS over a connected socket and completes the handshake within the socket's read timeout, offering
     * {@code protocols} by ALPN (none when empty).
     */
    SSLSocket handshake(Socket plain, String host, int port, String... protocols) throws IOException {
        SSLSocket tls = (SSLSocket) material.context().getSocketFactory().createSocket(plain, name(host), port, true);
        SSLParameters parameters = tls.getSSLParameters();
        if (settings.verify()) {
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
        }
        if (protocols.length > 0) {
            parameters.setApplicationProtocols(protocols);
        }
        tls.setSSLParameters(parameters);
        tls.startHandshake();
        return tls;
    }

    /** {@link #handshake} with the JDK's default context, verified, for upstreams without {@code upstreamTls}. */
    static SSLSocket handshakeDefault(Socket plain, String host, int port, String... protocols) throws IOException {
        SSLSocket tls = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault()).createSocket(plain, host, port,
                true);
        SSLParameters parameters = tls.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        if (protocols.length > 0) {
            parameters.setApplicationProtocols(protocols);
        }
        tls.setSSLParameters(parameters);
        tls.startHandshake();
        return tls;
    }

    /** Reads the files again; a valid change serves new connections, a broken one is logged once and not used. */
    public synchronized void reloadIfChanged() {
        byte[] hash;
        try {
            hash = hash(settings);
        } catch (InvalidTlsFilesException e) {
            refuse(e);
            return;
        }
        if (Arrays.equals(hash, material.sha256())) {
            return;
        }
        try {
            material = build(settings);
            lastError = null;
            LOG.log(Level.INFO, "Upstream TLS files reloaded (" + describe() + ")");
        } catch (InvalidTlsFilesException e) {
            refuse(e);
        }
    }

    private void refuse(InvalidTlsFilesException e) {
        if (!e.getMessage().equals(lastError)) {
            lastError = e.getMessage();
            LOG.log(Level.WARNING, "Upstream TLS files not reloaded, the ones in force stay: " + e.getMessage());
        }
    }

    /** The files and switches, for logs and diagnostics (paths only, never content). */
    public String describe() {
        return "caFile=" + (settings.caFile() == null ? "(JDK trust store)" : settings.caFile())
                + (settings.certificateFile() == null ? "" : ", certificateFile=" + settings.certificateFile())
                + (settings.serverName() == null ? "" : ", serverName=" + settings.serverName())
                + ", verify=" + settings.verify();
    }

    private static Material build(UpstreamTls settings) throws InvalidTlsFilesException {
        byte[] hash = hash(settings);
        TrustManager[] trust = settings.verify() ? trustManagers(settings.caFile()) : new TrustManager[]{TRUST_ANY};
        try {
            KeyManager[] keys = new KeyManager[]{new NotingKeyManager(keyManager(settings))};
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys, trust, null);
            DefaultClientTlsStrategy strategy = settings.verify()
                    ? new DefaultClientTlsStrategy(context, HostnameVerificationPolicy.BOTH,
                            HttpsSupport.getDefaultHostnameVerifier())
                    : new DefaultClientTlsStrategy(context, HostnameVerificationPolicy.CLIENT, NoopHostnameVerifier.INSTANCE);
            return new Material(context, strategy, hash);
        } catch (GeneralSecurityException e) {
            throw new InvalidTlsFilesException("upstreamTls", "no TLS context can be made (" + e.getClass().getSimpleName() + ")");
        }
    }

    private static TrustManager @Nullable [] trustManagers(@Nullable String caFile) throws InvalidTlsFilesException {
        if (caFile == null) {
            return null; // the JDK's default trust store
        }
        String field = "upstreamTls.caFile";
        List<X509Certificate> authorities = certificates(read(caFile, field), field, caFile);
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            for (int i = 0; i < authorities.size(); i++) {
                store.setCertificateEntry("ca-" + i, authorities.get(i));
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            return factory.getTrustManagers();
        } catch (GeneralSecurityException | IOException e) {
            throw new InvalidTlsFilesException(field, "the file " + caFile + " cannot be used as trusted authorities ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    private static @Nullable X509KeyManager keyManager(UpstreamTls settings) throws InvalidTlsFilesException {
        String certificateFile = settings.certificateFile();
        String keyFile = settings.keyFile();
        if (certificateFile == null || keyFile == null) {
            return null;
        }
        PemKeyPair pair;
        try {
            pair = PemKeyPair.parse(read(certificateFile, "upstreamTls.certificateFile"),
                    read(keyFile, "upstreamTls.keyFile"), "the file " + certificateFile, "the file " + keyFile);
        } catch (PemKeyPair.InvalidPemException e) {
            String field = e.getMessage().startsWith("the file " + keyFile) ? "upstreamTls.keyFile"
                    : "upstreamTls.certificateFile";
            throw new InvalidTlsFilesException(field, e.getMessage());
        }
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("client", pair.key(), new char[0], pair.chain().toArray(new X509Certificate[0]));
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, new char[0]);
            return (X509KeyManager) factory.getKeyManagers()[0];
        } catch (GeneralSecurityException | IOException e) {
            throw new InvalidTlsFilesException("upstreamTls.certificateFile", "the client certificate cannot be used ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    private static List<X509Certificate> certificates(byte[] pem, String field, String file)
            throws InvalidTlsFilesException {
        try {
            return PemKeyPair.certificates(pem, "the file " + file);
        } catch (PemKeyPair.InvalidPemException e) {
            throw new InvalidTlsFilesException(field, e.getMessage());
        }
    }

    private static byte[] read(String file, String field) throws InvalidTlsFilesException {
        try {
            return Files.readAllBytes(Path.of(file));
        } catch (IOException | SecurityException e) {
            throw new InvalidTlsFilesException(field, "the file " + file + " cannot be read ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    private static byte[] hash(UpstreamTls settings) throws InvalidTlsFilesException {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (String[] file : new String[][]{{settings.caFile(), "upstreamTls.caFile"},
                    {settings.certificateFile(), "upstreamTls.certificateFile"}, {settings.keyFile(), "upstreamTls.keyFile"}}) {
                if (file[0] != null) {
                    digest.update(read(file[0], file[1]));
                }
                digest.update((byte) 0);
            }
            return digest.digest();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The client certificate (if any) of a context, noting in the handshake session that the upstream asked for one,
     * so that a close right after the handshake can be told apart from any other ({@link
     * ClientCertificateRefusedException}).
     */
    private static final class NotingKeyManager extends X509ExtendedKeyManager {
        private final @Nullable X509KeyManager delegate;

        NotingKeyManager(@Nullable X509KeyManager delegate) {
            this.delegate = delegate;
        }

        @Override
        public @Nullable String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            if (socket instanceof SSLSocket tls && tls.getHandshakeSession() != null) {
                tls.getHandshakeSession().putValue(CERTIFICATE_REQUESTED, Boolean.TRUE);
            }
            return delegate == null ? null : delegate.chooseClientAlias(keyType, issuers, socket);
        }

        @Override
        public @Nullable String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return delegate instanceof X509ExtendedKeyManager extended
                    ? extended.chooseEngineClientAlias(keyType, issuers, engine) : null;
        }

        @Override
        public String @Nullable [] getClientAliases(String keyType, Principal[] issuers) {
            return delegate == null ? null : delegate.getClientAliases(keyType, issuers);
        }

        @Override
        public String @Nullable [] getServerAliases(String keyType, Principal[] issuers) {
            return null;
        }

        @Override
        public @Nullable String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return null;
        }

        @Override
        public X509Certificate @Nullable [] getCertificateChain(String alias) {
            return delegate == null ? null : delegate.getCertificateChain(alias);
        }

        @Override
        public @Nullable PrivateKey getPrivateKey(String alias) {
            return delegate == null ? null : delegate.getPrivateKey(alias);
        }
    }

    // verify: false, chosen explicitly per proxy and logged when loaded: any certificate is accepted
    private static final X509ExtendedTrustManager TRUST_ANY = new X509ExtendedTrustManager() {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    };
}
