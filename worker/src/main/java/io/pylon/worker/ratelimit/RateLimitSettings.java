package io.pylon.worker.ratelimit;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.time.Duration;
import java.util.List;

/** How long rate limiting waits for the Cache ({@link GridRateLimiter}). */
public final class RateLimitSettings {
    private RateLimitSettings() {
    }

    public static final Setting<Duration> TIMEOUT = Setting.of("pylon.worker.rate-limit.timeout",
            "Longest a request waits for the Cache's rate-limit counter; beyond it the route's onCacheUnavailable applies.",
            Duration.ofMillis(250), SettingType.DURATION_TYPE);

    public static List<Setting<?>> all() {
        return List.of(TIMEOUT);
    }
}
