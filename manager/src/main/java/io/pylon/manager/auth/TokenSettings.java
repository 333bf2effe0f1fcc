package io.pylon.manager.auth;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.time.Duration;
import java.util.List;

/** How long access tokens live and how long a pod trusts its last look-up of one. */
public final class TokenSettings {
    private TokenSettings() {
    }

    public static final Setting<Duration> LIFETIME = Setting.of("pylon.manager.token.lifetime",
            "Lifetime of an access token from POST /apiops/auth/token (its expires_in).",
            Duration.ofHours(1), SettingType.DURATION_TYPE);

    public static final Setting<Duration> CHECK_CACHE = Setting.of("pylon.manager.token.check-cache",
            "How long one pod reuses the database's answer for a Bearer token. Revocation, disabling and locking on "
                    + "the same pod take effect at once; on other replicas after at most this long. 0ms: no cache.",
            Duration.ofSeconds(2), SettingType.DURATION_TYPE);

    public static List<Setting<?>> all() {
        return List.of(LIFETIME, CHECK_CACHE);
    }
}
