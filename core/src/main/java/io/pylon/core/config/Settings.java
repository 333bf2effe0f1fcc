package io.pylon.core.config;

import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where setting values come from, highest first: overrides given in code (launcher flags, tests), Java system
 * properties ({@code -Dpylon.server.port=9000}), the properties file named by {@code pylon.config.file} /
 * {@code PYLON_CONFIG_FILE}, environment variables ({@code PYLON_SERVER_PORT}), then the setting's default.
 *
 * <p>Threading: immutable apart from the cache of parsed values, a concurrent map; any thread may read settings (two
 * threads reading one setting first may both parse it, with the same result).
 */
public final class Settings {
    public static final String CONFIG_FILE_KEY = "pylon.config.file";

    private final Map<String, String> overrides;
    private final Map<String, String> systemProperties;
    private final Map<String, String> file;
    private final Map<String, String> environment;
    private final Map<Setting<?>, Optional<?>> cache = new ConcurrentHashMap<>();

    private Settings(Map<String, String> overrides, Map<String, String> systemProperties, Map<String, String> environment) {
        this.overrides = Map.copyOf(overrides);
        this.systemProperties = Map.copyOf(systemProperties);
        this.environment = Map.copyOf(environment);
        this.file = loadFile();
    }

    /** Settings from this process: system properties, config file and environment, plus the given overrides. */
    public static Settings fromProcess(Map<String, String> overrides) {
        Map<String, String> props = new HashMap<>();
        System.getProperties().forEach((k, v) -> props.put(String.valueOf(k), String.valueOf(v)));
        return new Settings(overrides, props, System.getenv());
    }

    /** Settings from explicit maps only: what tests use, so that no machine setting leaks in. */
    public static Settings of(Map<String, String> values) {
        return new Settings(values, Map.of(), Map.of());
    }

    /** A copy with more overrides on top. */
    public Settings with(Map<String, String> more) {
        Map<String, String> merged = new HashMap<>(overrides);
        merged.putAll(more);
        return new Settings(merged, systemProperties, environment);
    }

    /**
     * The value of a setting that has a default: its value, or the default. Throws {@link InvalidSettingException} for a
     * bad value. A setting without a default is read with {@link #find}, which says it may be null; read here, an unset
     * one gives null too (a call site the static analysis has not yet moved to {@code find} keeps working rather than
     * failing the pod's start).
     */
    @SuppressWarnings("NullAway") // non-null for every setting with a default, the contract callers rely on
    public <T> T get(Setting<T> setting) {
        return find(setting);
    }

    /** The setting's value, its default, or null when it has neither. Throws {@link InvalidSettingException} for a bad value. */
    @SuppressWarnings("unchecked")
    public <T> @Nullable T find(Setting<T> setting) {
        return (T) cache.computeIfAbsent(setting, s -> Optional.ofNullable(resolve(setting))).orElse(null);
    }

    /** The raw text of a setting, if set anywhere; for the rare setting whose parsing needs context. */
    public Optional<String> raw(Setting<?> setting) {
        return Optional.ofNullable(lookup(setting.key()));
    }

    /** Whether the setting was given a value rather than left at its default. */
    public boolean isSet(Setting<?> setting) {
        return lookup(setting.key()) != null;
    }

    private <T> @Nullable T resolve(Setting<T> setting) {
        String raw = lookup(setting.key());
        if (raw == null) {
            return setting.defaultValue();
        }
        try {
            return setting.parse(raw);
        } catch (RuntimeException e) {
            String shown = setting.isSecret() ? "(hidden)" : "'" + raw + "'";
            throw new InvalidSettingException("Invalid setting " + setting.key() + " (environment variable "
                    + setting.envName() + "): " + shown + " is not " + setting.expected() + ".");
        }
    }

    private @Nullable String lookup(String key) {
        String value = overrides.get(key);
        if (value == null) {
            value = systemProperties.get(key);
        }
        if (value == null) {
            value = file.get(key);
        }
        if (value == null) {
            value = environment.get(Setting.envName(key));
        }
        return value;
    }

    private Map<String, String> loadFile() {
        String name = overrides.getOrDefault(CONFIG_FILE_KEY,
                systemProperties.getOrDefault(CONFIG_FILE_KEY, environment.get(Setting.envName(CONFIG_FILE_KEY))));
        if (name == null || name.isBlank()) {
            return Map.of();
        }
        Path path = Path.of(name);
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(path)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new InvalidSettingException("Invalid setting " + CONFIG_FILE_KEY + " (environment variable "
                    + Setting.envName(CONFIG_FILE_KEY) + "): cannot read '" + path + "' (" + e.getClass().getSimpleName() + ").");
        }
        Map<String, String> values = new HashMap<>();
        properties.forEach((k, v) -> values.put(String.valueOf(k), String.valueOf(v)));
        return values;
    }
}
