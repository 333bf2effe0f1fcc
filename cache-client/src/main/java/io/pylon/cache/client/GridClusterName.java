package io.pylon.cache.client;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * The Hazelcast cluster name of an environment: {@code pylon-<environment name>-<12 hex of SHA-256(environment ID)>}.
 * Members and clients of two environments on one network never merge, even when both are called "local"; the
 * environment ID itself (a secret) never appears, only a one-way digest of it.
 */
public final class GridClusterName {
    private GridClusterName() {
    }

    public static String of(String environmentName, String environmentId) {
        String name = "pylon-" + environmentName.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-");
        if (environmentId == null || environmentId.isEmpty()) {
            return name;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(environmentId.getBytes(StandardCharsets.UTF_8));
            return name + "-" + HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
