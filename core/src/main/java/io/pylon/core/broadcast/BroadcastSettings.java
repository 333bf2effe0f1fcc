package io.pylon.core.broadcast;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.time.Duration;
import java.util.List;

/** Limits of a broadcast diagnostics call and of a call routed to one pod with {@code pod=}. */
public final class BroadcastSettings {
    private BroadcastSettings() {
    }

    public static final Setting<Integer> MAX_IN_FLIGHT = Setting.of("pylon.broadcast.max-in-flight",
            "Broadcast: how many pods are asked at the same time; the others wait for a free slot.",
            16, SettingType.intRange(1, 1024));

    public static final Setting<Duration> POD_TIMEOUT = Setting.of("pylon.broadcast.pod-timeout",
            "Broadcast: how long one pod may take to answer (then it is listed with error 504).",
            Duration.ofSeconds(5), SettingType.DURATION_TYPE);

    public static final Setting<Duration> SLOW_POD_TIMEOUT = Setting.of("pylon.broadcast.slow-pod-timeout",
            "Broadcast: the per-pod timeout for threaddump and all, which take longer to build.",
            Duration.ofSeconds(20), SettingType.DURATION_TYPE);

    public static final Setting<Duration> DEADLINE = Setting.of("pylon.broadcast.deadline",
            "Broadcast: the most a whole broadcast may take; pods not answered by then are listed with error 504. "
                    + "Below the 30 s after which collectors give up.", Duration.ofSeconds(25), SettingType.DURATION_TYPE);

    public static final Setting<Duration> CONNECT_TIMEOUT = Setting.of("pylon.broadcast.connect-timeout",
            "Broadcast and pod=: how long opening a connection to a pod may take.",
            Duration.ofSeconds(2), SettingType.DURATION_TYPE);

    public static final Setting<Duration> HEAPDUMP_TIMEOUT = Setting.of("pylon.broadcast.heapdump-timeout",
            "pod= with heapdump: how long the addressed pod waits for the other pod to start sending its heap dump "
                    + "(the dump is written before it is sent).", Duration.ofMinutes(5), SettingType.DURATION_TYPE);

    public static final Setting<Integer> MAX_ANSWER_MB = Setting.of("pylon.broadcast.max-answer-mb",
            "Broadcast: the largest answer accepted from one pod, in MiB (a larger one is listed with error 502).",
            64, SettingType.intRange(1, 1024));

    public static List<Setting<?>> all() {
        return List.of(MAX_IN_FLIGHT, POD_TIMEOUT, SLOW_POD_TIMEOUT, DEADLINE, CONNECT_TIMEOUT, HEAPDUMP_TIMEOUT,
                MAX_ANSWER_MB);
    }
}
