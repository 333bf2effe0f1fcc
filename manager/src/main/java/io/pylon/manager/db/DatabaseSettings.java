package io.pylon.manager.db;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.util.List;

/** Where the Manager keeps its data and how many connections one pod opens. */
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

    public static List<Setting<?>> all() {
        return List.of(URL, USER, PASSWORD, POOL_SIZE);
    }
}
