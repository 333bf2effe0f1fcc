package io.pylon.worker.keys;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Map;

/**
 * The API keys this Worker accepts, as the Manager last sent them: SHA-256 of each live key -> the status of each
 * subscription of its application. A presented key is hashed and looked up by its whole digest, so how long a lookup
 * takes says nothing about how much of a key was right. Thread-safe: an immutable snapshot behind a volatile field,
 * replaced whole.
 */
public final class KeySet {
    /** Longer values are not keys; they are refused without hashing them. */
    static final int MAX_KEY_LENGTH = 256;

    /** What the check says of a presented key for a proxy. */
    public enum Verdict { ALLOWED, UNKNOWN, NOT_SUBSCRIBED, PENDING, SUSPENDED, REVOKED, UNAVAILABLE }

    private record Snapshot(long version, Map<String, Map<String, String>> keys) {
    }

    private volatile @Nullable Snapshot snapshot;

    /** Null before the first key set arrived. */
    public @Nullable Long version() {
        Snapshot s = snapshot;
        return s == null ? null : s.version();
    }

    public int size() {
        Snapshot s = snapshot;
        return s == null ? 0 : s.keys().size();
    }

    /** Replaces the key set with the Manager's document {@code {"version", "keys": [{"hash", "subscriptions"}]}}. */
    public void replace(JsonNode document) {
        long version = document.path("version").asLong(-1);
        JsonNode keys = document.path("keys");
        if (version < 0 || !keys.isArray()) {
            throw new IllegalArgumentException("The key set has no version or no keys array");
        }
        Map<String, Map<String, String>> map = HashMap.newHashMap(keys.size());
        for (JsonNode key : keys) {
            String hash = key.path("hash").asText("");
            if (hash.length() != 64) {
                throw new IllegalArgumentException("A key set entry has no SHA-256 hash");
            }
            Map<String, String> subscriptions = new HashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = key.path("subscriptions").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                subscriptions.put(e.getKey(), e.getValue().asText());
            }
            map.put(hash, Map.copyOf(subscriptions));
        }
        snapshot = new Snapshot(version, map);
    }

    public Verdict check(String proxy, String presented) {
        Snapshot s = snapshot;
        if (s == null) {
            return Verdict.UNAVAILABLE;
        }
        if (presented.length() > MAX_KEY_LENGTH) {
            return Verdict.UNKNOWN;
        }
        Map<String, String> subscriptions = s.keys().get(sha256(presented));
        if (subscriptions == null) {
            return Verdict.UNKNOWN;
        }
        String status = subscriptions.get(proxy);
        if (status == null) {
            return Verdict.NOT_SUBSCRIBED;
        }
        return switch (status) {
            case "active" -> Verdict.ALLOWED;
            case "pending" -> Verdict.PENDING;
            case "suspended" -> Verdict.SUSPENDED;
            default -> Verdict.REVOKED;
        };
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
