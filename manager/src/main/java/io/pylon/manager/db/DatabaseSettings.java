package io.pylon.manager.db;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.util.List;

/** Where the Manager keeps its data, how many connections one pod opens, and how writes reach the disk. */
public final class DatabaseSettings {
    private DatabaseSettings() {
    }

    public static final Setting<String> URL = Setting.of("pylon.manager.db.url",
            "JDBC URL of the Manager database (jdbc:postgresql://host:5432/pylon for production; several Manager "
                    + "replicas share it). Default: an embedded H2 file database under the data directory.",
            null, SettingType.NON_EMPTY);

    public static final Setting<String> USER = Setting.of("pylon.manager.db.user",
            "Database user.", null, SettingType.NON_EMPTY);

    public static final Setting<String> PASSWORD = Setting.secret("pylon.manager.db.password",
            "Database password (a Kubernetes Secret).", null, SettingType.STRING);

    public static final Setting<Integer> POOL_SIZE = Setting.of("pylon.manager.db.pool-size",
            "Largest number of database connections of one Manager pod.", 10, SettingType.intRange(1, 200));

    public static final Setting<Boolean> H2_SYNC = Setting.of("pylon.manager.db.h2-sync",
            "Embedded H2 only: force every committed write to the disk (fsync) before the request is answered, so "
                    + "acknowledged writes survive power loss and an OS crash, not only a killed Manager. false: "
                    + "they still survive kill -9, but a power loss may undo the last few seconds of writes.",
            true, SettingType.BOOLEAN);

    public static List<Setting<?>> all() {
        return List.of(URL, USER, PASSWORD, POOL_SIZE, H2_SYNC);
    }
}
