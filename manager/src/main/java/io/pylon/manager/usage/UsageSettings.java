package io.pylon.manager.usage;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.time.Duration;
import java.util.List;

/** How long the Manager keeps the usage Workers report. */
public final class UsageSettings {
    private UsageSettings() {
    }

    public static final Setting<Duration> RETENTION = Setting.of("pylon.manager.usage.retention",
            "How long usage counts per application, API and minute are kept; older minutes are deleted hourly.",
            Duration.ofDays(30), SettingType.durationAtLeast(Duration.ofHours(1)));

    public static List<Setting<?>> all() {
        return List.of(RETENTION);
    }
}
