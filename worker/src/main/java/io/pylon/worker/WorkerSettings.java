package io.pylon.worker;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** The Worker's own settings. Per-route values in the routes file override the upstream defaults here. */
public final class WorkerSettings {
    private WorkerSettings() {
    }

    public static final Setting<Path> ROUTES_FILE = Setting.of("pylon.worker.routes-file",
            "YAML or JSON file of the gateway's routes, reloaded when it changes. Unset: no routes (every path answers 404).",
            null, SettingType.PATH);

    public static final Setting<Duration> ROUTES_RELOAD_INTERVAL = Setting.of("pylon.worker.routes-reload-interval",
            "How often the routes file is checked for changes.", Duration.ofSeconds(2), SettingType.DURATION_TYPE);

    public static final Setting<Integer> UPSTREAM_MAX_TOTAL = Setting.of("pylon.worker.upstream.max-total",
            "Most connections one upstream's pool holds (leased plus idle).", 200, SettingType.intRange(1, 100_000));

    public static final Setting<Integer> UPSTREAM_MAX_PER_ROUTE = Setting.of("pylon.worker.upstream.max-per-route",
            "Most connections one upstream's pool holds per HTTP route (host and port); the lower of this and max-total applies.",
            200, SettingType.intRange(1, 100_000));

    public static final Setting<Duration> UPSTREAM_CONNECT_TIMEOUT = Setting.of("pylon.worker.upstream.connect-timeout",
            "Default time to open a connection to an upstream (a route's connectTimeout overrides it); beyond it: 504.",
            Duration.ofSeconds(2), SettingType.DURATION_TYPE);

    public static final Setting<Duration> UPSTREAM_RESPONSE_TIMEOUT = Setting.of("pylon.worker.upstream.response-timeout",
            "Default time an upstream may stay silent while answering (a route's responseTimeout overrides it); beyond it: 504.",
            Duration.ofSeconds(30), SettingType.DURATION_TYPE);

    public static final Setting<Duration> UPSTREAM_LEASE_TIMEOUT = Setting.of("pylon.worker.upstream.lease-timeout",
            "How long a request waits for a free connection of a full upstream pool; beyond it: 503.",
            Duration.ofSeconds(5), SettingType.DURATION_TYPE);

    public static final Setting<Duration> UPSTREAM_IDLE_TIMEOUT = Setting.of("pylon.worker.upstream.idle-timeout",
            "Idle upstream connections older than this are closed.", Duration.ofSeconds(30), SettingType.DURATION_TYPE);

    public static final Setting<Duration> UPSTREAM_FAILURE_COOLDOWN = Setting.of("pylon.worker.upstream.failure-cooldown",
            "How long an upstream that refused or reset a connection is skipped by round robin, unless a re-check finds it back earlier.",
            Duration.ofSeconds(10), SettingType.DURATION_TYPE);

    public static final Setting<Duration> UPSTREAM_RECHECK_INTERVAL = Setting.of("pylon.worker.upstream.recheck-interval",
            "How often upstreams that failed are probed with a TCP connect, to take them back before the cool-down ends.",
            Duration.ofSeconds(2), SettingType.DURATION_TYPE);

    public static final Setting<Duration> RATE_LIMIT_TIMEOUT = Setting.of("pylon.worker.rate-limit.timeout",
            "Longest a request waits for the Cache's rate-limit counter; beyond it the route's onCacheUnavailable applies.",
            Duration.ofMillis(250), SettingType.DURATION_TYPE);

    public static List<Setting<?>> all() {
        return List.of(ROUTES_FILE, ROUTES_RELOAD_INTERVAL, UPSTREAM_MAX_TOTAL, UPSTREAM_MAX_PER_ROUTE,
                UPSTREAM_CONNECT_TIMEOUT, UPSTREAM_RESPONSE_TIMEOUT, UPSTREAM_LEASE_TIMEOUT, UPSTREAM_IDLE_TIMEOUT,
                UPSTREAM_FAILURE_COOLDOWN, UPSTREAM_RECHECK_INTERVAL, RATE_LIMIT_TIMEOUT);
    }
}
