package io.pylon.manager.api;

import java.util.Locale;
import java.util.Optional;

/** What an account may do: {@code admin} manages everything, {@code viewer} reads. */
public enum Role {
    VIEWER,
    ADMIN;

    /** Whether this role may do what {@code minimum} may. */
    public boolean allows(Role minimum) {
        return compareTo(minimum) >= 0;
    }

    /** The wire form: {@code admin}, {@code viewer}. */
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
