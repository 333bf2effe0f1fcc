package io.pylon.core.config;

import org.jspecify.annotations.Nullable;

import java.util.Objects;
import java.util.function.Function;

/**
 * One typed setting: a dotted key ({@code pylon.server.port}), the environment variable that carries it
 * ({@code PYLON_SERVER_PORT}), how to parse it, its default and what it is for.
 *
 * @param <T> the type of the value
 */
public final class Setting<T> {
    private final String key;
    private final String description;
    private final @Nullable T defaultValue;
    private final String expected;
    private final Function<String, T> parser;
    private final boolean secret;

    private Setting(String key, String description, @Nullable T defaultValue, String expected, Function<String, T> parser, boolean secret) {
        this.key = Objects.requireNonNull(key);
        this.description = Objects.requireNonNull(description);
        this.defaultValue = defaultValue;
        this.expected = Objects.requireNonNull(expected);
        this.parser = Objects.requireNonNull(parser);
        this.secret = secret;
    }

    public static <T> Setting<T> of(String key, String description, @Nullable T defaultValue, SettingType<T> type) {
        return new Setting<>(key, description, defaultValue, type.expected(), type::parse, false);
    }

    /** A setting whose value is never shown: not in errors, not in logs, not in diagnostics. */
    public static <T> Setting<T> secret(String key, String description, @Nullable T defaultValue, SettingType<T> type) {
        return new Setting<>(key, description, defaultValue, type.expected(), type::parse, true);
    }

    public String key() {
        return key;
    }

    /** {@code pylon.server.port} is {@code PYLON_SERVER_PORT}. */
    public String envName() {
        return envName(key);
    }

    static String envName(String key) {
        return key.toUpperCase(java.util.Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    public String description() {
        return description;
    }

    public @Nullable T defaultValue() {
        return defaultValue;
    }

    /** What a valid value looks like, for error messages and the README table. */
    public String expected() {
        return expected;
    }

    public boolean isSecret() {
        return secret;
    }

    T parse(String raw) {
        return parser.apply(raw.strip());
    }

    @Override
    public String toString() {
        return key;
    }
}
