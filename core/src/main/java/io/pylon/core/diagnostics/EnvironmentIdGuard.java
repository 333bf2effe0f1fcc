package io.pylon.core.diagnostics;

import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Whether a caller presented this pod's environment ID. The comparison takes the same time wherever the first
 * difference is ({@link MessageDigest#isEqual}), so response times do not reveal how much of a guess was right.
 * A pod without an ID refuses everyone.
 */
public final class EnvironmentIdGuard {
    private final byte @Nullable [] expected;

    public EnvironmentIdGuard(@Nullable String environmentId) {
        this.expected = environmentId == null ? null : environmentId.getBytes(StandardCharsets.UTF_8);
    }

    public boolean configured() {
        return expected != null;
    }

    public boolean accepts(@Nullable String presented) {
        if (expected == null || presented == null) {
            return false;
        }
        return MessageDigest.isEqual(expected, presented.getBytes(StandardCharsets.UTF_8));
    }
}
