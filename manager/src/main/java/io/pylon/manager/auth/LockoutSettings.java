package io.pylon.manager.auth;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.time.Duration;
import java.util.List;

/** When failed logins lock an account, and for how long. */
public final class LockoutSettings {
    private LockoutSettings() {
    }

    public static final Setting<Integer> MAX_FAILURES = Setting.of("pylon.manager.auth.max-failures",
            "Consecutive failed logins after which an account is locked.", 5, SettingType.intRange(1, 1000));

    public static final Setting<Duration> LOCK_DURATION = Setting.of("pylon.manager.auth.lock-duration",
            "How long a locked account stays locked (an admin may unlock it earlier).",
            Duration.ofMinutes(15), SettingType.DURATION_TYPE);

    public static List<Setting<?>> all() {
        return List.of(MAX_FAILURES, LOCK_DURATION);
    }
}
