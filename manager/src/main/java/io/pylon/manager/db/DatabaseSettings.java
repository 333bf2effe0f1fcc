package io.pylon.manager.db;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.util.List;

/** Settings of the Manager's database that concern how it stores data, not where it is. */
public final class DatabaseSettings {
    private DatabaseSettings() {
    }

    public static final Setting<Boolean> H2_SYNC = Setting.of("pylon.manager.db.h2-sync",
            "Embedded H2 only: force every committed write to the disk (fsync) before the request is answered, so "
                    + "acknowledged writes survive power loss and an OS crash, not only a killed Manager. false: "
                    + "they still survive kill -9, but a power loss may undo the last few seconds of writes.",
            true, SettingType.BOOLEAN);

    public static List<Setting<?>> all() {
        return List.of(H2_SYNC);
    }
}
