package io.pylon.manager.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Opaque tokens: a recognisable prefix (so secret scanners find leaked ones) and 256 random bits in base64url.
 * Only the SHA-256 of a token is stored; a fast hash suffices because the token itself has full entropy.
 */
public final class TokenCodec {
    public static final String ACCESS_PREFIX = "pylon_at_";
    public static final String PERSONAL_PREFIX = "pylon_pat_";
    private static final int RANDOM_BYTES = 32;
    private static final int MAX_LENGTH = 128;

    private final SecureRandom random = new SecureRandom();

    public String newAccessToken() {
        return ACCESS_PREFIX + randomPart();
    }

    public String newPersonalToken() {
        return PERSONAL_PREFIX + randomPart();
    }

    private String randomPart() {
        byte[] bytes = new byte[RANDOM_BYTES];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Whether a presented value can be one of ours at all (saves a database look-up for garbage). */
    public static boolean looksLikeToken(String value) {
        return value != null && value.length() <= MAX_LENGTH
                && (value.startsWith(ACCESS_PREFIX) || value.startsWith(PERSONAL_PREFIX));
    }

    public static String hash(String token) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
