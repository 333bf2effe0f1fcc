package io.pylon.manager.api;

import java.util.Locale;
import java.util.Optional;

/**
 * What an account may do: {@code admin} manages everything, {@code operator} also changes and deploys API proxies,
 * {@code viewer} reads. Ordered: each role may do what the ones before it may. {@code portal} stands apart: the
 * Portal's own credential, which may only act for signed-in developers (and nothing a viewer may), and which no other
 * role may use in its place.
 */
public enum Role {
    PORTAL,
    VIEWER,
    OPERATOR,
    ADMIN;

    /** Whether this role may do what {@code minimum} may. */
    public boolean allows(Role minimum) {
        if (this == PORTAL || minimum == PORTAL) {
            return this == minimum;
        }
        return compareTo(minimum) >= 0;
    }

    /** The wire form: {@code admin}, {@code operator}, {@code viewer}, {@code portal}. */
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
