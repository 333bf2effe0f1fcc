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
            "Consecutive failed logins to an account, from all addresses and replicas, after which its password "
                    + "sign-in is locked (its tokens keep working). Above pylon.manager.signin.account-source-max-failures, "
                    + "so that one address alone cannot lock an account.", 20, SettingType.intRange(1, 1000));

    public static final Setting<Duration> LOCK_DURATION = Setting.of("pylon.manager.auth.lock-duration",
            "How long a locked account refuses password sign-in (an admin may unlock it earlier).",
            Duration.ofMinutes(15), SettingType.DURATION_TYPE);

    public static List<Setting<?>> all() {
        return List.of(MAX_FAILURES, LOCK_DURATION);
    }
}
