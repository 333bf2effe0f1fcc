package io.pylon.manager.auth;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.util.List;

/** The administrator {@link FirstAdmin} creates in an empty database. */
public final class FirstAdminSettings {
    private FirstAdminSettings() {
    }

    public static final Setting<String> USERNAME = Setting.of("pylon.manager.admin.username",
            "Username of the first administrator, created at start-up when the database has no account.",
            "admin", SettingType.NON_EMPTY);

    public static final Setting<String> PASSWORD = Setting.secret("pylon.manager.admin.password",
            "Password of the first administrator (a Kubernetes Secret). Unset: a password is generated and printed "
                    + "once on standard output.", null, SettingType.NON_EMPTY);

    public static List<Setting<?>> all() {
        return List.of(USERNAME, PASSWORD);
    }
}
