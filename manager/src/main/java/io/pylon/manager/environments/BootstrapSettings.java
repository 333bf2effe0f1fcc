package io.pylon.manager.environments;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.util.List;

/** The environment {@link BootstrapEnvironment} creates at start-up. */
public final class BootstrapSettings {
    private BootstrapSettings() {
    }

    public static final Setting<List<String>> ENVIRONMENT_URLS = Setting.of(
            "pylon.manager.bootstrap.environment-urls",
            "module=URL pairs (manager, worker, cache, integration, portal). When set and the environment named by "
                    + "pylon.environment.name does not exist, it is created at start-up with the ID pylon.environment.id.",
            List.of(), SettingType.LIST);

    public static final Setting<String> ENVIRONMENT_TYPE = Setting.of(
            "pylon.manager.bootstrap.environment-type",
            "Type of the environment created from pylon.manager.bootstrap.environment-urls (local, development, test, "
                    + "staging or production).", "development", SettingType.NON_EMPTY);

    public static List<Setting<?>> all() {
        return List.of(ENVIRONMENT_URLS, ENVIRONMENT_TYPE);
    }
}
