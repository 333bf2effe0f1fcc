package io.pylon.manager.portal;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.time.Duration;
import java.util.List;

/** Developer-portal settings of the Manager. */
public final class PortalSettings {
    private PortalSettings() {
    }

    public static final Setting<Boolean> AUTO_APPROVE_DEVELOPERS = Setting.of(
            "pylon.manager.portal.auto-approve-developers",
            "Whether a developer who signs up on the Portal is active at once (true) or waits for an admin (false).",
            false, SettingType.BOOLEAN);
    public static final Setting<Duration> SESSION_LIFETIME = Setting.of("pylon.manager.portal.session-lifetime",
            "How long a developer's Portal session lasts after sign-in.", Duration.ofHours(8), SettingType.DURATION_TYPE);

    public static List<Setting<?>> all() {
        return List.of(AUTO_APPROVE_DEVELOPERS, SESSION_LIFETIME);
    }
}
