package io.pylon.core.diagnostics.postmortem;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.time.Duration;
import java.util.List;

/** Settings of the black box: when a Worker or Cache pod writes a capture, and how many it keeps. */
public final class PostmortemSettings {
    private PostmortemSettings() {
    }

    public static final Setting<Boolean> ENABLED = Setting.of("pylon.diagnostics.postmortem.enabled",
            "Whether the pod writes a capture (thread dump, class histogram, jvm, threads, connections, health) to the "
                    + "postmortem folder of its data directory when a trigger fires.", true, SettingType.BOOLEAN);

    public static final Setting<Integer> MAX_COUNT = Setting.of("pylon.diagnostics.postmortem.max-count",
            "How many captures the pod keeps; the oldest is removed when a new one would exceed it.", 20,
            SettingType.intRange(1, 1000));

    public static final Setting<Long> MAX_BYTES = Setting.of("pylon.diagnostics.postmortem.max-bytes",
            "Largest size of one capture on disk (gzip): a larger one loses the end of its thread dump, then the "
                    + "whole dump, until it fits.", 4L * 1024 * 1024, SettingType.longRange(64 * 1024, 64L * 1024 * 1024));

    public static final Setting<Duration> MIN_INTERVAL = Setting.of("pylon.diagnostics.postmortem.min-interval",
            "Shortest time between two captures of the same trigger; a trigger that fires again sooner is counted "
                    + "but writes nothing.", Duration.ofMinutes(5), SettingType.durationAtLeast(Duration.ofSeconds(1)));

    public static final Setting<Duration> CHECK_INTERVAL = Setting.of("pylon.diagnostics.postmortem.check-interval",
            "How often the maintenance executor looks for a deadlock, a liveness probe turning DOWN and the heap "
                    + "after GC above pylon.health.heap-threshold.", Duration.ofSeconds(1),
            SettingType.durationAtLeast(Duration.ofMillis(100)));

    public static final Setting<Integer> BUSY_REFUSALS = Setting.of("pylon.diagnostics.postmortem.busy-refusals",
            "How many heavy diagnostics calls refused with 429 within pylon.diagnostics.postmortem.busy-window "
                    + "fire a capture.", 10, SettingType.intRange(1, 100_000));

    public static final Setting<Duration> BUSY_WINDOW = Setting.of("pylon.diagnostics.postmortem.busy-window",
            "The window over which 429 refusals of heavy diagnostics are counted.", Duration.ofMinutes(1),
            SettingType.durationAtLeast(Duration.ofSeconds(1)));

    public static List<Setting<?>> all() {
        return List.of(ENABLED, MAX_COUNT, MAX_BYTES, MIN_INTERVAL, CHECK_INTERVAL, BUSY_REFUSALS, BUSY_WINDOW);
    }
}
