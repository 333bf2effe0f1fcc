package io.pylon.manager.proxies;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.util.List;

/** API proxy settings of the Manager. */
public final class ProxySettings {
    private ProxySettings() {
    }

    public static final Setting<List<String>> IMPORT_URL_HOSTS = Setting.of("pylon.manager.proxies.import-url-hosts",
            "Hosts (host or host:port) whose OpenAPI documents POST /apiops/proxies/import may fetch by URL. Empty: "
                    + "import by URL is off (a Manager fetching any URL it is given reaches its own network).",
            List.of(), SettingType.LIST);

    public static List<Setting<?>> all() {
        return List.of(IMPORT_URL_HOSTS);
    }
}
