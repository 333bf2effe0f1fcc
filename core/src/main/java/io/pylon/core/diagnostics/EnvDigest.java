package io.pylon.core.diagnostics;

import org.jspecify.annotations.Nullable;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Keyed hashes of environment values, so that pods can say whether their values are equal without saying what they
 * are ({@code env?digest=<nonce>}, what {@code compare} asks). A plain SHA-256 of a short secret (a 6-digit PIN, a
 * word) is reversed by trying every candidate; these hashes are HMAC-SHA256 under a key that someone who sees the
 * answer does not have: {@code HMAC-SHA256(environment ID, "pylon-compare-env:" + nonce)}. Every pod of the
 * environment has the same ID, so their hashes of equal values match; the broadcasting pod draws a fresh random nonce
 * for each comparison, so hashes from two comparisons cannot be matched with each other either. Whoever holds the
 * environment ID could recompute the key, but that caller can download a heap dump holding every secret anyway; a
 * Manager viewer, a ticket or a log line that shows the answer cannot. The variable's name is hashed with its value,
 * so equal values of different variables do not look equal.
 *
 * <p>Immutable and thread-safe: a {@link Mac} is made per call.
 */
final class EnvDigest {
    static final Pattern NONCE = Pattern.compile("[0-9a-fA-F]{16,64}");
    private static final String ALGORITHM = "HmacSHA256";

    private final byte[] secret;

    /** @param environmentId the pod's environment ID; null or empty leaves the key only the nonce's (no pod answers then) */
    EnvDigest(@Nullable String environmentId) {
        this.secret = (environmentId == null ? "" : environmentId).getBytes(StandardCharsets.UTF_8);
    }

    /** A hasher for one comparison. */
    Hasher forNonce(String nonce) {
        byte[] key = hmac(secret.length == 0 ? new byte[1] : secret,
                ("pylon-compare-env:" + nonce).getBytes(StandardCharsets.UTF_8));
        return new Hasher(key);
    }

    static final class Hasher {
        private final byte[] key;

        private Hasher(byte[] key) {
            this.key = key;
        }

        /** Hex HMAC of the name and value. */
        String hash(String name, String value) {
            return HexFormat.of().formatHex(hmac(key, (name + '\0' + value).getBytes(StandardCharsets.UTF_8)));
        }
    }

    private static byte[] hmac(byte[] key, byte[] message) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(key, ALGORITHM));
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
        }
    }
}
