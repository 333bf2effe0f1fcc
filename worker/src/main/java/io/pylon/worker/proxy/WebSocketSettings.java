package io.pylon.worker.proxy;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.time.Duration;
import java.util.List;

/** WebSocket tunnels through the gateway. */
public final class WebSocketSettings {
    private WebSocketSettings() {
    }

    public static final Setting<Duration> IDLE_TIMEOUT = Setting.of("pylon.worker.websocket.idle-timeout",
            "A WebSocket tunnel that carries no byte either way for this long is closed (both sides); pings count as traffic.",
            Duration.ofMinutes(5), SettingType.durationAtLeast(Duration.ofMillis(100)));

    public static final Setting<Integer> MAX_TUNNELS = Setting.of("pylon.worker.websocket.max-tunnels",
            "Most WebSocket tunnels one pod holds open; an upgrade beyond it is answered 503.", 20_000,
            SettingType.intRange(0, 1_000_000));

    public static List<Setting<?>> all() {
        return List.of(IDLE_TIMEOUT, MAX_TUNNELS);
    }
}
