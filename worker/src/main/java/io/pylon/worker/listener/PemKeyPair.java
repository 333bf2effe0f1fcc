package io.pylon.worker.listener;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMException;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

/**
 * A certificate chain and its private key read from PEM text (what a Kubernetes TLS Secret holds as {@code tls.crt}
 * and {@code tls.key}), checked to belong together. Immutable.
 */
public record PemKeyPair(List<X509Certificate> chain, PrivateKey key) {

    /** Thrown with a message naming what is wrong with the files, never their content. */
    public static final class InvalidPemException extends Exception {
        public InvalidPemException(String message) {
            super(message);
        }

        /** The message it was built with (never null, unlike a throwable's in general). */
        @Override
        public String getMessage() {
            return java.util.Objects.requireNonNull(super.getMessage());
        }
    }

    /** Certificates in the order of the PEM text (leaf first); at least one. */
    public static List<X509Certificate> certificates(byte[] pem, String what) throws InvalidPemException {
        List<X509Certificate> chain = new ArrayList<>();
        JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
        try (PEMParser parser = parser(pem)) {
            Object item;
            while ((item = parser.readObject()) != null) {
                if (item instanceof X509CertificateHolder holder) {
                    chain.add(converter.getCertificate(holder));
                }
            }
        } catch (IOException | CertificateException e) {
            throw new InvalidPemException(what + " is not valid PEM certificate text");
        }
        if (chain.isEmpty()) {
            throw new InvalidPemException(what + " holds no certificate");
        }
        return List.copyOf(chain);
    }

    /** The first private key of the PEM text (PKCS#8 {@code PRIVATE KEY}, or PKCS#1 / SEC1 key pairs). */
    public static PrivateKey privateKey(byte[] pem, String what) throws InvalidPemException {
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        try (PEMParser parser = parser(pem)) {
            Object item;
            while ((item = parser.readObject()) != null) {
                if (item instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
                if (item instanceof PEMKeyPair pair) {
                    return converter.getKeyPair(pair).getPrivate();
                }
            }
        } catch (PEMException e) {
            throw new InvalidPemException(what + " holds a private key of an unsupported kind");
        } catch (IOException e) {
            throw new InvalidPemException(what + " is not valid PEM key text");
        }
        throw new InvalidPemException(what + " holds no unencrypted private key");
    }

    /** Reads both and checks that the key signs what the leaf certificate's public key verifies. */
    public static PemKeyPair parse(byte[] certificatePem, byte[] keyPem, String certificateName, String keyName)
            throws InvalidPemException {
        List<X509Certificate> chain = certificates(certificatePem, certificateName);
        PrivateKey key = privateKey(keyPem, keyName);
        if (!matches(chain.getFirst(), key)) {
            throw new InvalidPemException(keyName + " is not the private key of the first certificate in "
                    + certificateName);
        }
        return new PemKeyPair(chain, key);
    }

    private static boolean matches(X509Certificate certificate, PrivateKey key) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC", "ECDSA" -> "SHA256withECDSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            default -> null;
        };
        if (algorithm == null) {
            return false;
        }
        byte[] probe = "pylon-key-check".getBytes(StandardCharsets.US_ASCII);
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(probe);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static PEMParser parser(byte[] pem) {
        return new PEMParser(new InputStreamReader(new ByteArrayInputStream(pem), StandardCharsets.US_ASCII));
    }
}
