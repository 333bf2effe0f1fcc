package io.pylon.worker.listener;

import org.jspecify.annotations.Nullable;

import io.helidon.common.tls.Tls;

import javax.net.SocketFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * TLS on the Worker's listener from a PEM certificate chain and key, read again every poll ({@link #reloadIfChanged()}
 * on the maintenance executor). The files' bytes are compared with the last ones seen, so an edit in place, a rename
 * over them and a Kubernetes Secret's symlink swap are all noticed. A changed pair that is valid serves every new
 * handshake; established connections keep theirs. A broken pair (unreadable, not PEM, key not matching the
 * certificate, or a half-written update) is refused, logged once per content, and the pair in force keeps serving.
 *
 * <p>Threading: {@link #reloadIfChanged()} is synchronized (one poller); the state read by diagnostics is volatile.
 */
public final class ListenerTls {
    private static final System.Logger LOG = System.getLogger(ListenerTls.class.getName());

    private final Tls peerTls;
    private final Path certificateFile;
    private final Path keyFile;
    private final ReloadingKeyManager keys;
    private final Tls tls;
    private final SocketFactory probeSockets;
    private byte[] installed;
    private byte @Nullable [] refused;
    private volatile Instant loadedAt;
    private volatile long loads;
    private volatile @Nullable String lastError;
    private volatile @Nullable Instant lastErrorAt;

    private ListenerTls(Path certificateFile, Path keyFile, byte[] digest, PemKeyPair pair)
            throws GeneralSecurityException {
        this.certificateFile = certificateFile;
        this.keyFile = keyFile;
        this.keys = new ReloadingKeyManager(pair);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(new javax.net.ssl.KeyManager[]{keys}, null, null);
        this.tls = Tls.builder().sslContext(context).build();
        SSLContext probe = SSLContext.getInstance("TLS");
        probe.init(null, new TrustManager[]{new ServedCertificate()}, null);
        this.probeSockets = probe.getSocketFactory();
        // the module's other pods serve the same Secret and are called by address: the certificate, not a name
        this.peerTls = Tls.builder().sslContext(probe)
                .endpointIdentificationAlgorithm(Tls.ENDPOINT_IDENTIFICATION_NONE).build();
        this.installed = digest;
        this.loadedAt = Instant.now();
        this.loads = 1;
    }

    /** Reads the pair at start-up; a missing or broken pair stops the pod with the reason. */
    public static ListenerTls load(Path certificateFile, Path keyFile) throws PemKeyPair.InvalidPemException {
        byte[][] content = read(certificateFile, keyFile);
        PemKeyPair pair = parse(certificateFile, keyFile, content);
        try {
            return new ListenerTls(certificateFile, keyFile, digest(content), pair);
        } catch (GeneralSecurityException e) {
            throw new PemKeyPair.InvalidPemException("The TLS context cannot be built (" + e.getClass().getSimpleName()
                    + ")");
        }
    }

    public Tls tls() {
        return tls;
    }

    /**
     * How this pod calls the module's other pods (a diagnostics broadcast over {@code https}): it trusts exactly the
     * certificate it serves itself, as the pods of one Deployment share one Secret, without a name check (peers are
     * called by address).
     */
    public Tls peerTls() {
        return peerTls;
    }

    /** Sockets for the pod's own listener watch: they trust exactly the certificate being served. */
    public SocketFactory probeSockets() {
        return probeSockets;
    }

    /** Reads both files; returns whether a new pair is in force. */
    public synchronized boolean reloadIfChanged() {
        byte[][] content;
        try {
            content = read(certificateFile, keyFile);
        } catch (PemKeyPair.InvalidPemException e) {
            refuse(null, e.getMessage());
            return false;
        }
        byte[] digest = digest(content);
        if (Arrays.equals(digest, installed) || Arrays.equals(digest, refused)) {
            return false;
        }
        try {
            keys.use(parse(certificateFile, keyFile, content));
        } catch (PemKeyPair.InvalidPemException e) {
            refuse(digest, e.getMessage());
            return false;
        }
        installed = digest;
        refused = null;
        lastError = null;
        loadedAt = Instant.now();
        loads++;
        LOG.log(Level.INFO, "TLS certificate reloaded from " + certificateFile + ": " + subject(keys.current()));
        return true;
    }

    /** For the {@code connections} section: the files, the certificate in force, the last refusal. */
    public Map<String, Object> describe() {
        PemKeyPair pair = keys.current();
        X509Certificate leaf = pair.chain().getFirst();
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("certificateFile", certificateFile.toString());
        map.put("keyFile", keyFile.toString());
        map.put("subject", leaf.getSubjectX500Principal().getName());
        map.put("notAfter", leaf.getNotAfter().toInstant().toString());
        map.put("loadedAt", loadedAt.toString());
        map.put("loads", loads);
        map.put("lastError", lastError);
        map.put("lastErrorAt", lastErrorAt == null ? null : lastErrorAt.toString());
        return map;
    }

    private void refuse(byte @Nullable [] digest, String message) {
        String full = message + "; the certificate in force keeps serving.";
        if (!full.equals(lastError) || (digest != null && !Arrays.equals(digest, refused))) {
            LOG.log(Level.WARNING, "TLS reload refused: " + full);
        }
        if (digest != null) {
            refused = digest;
        }
        lastError = full;
        lastErrorAt = Instant.now();
    }

    private static byte[][] read(Path certificateFile, Path keyFile) throws PemKeyPair.InvalidPemException {
        try {
            return new byte[][]{Files.readAllBytes(certificateFile), Files.readAllBytes(keyFile)};
        } catch (IOException e) {
            throw new PemKeyPair.InvalidPemException("The TLS files " + certificateFile + " and " + keyFile
                    + " cannot be read (" + e.getClass().getSimpleName() + ")");
        }
    }

    private static PemKeyPair parse(Path certificateFile, Path keyFile, byte[][] content)
            throws PemKeyPair.InvalidPemException {
        return PemKeyPair.parse(content[0], content[1], "The certificate file " + certificateFile,
                "the key file " + keyFile);
    }

    // only a digest of the key file is kept between polls, never its bytes
    private static byte[] digest(byte[][] content) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(content[0]);
            sha.update((byte) 0);
            sha.update(content[1]);
            return sha.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String subject(PemKeyPair pair) {
        return pair.chain().getFirst().getSubjectX500Principal().getName();
    }

    /** Trusts the leaf certificate this listener serves now, nothing else. */
    private final class ServedCertificate implements X509TrustManager {
        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            if (chain == null || chain.length == 0 || !chain[0].equals(keys.current().chain().getFirst())) {
                throw new CertificateException("Not the certificate this listener serves");
            }
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("Client side only");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
