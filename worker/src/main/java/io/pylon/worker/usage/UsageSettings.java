package io.pylon.worker.usage;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.time.Duration;
import java.util.List;

/** How a Worker counts and reports the usage of applications ({@link UsageRecorder}, {@link UsageReporter}). */
public final class UsageSettings {
    private UsageSettings() {
    }

    public static final Setting<Boolean> ENABLED = Setting.of("pylon.worker.usage.enabled",
            "Count requests, errors and latency per application, proxy and minute for requests with an API key, and "
                    + "report them to the Manager (manager mode only).",
            true, SettingType.BOOLEAN);
    public static final Setting<Duration> REPORT_INTERVAL = Setting.of("pylon.worker.usage.report-interval",
            "How often a Worker sends the usage it counted to the Manager.",
            Duration.ofSeconds(10), SettingType.durationAtLeast(Duration.ofMillis(100)));
    public static final Setting<Integer> MAX_ENTRIES = Setting.of("pylon.worker.usage.max-entries",
            "Most (application, proxy, minute) counts a Worker holds, counting and not yet acknowledged by the Manager "
                    + "together; beyond it new ones are dropped and counted in pylon.worker.usage.dropped.",
            100_000, SettingType.intRange(100, 10_000_000));

    public static List<Setting<?>> all() {
        return List.of(ENABLED, REPORT_INTERVAL, MAX_ENTRIES);
    }
}
