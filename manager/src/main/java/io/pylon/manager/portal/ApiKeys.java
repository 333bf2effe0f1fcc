package io.pylon.manager.portal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * API keys and session tokens: 256 random bits from {@link SecureRandom}, base64url, behind a recognisable prefix;
 * stored only as their SHA-256 (hex). Thread-safe ({@link SecureRandom} is).
 */
public final class ApiKeys {
    public static final String KEY_PREFIX = "pylon_key_";
    /** Characters of a key kept for display: the prefix plus four random characters. */
    public static final int DISPLAY_LENGTH = KEY_PREFIX.length() + 4;
    private static final SecureRandom RANDOM = new SecureRandom();

    private ApiKeys() {
    }

    public static String newKey() {
        return KEY_PREFIX + random(32);
    }

    public static String random(int bytes) {
        byte[] value = new byte[bytes];
        RANDOM.nextBytes(value);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(value);
    }

    public static String display(String key) {
        return key.substring(0, DISPLAY_LENGTH);
    }

    public static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
