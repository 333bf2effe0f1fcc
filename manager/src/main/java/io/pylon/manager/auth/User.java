package io.pylon.manager.auth;

import io.pylon.manager.api.Role;
import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** An account as stored. The password hash never leaves the server: {@link #toJson(Instant)} leaves it out. */
public record User(String username, String passwordHash, Role role, boolean enabled, int failedAttempts,
                   @Nullable Instant lockedUntil, Instant createdAt, Instant updatedAt) {

    public boolean lockedAt(Instant now) {
        return lockedUntil != null && lockedUntil.isAfter(now);
    }

    public Map<String, Object> toJson(Instant now) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("username", username);
        json.put("role", role.wireName());
        json.put("enabled", enabled);
        boolean locked = lockedAt(now);
        json.put("locked", locked);
        json.put("lockedUntil", locked && lockedUntil != null ? lockedUntil.toString() : null);
        json.put("failedAttempts", failedAttempts);
        json.put("createdAt", createdAt.toString());
        json.put("updatedAt", updatedAt.toString());
        return json;
    }
}
