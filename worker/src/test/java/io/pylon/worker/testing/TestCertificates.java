package io.pylon.worker.testing;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;

/** Certificates made in the test with Bouncy Castle: a CA and leaves it signs. Nothing is committed. */
public final class TestCertificates {
    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

    private TestCertificates() {
    }

    /** A key pair and its certificate. */
    public record Issued(KeyPair keys, X509Certificate certificate) {
        public String certificatePem() {
            return pem(certificate);
        }

        public String keyPem() {
            return pem(keys.getPrivate());
        }

        /** Writes {@code <name>.crt} and {@code <name>.key} into {@code dir}. */
        public void write(Path dir, String name) {
            try {
                Files.writeString(dir.resolve(name + ".crt"), certificatePem());
                Files.writeString(dir.resolve(name + ".key"), keyPem());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** A client or server context presenting this certificate and trusting {@code trusted}. */
        public SSLContext context(X509Certificate trusted) {
            try {
                KeyStore keyStore = KeyStore.getInstance("PKCS12");
                keyStore.load(null, null);
                keyStore.setKeyEntry("me", keys.getPrivate(), new char[0], new X509Certificate[]{certificate});
                KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(keyStore, new char[0]);
                SSLContext context = SSLContext.getInstance("TLS");
                context.init(kmf.getKeyManagers(), trusted == null ? null : trusting(trusted).getTrustManagers(), null);
                return context;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    public static Issued authority(String name) {
        KeyPair keys = rsa();
        return new Issued(keys, sign(name, keys, name, keys.getPrivate(), true));
    }

    /** A server (or client) leaf for localhost and 127.0.0.1, signed by {@code ca}. */
    public static Issued leaf(String name, Issued ca) {
        KeyPair keys = rsa();
        return new Issued(keys, sign(name, keys, ca.certificate().getSubjectX500Principal().getName(),
                ca.keys().getPrivate(), false));
    }

    /** A leaf for exactly these DNS names (no localhost, no address), signed by {@code ca}. */
    public static Issued leafFor(Issued ca, String... dnsNames) {
        KeyPair keys = rsa();
        GeneralName[] names = new GeneralName[dnsNames.length];
        for (int i = 0; i < dnsNames.length; i++) {
            names[i] = new GeneralName(GeneralName.dNSName, dnsNames[i]);
        }
        return new Issued(keys, sign(dnsNames[0], keys, ca.certificate().getSubjectX500Principal().getName(),
                ca.keys().getPrivate(), false, names));
    }

    /** A client context trusting only {@code ca}. */
    public static SSLContext trusting(Issued ca) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trusting(ca.certificate()).getTrustManagers(), null);
            return context;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static TrustManagerFactory trusting(X509Certificate ca) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", ca);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        return tmf;
    }

    private static KeyPair rsa() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static X509Certificate sign(String subject, KeyPair keys, String issuer, java.security.PrivateKey issuerKey,
                                        boolean ca) {
        return sign(subject, keys, issuer, issuerKey, ca, new GeneralName[]{
                new GeneralName(GeneralName.dNSName, "localhost"),
                new GeneralName(GeneralName.dNSName, subject),
                new GeneralName(GeneralName.iPAddress, "127.0.0.1")});
    }

    private static X509Certificate sign(String subject, KeyPair keys, String issuer, java.security.PrivateKey issuerKey,
                                        boolean ca, GeneralName[] names) {
        try {
            Instant now = Instant.now();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    new X500Name(issuer.contains("=") ? issuer : "CN=" + issuer),
                    BigInteger.valueOf(SERIAL.incrementAndGet()), Date.from(now.minus(Duration.ofHours(1))),
                    Date.from(now.plus(Duration.ofDays(2))), new X500Name("CN=" + subject), keys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
            if (!ca) {
                builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names));
            }
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(issuerKey)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String pem(Object object) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(object);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
