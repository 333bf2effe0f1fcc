package io.pylon.manager.auth;

import io.pylon.manager.api.Role;
import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** A token as stored (its hash only), with the state of its account at the time it was read. */
public record StoredToken(String id, String username, Kind kind, String name, Instant createdAt, @Nullable Instant expiresAt,
                          @Nullable Instant revokedAt, Role role, boolean accountEnabled) {

    public enum Kind {
        /** From POST /apiops/auth/token. */
        ACCESS,
        /** A named Personal API Access Token. */
        PERSONAL
    }

    /**
     * Whether the token may be used now: unexpired, unrevoked, account enabled. A locked account's tokens stay usable:
     * the lock only stops password sign-in, so that anonymous wrong passwords cannot sign an admin out.
     */
    public boolean usableAt(Instant now) {
        return revokedAt == null
                && (expiresAt == null || expiresAt.isAfter(now))
                && accountEnabled;
    }

    /** The listing form of a personal token: never the value, which is not stored. */
    public Map<String, Object> toJson(Instant now) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", id);
        json.put("name", name);
        json.put("createdAt", createdAt.toString());
        json.put("expiresAt", expiresAt == null ? null : expiresAt.toString());
        json.put("expired", expiresAt != null && !expiresAt.isAfter(now));
        return json;
    }
}
