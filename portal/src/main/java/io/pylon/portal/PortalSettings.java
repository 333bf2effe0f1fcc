package io.pylon.portal;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;
import io.pylon.gateway.model.TrustedProxies;

import java.net.URI;
import java.util.List;

/** Settings of the Portal pod. */
public final class PortalSettings {
    private PortalSettings() {
    }

    public static final Setting<String> ENVIRONMENT = Setting.of("pylon.portal.environment",
            "The environment whose published and deployed APIs the Portal lists (empty: pylon.environment.name).",
            null, SettingType.NON_EMPTY);
    public static final Setting<URI> MANAGER_URL = Setting.of("pylon.portal.manager-url",
            "The Manager the Portal reads and writes through (http://manager:8080). Unset: every page says the "
                    + "Portal is not connected.", null, SettingType.HTTP_URL);
    public static final Setting<String> MANAGER_USERNAME = Setting.of("pylon.portal.manager-username",
            "The Portal's own Manager account, of role 'portal' (it may only act for signed-in developers).",
            "portal", SettingType.NON_EMPTY);
    public static final Setting<String> MANAGER_PASSWORD = Setting.secret("pylon.portal.manager-password",
            "The password of the Portal's Manager account.", null, SettingType.NON_EMPTY);

    public static final Setting<TrustedProxies> TRUSTED_PROXIES = Setting.of("pylon.portal.trusted-proxies",
            "Peers (CIDR blocks: the ingress or load balancer in front of the Portal) whose X-Forwarded-For names the "
                    + "developer's address, which sign-in throttling counts per. Unset: the connection's own address.",
            null, TrustedProxies.SETTING_TYPE);

    public static List<Setting<?>> all() {
        return List.of(ENVIRONMENT, MANAGER_URL, MANAGER_USERNAME, MANAGER_PASSWORD, TRUSTED_PROXIES);
    }
}
