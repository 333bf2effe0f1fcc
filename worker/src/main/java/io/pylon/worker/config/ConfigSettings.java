package io.pylon.worker.config;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/** Where a Worker's gateway configuration comes from: the Manager (long-poll) or a routes file. */
public final class ConfigSettings {
    private ConfigSettings() {
    }

    public static final Setting<String> SOURCE = Setting.of("pylon.worker.config-source",
            "Where the gateway's proxies come from: 'manager' (long-polls pylon.worker.manager-url for its environment's "
                    + "bundle, keeps a last-known-good copy in the data folder) or 'file' (pylon.worker.routes-file).",
            "file", SettingType.NON_EMPTY);

    public static final Setting<URI> MANAGER_URL = Setting.of("pylon.worker.manager-url",
            "The Manager's URL a Worker in manager mode polls (http://manager:8080).", null, SettingType.HTTP_URL);

    public static final Setting<Duration> POLL_WAIT = Setting.of("pylon.worker.config-poll-wait",
            "How long one long-poll to the Manager may wait for a new bundle before it is asked again.",
            Duration.ofSeconds(25), SettingType.DURATION_TYPE);

    public static final Setting<Duration> MANAGER_TIMEOUT = Setting.of("pylon.worker.config-manager-timeout",
            "How long a Worker waits for the Manager beyond the long-poll's wait (connect, headers, body) before it "
                    + "counts the poll failed; at start-up, how long it tries the Manager before its disk copy.",
            Duration.ofSeconds(5), SettingType.DURATION_TYPE);

    public static final Setting<Integer> MAX_BUNDLE_MB = Setting.of("pylon.worker.config-max-bundle-mb",
            "Largest bundle a Worker accepts from the Manager, in MiB.", 32, SettingType.intRange(1, 1024));

    public static List<Setting<?>> all() {
        return List.of(SOURCE, MANAGER_URL, POLL_WAIT, MANAGER_TIMEOUT, MAX_BUNDLE_MB);
    }
}
