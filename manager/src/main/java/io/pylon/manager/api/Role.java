package io.pylon.manager.api;

import java.util.Locale;
import java.util.Optional;

/**
 * What an account may do: {@code admin} manages everything, {@code operator} also changes and deploys API proxies,
 * {@code viewer} reads. Ordered: each role may do what the ones before it may.
 */
public enum Role {
    VIEWER,
    OPERATOR,
    ADMIN;

    /** Whether this role may do what {@code minimum} may. */
    public boolean allows(Role minimum) {
        return compareTo(minimum) >= 0;
    }

    /** The wire form: {@code admin}, {@code operator}, {@code viewer}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Role> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        for (Role role : values()) {
            if (role.wireName().equals(text)) {
                return Optional.of(role);
            }
        }
        return Optional.empty();
    }
}
