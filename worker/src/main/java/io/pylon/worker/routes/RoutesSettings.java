package io.pylon.worker.routes;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Where the gateway's routes come from ({@link RoutesFile}) and how often they are re-read. */
public final class RoutesSettings {
    private RoutesSettings() {
    }

    public static final Setting<Path> FILE = Setting.of("pylon.worker.routes-file",
            "YAML or JSON file of the gateway's routes, reloaded when it changes. Unset: no routes (every path answers 404).",
            null, SettingType.PATH);

    public static final Setting<Duration> RELOAD_INTERVAL = Setting.of("pylon.worker.routes-reload-interval",
            "How often the routes file is checked for changes.", Duration.ofSeconds(2), SettingType.DURATION_TYPE);

    public static List<Setting<?>> all() {
        return List.of(FILE, RELOAD_INTERVAL);
    }
}
