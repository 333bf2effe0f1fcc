package io.pylon.manager.environments;

import org.jspecify.annotations.Nullable;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;

/** Environment IDs: 24 lower-case hex digits (96 random bits). */
public final class EnvironmentIds {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern FORMAT = Pattern.compile("[0-9a-f]{24}");

    private EnvironmentIds() {
    }

    public static String generate() {
        byte[] bytes = new byte[12];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    public static boolean isValid(@Nullable String id) {
        return id != null && FORMAT.matcher(id).matches();
    }
}
