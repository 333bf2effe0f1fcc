package io.pylon.cache.client;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The seal of a bundle kept in the data grid: HMAC-SHA256 keyed by the environment ID over the environment's name,
 * the version and the bundle's SHA-256. The grid authenticates nobody (docs/security.md): whoever learnt the cluster
 * name could write an entry and recompute its plain SHA-256, but only a holder of the environment ID (the Manager,
 * the environment's Workers) can seal one. A Worker checks the seal, then the hash against the bytes.
 */
public final class BundleSeal {
    private static final String CONTEXT = "pylon gateway bundle\n";

    private BundleSeal() {
    }

    public static String seal(String environmentName, String environmentId, long version, String sha256) {
        if (environmentId == null || environmentId.isEmpty()) {
            throw new IllegalArgumentException("a bundle seal needs the environment ID");
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(environmentId.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            String message = CONTEXT + environmentName + "\n" + version + "\n" + sha256.toLowerCase(Locale.ROOT);
            return HexFormat.of().formatHex(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** Whether {@code bundle}'s seal is the one this environment's ID gives its version and hash (constant time). */
    public static boolean valid(GridBundle bundle, String environmentName, String environmentId) {
        String expected = seal(environmentName, environmentId, bundle.version(), bundle.sha256());
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                bundle.seal().getBytes(StandardCharsets.US_ASCII));
    }
}
