package io.pylon.cache.client;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;
import io.pylon.core.config.Settings;

import java.time.Duration;
import java.util.List;

/** Settings of a grid client (Worker, Manager); a module that uses {@link GridClient} returns {@link #all()} from settings(). */
public final class GridClientSettings {
    private GridClientSettings() {
    }

    public static final Setting<List<String>> ADDRESSES = Setting.of("pylon.cache.addresses",
            "Cache data grid members the client connects to first (host:port,...; Kubernetes: the Cache headless "
                    + "Service name with port 5701). The client then learns every member. A Worker keeps its counters "
                    + "and cached responses there and reads the gateway bundle's copy when the Manager is away; the "
                    + "Manager writes that copy of its environment's bundle. Unset: no data grid client.",
            null, SettingType.LIST);

    public static final Setting<Duration> OPERATION_TIMEOUT = Setting.of("pylon.cache.operation-timeout",
            "Longest a data grid operation (counter increment, response cache get/put) may take before it fails.",
            Duration.ofSeconds(2), SettingType.DURATION_TYPE);

    public static final Setting<Duration> CONNECT_TIMEOUT = Setting.of("pylon.cache.connect-timeout",
            "Timeout of one TCP connection attempt to a data grid member.", Duration.ofSeconds(2), SettingType.DURATION_TYPE);

    public static final Setting<Duration> RECONNECT_INITIAL_BACKOFF = Setting.of("pylon.cache.reconnect.initial-backoff",
            "Pause before the first reconnection attempt after the data grid became unreachable; doubles up to the maximum.",
            Duration.ofMillis(250), SettingType.DURATION_TYPE);

    public static final Setting<Duration> RECONNECT_MAX_BACKOFF = Setting.of("pylon.cache.reconnect.max-backoff",
            "Longest pause between reconnection attempts (the client never stops trying).",
            Duration.ofSeconds(5), SettingType.DURATION_TYPE);

    public static List<Setting<?>> all() {
        return List.of(ADDRESSES, OPERATION_TIMEOUT, CONNECT_TIMEOUT, RECONNECT_INITIAL_BACKOFF, RECONNECT_MAX_BACKOFF);
    }

    /** Whether the settings name any data grid member, i.e. whether a client should be started at all. */
    public static boolean configured(Settings settings) {
        List<String> addresses = settings.find(ADDRESSES);
        return addresses != null && !addresses.isEmpty();
    }
}
