package io.pylon.worker.keys;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * The API keys this Worker accepts, as the Manager last sent them: SHA-256 of each live key -> its application, the
 * status of each subscription of that application and the plan of those that have one. A presented key is hashed and
 * looked up by its whole digest, so how long a lookup takes says nothing about how much of a key was right; keys found
 * lately are kept per key set in {@link RecentKeys} (bounded, compared over their whole length), so a key in use is
 * not hashed on every request. Thread-safe: an immutable snapshot behind a volatile field,
 * replaced whole.
 */
public final class KeySet {
    /** Longer values are not keys; they are refused without hashing them. */
    static final int MAX_KEY_LENGTH = 256;

    /** What the check says of a presented key for a proxy. */
    public enum Verdict { ALLOWED, UNKNOWN, NOT_SUBSCRIBED, PENDING, SUSPENDED, REVOKED, UNAVAILABLE }

    /** A subscription's plan: {@code requests} per {@code window}, counted per application and proxy. */
    public record Plan(String name, int requests, Duration window) {
    }

    /**
     * What the check found: the verdict, and for a known key its application and, when the verdict is
     * {@link Verdict#ALLOWED} and the subscription has one, its plan.
     */
    public record Check(Verdict verdict, @Nullable String application, @Nullable Plan plan) {
        static final Check UNAVAILABLE = new Check(Verdict.UNAVAILABLE, null, null);
        static final Check UNKNOWN = new Check(Verdict.UNKNOWN, null, null);
    }

    /**
     * A live key: its application and the check for each proxy its application subscribed to, decided when the key set
     * arrives so that a request allocates nothing to learn it.
     */
    private record Key(Map<String, Check> checks, Check notSubscribed) {
        static Key of(String application, Map<String, String> subscriptions, Map<String, Plan> plans) {
            Map<String, Check> checks = HashMap.newHashMap(subscriptions.size());
            subscriptions.forEach((proxy, status) -> checks.put(proxy, switch (status) {
                case "active" -> new Check(Verdict.ALLOWED, application, plans.get(proxy));
                case "pending" -> new Check(Verdict.PENDING, application, null);
                case "suspended" -> new Check(Verdict.SUSPENDED, application, null);
                default -> new Check(Verdict.REVOKED, application, null);
            }));
            return new Key(Map.copyOf(checks), new Check(Verdict.NOT_SUBSCRIBED, application, null));
        }
    }

    /** @param portalOrigin the origin of this environment's Portal, null when it names none */
    private record Snapshot(long version, Map<String, Key> keys, Set<String> published,
                            @Nullable String portalOrigin, RecentKeys<Key> recent) {
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

    /** Replaces the key set with the Manager's document, for no particular environment (no Portal origin). */
    public void replace(JsonNode document) {
        replace(document, null);
    }

    /**
     * Replaces the key set with the Manager's document {@code {"version", "keys": [{"hash", "application",
     * "subscriptions", "plans"}], "plans": {name: {"requests", "per"}}, "portal": {"published": [proxy], "origins":
     * {environment: origin}}}}; {@code environment} picks the Portal origin this Worker admits on published proxies.
     */
    public void replace(JsonNode document, @Nullable String environment) {
        long version = document.path("version").asLong(-1);
        JsonNode keys = document.path("keys");
        if (version < 0 || !keys.isArray()) {
            throw new IllegalArgumentException("The key set has no version or no keys array");
        }
        Map<String, Plan> plans = plans(document.path("plans"));
        Map<String, Key> map = HashMap.newHashMap(keys.size());
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
            Map<String, Plan> keyPlans = new HashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = key.path("plans").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                Plan plan = plans.get(e.getValue().asText());
                if (plan == null) {
                    throw new IllegalArgumentException("A key set entry names an undefined plan");
                }
                keyPlans.put(e.getKey(), plan);
            }
            map.put(hash, Key.of(key.path("application").asText(""), subscriptions, keyPlans));
        }
        Set<String> published = new HashSet<>();
        document.path("portal").path("published").forEach(p -> published.add(p.asText()));
        JsonNode origin = environment == null ? null : document.path("portal").path("origins").get(environment);
        snapshot = new Snapshot(version, map, Set.copyOf(published),
                origin == null || !origin.isTextual() ? null : origin.asText(), new RecentKeys<>());
    }

    /** The Portal origin a published proxy admits for "Try it", or null (not published, or no Portal). */
    public @Nullable String portalOrigin(String proxy) {
        Snapshot s = snapshot;
        return s == null || s.portalOrigin() == null || !s.published().contains(proxy) ? null : s.portalOrigin();
    }

    private static Map<String, Plan> plans(JsonNode plans) {
        Map<String, Plan> map = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = plans.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            int requests = e.getValue().path("requests").asInt(0);
            Duration window = switch (e.getValue().path("per").asText("")) {
                case "second" -> Duration.ofSeconds(1);
                case "minute" -> Duration.ofMinutes(1);
                default -> null;
            };
            if (requests < 1 || window == null) {
                throw new IllegalArgumentException("Plan '" + e.getKey() + "' has no requests or per");
            }
            map.put(e.getKey(), new Plan(e.getKey(), requests, window));
        }
        return map;
    }

    public Check check(String proxy, String presented) {
        Snapshot s = snapshot;
        if (s == null) {
            return Check.UNAVAILABLE;
        }
        if (presented.length() > MAX_KEY_LENGTH) {
            return Check.UNKNOWN;
        }
        Key key = s.recent().get(presented);
        if (key == null) {
            key = s.keys().get(sha256(presented));
            if (key == null) {
                return Check.UNKNOWN;
            }
            s.recent().remember(presented, key);
        }
        Check check = key.checks().get(proxy);
        return check == null ? key.notSubscribed() : check;
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
