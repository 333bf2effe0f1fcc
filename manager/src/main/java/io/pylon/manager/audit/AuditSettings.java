package io.pylon.manager.audit;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.time.Duration;
import java.util.List;

/** How long the audit trail keeps its events. */
public final class AuditSettings {
    private AuditSettings() {
    }

    public static final Setting<Duration> RETENTION = Setting.of("pylon.manager.audit.retention",
            "How long audit events are kept.", Duration.ofDays(90), SettingType.DURATION_TYPE);

    public static List<Setting<?>> all() {
        return List.of(RETENTION);
    }
}
