package io.pylon.manager.portal;

import org.jspecify.annotations.Nullable;

import java.time.Instant;

/** A developer account of the Portal; {@code status} is {@code pending}, {@code active} or {@code disabled}. */
public record Developer(String id, String email, String passwordHash, String status, int failedAttempts,
                        @Nullable Instant lockedUntil, Instant createdAt) {

    public boolean lockedAt(Instant now) {
        return lockedUntil != null && lockedUntil.isAfter(now);
    }
}
