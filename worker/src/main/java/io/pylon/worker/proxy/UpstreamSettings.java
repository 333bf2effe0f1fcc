package io.pylon.worker.proxy;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.time.Duration;
import java.util.List;

/** The upstream connection pools and their defaults; per-route values in the routes file override the timeouts. */
public final class UpstreamSettings {
    private UpstreamSettings() {
    }

    public static final Setting<Integer> MAX_TOTAL = Setting.of("pylon.worker.upstream.max-total",
            "Most connections one upstream's pool holds (leased plus idle).", 200, SettingType.intRange(1, 100_000));

    public static final Setting<Integer> MAX_PER_ROUTE = Setting.of("pylon.worker.upstream.max-per-route",
            "Most connections one upstream's pool holds per HTTP route (host and port); the lower of this and max-total applies."
                    + " For an HTTP/2 upstream: most requests in flight on its connection.",
            200, SettingType.intRange(1, 100_000));

    public static final Setting<Duration> CONNECT_TIMEOUT = Setting.of("pylon.worker.upstream.connect-timeout",
            "Default time to open a connection to an upstream (a route's connectTimeout overrides it); beyond it: 504.",
            Duration.ofSeconds(2), SettingType.DURATION_TYPE);

    public static final Setting<Duration> RESPONSE_TIMEOUT = Setting.of("pylon.worker.upstream.response-timeout",
            "Default time an upstream may stay silent while answering (a route's responseTimeout overrides it); beyond it: 504.",
            Duration.ofSeconds(30), SettingType.DURATION_TYPE);

    public static final Setting<Duration> LEASE_TIMEOUT = Setting.of("pylon.worker.upstream.lease-timeout",
            "How long a request waits for a free connection of a full upstream pool; beyond it: 503.",
            Duration.ofSeconds(5), SettingType.DURATION_TYPE);

    public static final Setting<Duration> IDLE_TIMEOUT = Setting.of("pylon.worker.upstream.idle-timeout",
            "Idle upstream connections older than this are closed.", Duration.ofSeconds(30), SettingType.DURATION_TYPE);

    public static final Setting<Duration> FAILURE_COOLDOWN = Setting.of("pylon.worker.upstream.failure-cooldown",
            "How long an upstream that refused or reset a connection is skipped by round robin, unless a re-check finds it back earlier.",
            Duration.ofSeconds(10), SettingType.DURATION_TYPE);

    public static final Setting<Duration> RECHECK_INTERVAL = Setting.of("pylon.worker.upstream.recheck-interval",
            "How often upstreams that failed are probed with a TCP connect, to take them back before the cool-down ends.",
            Duration.ofSeconds(2), SettingType.DURATION_TYPE);

    public static List<Setting<?>> all() {
        return List.of(MAX_TOTAL, MAX_PER_ROUTE, CONNECT_TIMEOUT, RESPONSE_TIMEOUT, LEASE_TIMEOUT, IDLE_TIMEOUT,
                FAILURE_COOLDOWN, RECHECK_INTERVAL);
    }
}
